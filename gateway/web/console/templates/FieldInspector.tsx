/**
 * The selected field's settings: who fills it, its label, whether it is required, what it accepts
 * (a dropdown's options, a number's bounds, a radio button's group and option, a checkbox group's
 * bounds), when it is shown; and removing it.
 */
import { useId } from "react";
import { SelectField, TextField } from "../ui";
import {
  conditionChoices,
  conditionParents,
  type EditedField,
  fieldName,
  kindOf,
  NEEDS_LABEL,
} from "./field-kinds";

/** A number typed into a bound's box: undefined while it is empty. */
const bound = (text: string) => (text.trim() === "" ? undefined : Number(text));

/** A number field's bounds, and how many boxes of a checkbox group a signer checks. */
const BOUNDS = [
  { key: "minimum", ofNumber: "Minimum", ofGroup: "Check at least" },
  { key: "maximum", ofNumber: "Maximum", ofGroup: "Check at most" },
] as const;

export function FieldInspector({
  field,
  fields,
  labelError,
  signers,
  onChange,
  onRemove,
}: {
  field: EditedField;
  /** Every field of the draft: the groups and the fields a condition may name are among them. */
  fields: readonly EditedField[];
  labelError: string | undefined;
  /** Who may fill it: roles of a template, or a request's signers, by key. */
  signers: readonly { key: string; name: string }[];
  onChange: (f: EditedField) => void;
  onRemove: () => void;
}) {
  const groupsId = useId();
  const groups = [
    ...new Set(
      fields
        .filter((f) => f.type === field.type && f.roleKey === field.roleKey && f.group)
        .map((f) => f.group as string),
    ),
  ];
  const parents = conditionParents(field, fields);
  const parent = fields.find((f) => f.key === field.condition?.fieldId);
  const choices = parent ? conditionChoices(parent, fields) : undefined;
  return (
    <div className="card" data-testid="field-inspector">
      <h2>{kindOf(field.type).label} field</h2>
      <p className="muted small">
        Page {field.page} · {Math.round(field.x)}, {Math.round(field.y)} · {Math.round(field.width)} ×{" "}
        {Math.round(field.height)} pt
      </p>
      <SelectField
        label="Filled by"
        value={field.roleKey}
        options={signers.map((r) => ({ value: r.key, label: r.name || "(unnamed)" }))}
        onChange={(roleKey) => onChange({ ...field, roleKey })}
      />
      <TextField
        label="Label"
        optional={!NEEDS_LABEL.has(field.type)}
        placeholder={NEEDS_LABEL.get(field.type)}
        error={labelError}
        value={field.label}
        maxLength={200}
        onChange={(e) => onChange({ ...field, label: e.target.value })}
      />

      {field.type === "dropdown" ? (
        <div>
          <label className="stacked-label" htmlFor={`${groupsId}-options`}>
            Options, one a line
          </label>
          <textarea
            id={`${groupsId}-options`}
            className="input"
            rows={4}
            data-testid="field-options"
            value={(field.options ?? []).join("\n")}
            onChange={(e) => onChange({ ...field, options: e.target.value.split("\n") })}
          />
        </div>
      ) : null}

      {field.type === "radio" || field.type === "checkbox" ? (
        <>
          <TextField
            label={field.type === "radio" ? "Group (the buttons of one choice)" : "Group"}
            optional={field.type === "checkbox"}
            placeholder={field.type === "radio" ? "e.g. Billing" : "e.g. Extras"}
            list={groupsId}
            value={field.group ?? ""}
            maxLength={100}
            data-testid="field-group"
            onChange={(e) => onChange({ ...field, group: e.target.value || undefined })}
          />
          <datalist id={groupsId}>
            {groups.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
        </>
      ) : null}
      {field.type === "radio" ? (
        <TextField
          label="Option (what the group reads when this button is chosen)"
          placeholder="e.g. Yearly"
          value={field.option ?? ""}
          maxLength={200}
          data-testid="field-option"
          onChange={(e) => onChange({ ...field, option: e.target.value || undefined })}
        />
      ) : null}

      {field.type === "checkbox" && field.group ? (
        <p className="muted small">
          How many boxes of the group a signer checks: give it on one box of the group.
        </p>
      ) : null}
      {field.type === "number" || (field.type === "checkbox" && field.group) ? (
        <div className="inspector-bounds">
          {BOUNDS.map(({ key, ofNumber, ofGroup }) => (
            <TextField
              key={key}
              label={field.type === "number" ? ofNumber : ofGroup}
              optional
              type="number"
              min={field.type === "checkbox" ? 0 : undefined}
              value={field[key] ?? ""}
              data-testid={`field-${key}`}
              onChange={(e) => onChange({ ...field, [key]: bound(e.target.value) })}
            />
          ))}
        </div>
      ) : null}

      {parents.length > 0 || field.condition ? (
        <>
          <SelectField
            label="Show only when"
            any="Always shown"
            value={field.condition?.fieldId ?? ""}
            options={parents.map((p) => ({ value: p.key, label: fieldName(p) }))}
            onChange={(fieldId) => {
              const next = fields.find((f) => f.key === fieldId);
              const first = next ? conditionChoices(next, fields)?.[0]?.value : undefined;
              onChange({ ...field, condition: fieldId ? { fieldId, value: first ?? "" } : undefined });
            }}
          />
          {field.condition && choices ? (
            <SelectField
              label="…reads"
              value={field.condition.value}
              options={choices}
              onChange={(value) =>
                onChange({ ...field, condition: { fieldId: field.condition?.fieldId ?? "", value } })
              }
            />
          ) : field.condition ? (
            <TextField
              label="…reads"
              value={field.condition.value}
              maxLength={200}
              onChange={(e) =>
                onChange({
                  ...field,
                  condition: { fieldId: field.condition?.fieldId ?? "", value: e.target.value },
                })
              }
            />
          ) : null}
        </>
      ) : null}

      <div className="inspector-actions">
        <label className="check">
          <input
            type="checkbox"
            checked={field.required}
            onChange={(e) => onChange({ ...field, required: e.target.checked })}
          />{" "}
          Required
        </label>
        <button type="button" className="button danger small" onClick={onRemove}>
          Remove field
        </button>
      </div>
    </div>
  );
}
