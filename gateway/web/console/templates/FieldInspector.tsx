/** The selected field's settings: who fills it, its label, whether it is required; and removing it. */
import { SelectField, TextField } from "../ui";
import { type EditedField, kindOf, NEEDS_LABEL } from "./field-kinds";

export function FieldInspector({
  field,
  labelError,
  signers,
  onChange,
  onRemove,
}: {
  field: EditedField;
  labelError: string | undefined;
  /** Who may fill it: roles of a template, or a request's signers, by key. */
  signers: readonly { key: string; name: string }[];
  onChange: (f: EditedField) => void;
  onRemove: () => void;
}) {
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
