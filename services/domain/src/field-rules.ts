/**
 * The rules of what a field accepts beyond its type (a dropdown's options, a number's bounds, radio
 * and checkbox groups) and of when it is shown (conditions), checked over all of a layout's fields at
 * once: a group or a condition is about more than one field. Every violation is reported with its path.
 */
import type { FieldViolation } from "@countersign/kit";
import { CHECKBOX_READINGS } from "./field-conditions.js";

export const RULE_LIMITS = { options: 100, optionLength: 200, groupLength: 100, valueLength: 200 } as const;

/** What a field accepts beyond its type, and when it is shown; absent where the type has none. */
export interface FieldRules {
  /** A dropdown's choices. */
  options?: string[];
  /** A number field's bounds, or how many of a checkbox group's boxes are checked at least and at most. */
  minimum?: number;
  maximum?: number;
  /** The radio group or checkbox group the field belongs to, per role. */
  group?: string;
  /** What a radio button's group reads when it is chosen. */
  option?: string;
  /** Shown (and required, if it is) only while the field named reads the value. */
  condition?: { fieldId: string; value: string };
}

/** A field as far as its rules concern it. */
export interface RuledField extends FieldRules {
  id: string;
  type: string;
  role: string;
}

/** Role names are compared as people read them: trimmed, case-insensitively. */
export function roleKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The fields a condition can read: those a signer fills with a value they choose. */
const READABLE = ["checkbox", "radio", "dropdown", "text", "number", "date"];

const groupKey = (field: RuledField) => `${roleKey(field.role)}\n${field.group?.trim() ?? ""}`;

/** Violations of every field's rules, and of groups and conditions across the fields. */
export function fieldRuleViolations(fields: readonly RuledField[]): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const add = (i: number, name: string, message: string) =>
    violations.push({ path: `fields[${i}].${name}`, message });
  const groups = new Map<string, number[]>();
  fields.forEach((field, i) => {
    if (!field.group?.trim()) return;
    const members = groups.get(groupKey(field)) ?? [];
    members.push(i);
    groups.set(groupKey(field), members);
  });
  const membersOf = (field: RuledField) => groups.get(groupKey(field)) ?? [];
  // The first field of each id (a repeated id is refused elsewhere).
  const indexById = new Map<string, number>();
  fields.forEach((f, i) => {
    if (f.id && !indexById.has(f.id)) indexById.set(f.id, i);
  });

  fields.forEach((field, i) => {
    optionsViolations(field, (name, message) => add(i, name, message));
    const group = field.group?.trim() ?? "";
    if (field.type === "radio" && !group) add(i, "group", "is required: it names the radio button's group");
    else if (group && field.type !== "radio" && field.type !== "checkbox") {
      add(i, "group", "only radio buttons and checkboxes belong to a group");
    } else if (group.length > RULE_LIMITS.groupLength) {
      add(i, "group", `must be at most ${RULE_LIMITS.groupLength} characters`);
    }
    const option = field.option?.trim() ?? "";
    if (field.type === "radio") {
      if (!option) add(i, "option", "is required: it is what the group reads when this button is chosen");
      else if (option.length > RULE_LIMITS.optionLength) {
        add(i, "option", `must be at most ${RULE_LIMITS.optionLength} characters`);
      }
    } else if (option) add(i, "option", "only a radio button has an option");
    boundsViolations(field, group ? membersOf(field).length : 0, (name, message) => add(i, name, message));
    if (field.condition) {
      conditionViolations(field, i, fields, indexById, membersOf, (name, message) => add(i, name, message));
    }
  });

  for (const members of groups.values()) {
    const [first, ...rest] = members as [number, ...number[]];
    const lead = fields[first] as RuledField;
    for (const i of rest) {
      const field = fields[i] as RuledField;
      if (field.type !== lead.type) {
        add(
          i,
          "group",
          `"${lead.group}" is a group of ${lead.type} fields (fields[${first}]): a group holds one type`,
        );
        continue;
      }
      if (!sameCondition(field, lead)) {
        add(i, "condition", `must be the condition of the rest of its group, as fields[${first}] has it`);
      }
      if (field.type === "radio") {
        const earlier = members.find((k) => k < i && fields[k]?.option?.trim() === field.option?.trim());
        if (earlier !== undefined && field.option?.trim()) {
          add(i, "option", `"${field.option}" is already the option of fields[${earlier}] in its group`);
        }
      } else if (
        (field.minimum !== undefined && lead.minimum !== undefined && field.minimum !== lead.minimum) ||
        (field.maximum !== undefined && lead.maximum !== undefined && field.maximum !== lead.maximum)
      ) {
        add(i, "minimum", `must be the same as the group's, which fields[${first}] gives`);
      }
    }
  }
  return violations;
}

function sameCondition(a: RuledField, b: RuledField): boolean {
  return a.condition?.fieldId === b.condition?.fieldId && a.condition?.value === b.condition?.value;
}

function optionsViolations(field: RuledField, add: (name: string, message: string) => void): void {
  const options = field.options ?? [];
  if (field.type !== "dropdown") {
    if (options.length > 0) add("options", "only a dropdown has options");
    return;
  }
  if (options.length === 0) add("options", "a dropdown needs at least one option");
  else if (options.length > RULE_LIMITS.options) add("options", `at most ${RULE_LIMITS.options} options`);
  const seen = new Map<string, number>();
  options.forEach((option, k) => {
    const at = `options[${k}]`;
    if (!option.trim()) add(at, "is required");
    else if (option.length > RULE_LIMITS.optionLength) {
      add(at, `must be at most ${RULE_LIMITS.optionLength} characters`);
    } else {
      const earlier = seen.get(option.trim());
      if (earlier === undefined) seen.set(option.trim(), k);
      else add(at, `"${option}" is already options[${earlier}]`);
    }
  });
}

/** A number's bounds, or a checkbox group's count of `groupSize` boxes. */
function boundsViolations(
  field: RuledField,
  groupSize: number,
  add: (name: string, message: string) => void,
): void {
  const { minimum, maximum } = field;
  if (minimum === undefined && maximum === undefined) return;
  const counted = field.type === "checkbox";
  if (field.type !== "number" && !counted) {
    add(minimum === undefined ? "maximum" : "minimum", "only number fields and checkbox groups have bounds");
    return;
  }
  if (counted && groupSize === 0) {
    add("group", "is required: a minimum or maximum counts the checked boxes of a group");
    return;
  }
  for (const [name, bound] of [
    ["minimum", minimum],
    ["maximum", maximum],
  ] as const) {
    if (bound === undefined) continue;
    if (!Number.isFinite(bound)) add(name, "must be a number");
    else if (counted && (!Number.isInteger(bound) || bound < 0 || bound > groupSize)) {
      add(name, `must be a whole number from 0 to ${groupSize}, the boxes in the group`);
    }
  }
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    add("maximum", `must be at least the minimum, ${minimum}`);
  }
}

function conditionViolations(
  field: RuledField,
  i: number,
  fields: readonly RuledField[],
  indexById: ReadonlyMap<string, number>,
  membersOf: (field: RuledField) => number[],
  add: (name: string, message: string) => void,
): void {
  const { fieldId, value } = field.condition as { fieldId: string; value: string };
  const parentIndex = indexById.get(fieldId) ?? -1;
  const parent = fields[parentIndex];
  if (!parent) {
    add("condition.fieldId", "must be the id of another field");
    return;
  }
  if (parentIndex === i) {
    add("condition.fieldId", "must be another field: a field cannot depend on itself");
    return;
  }
  if (roleKey(parent.role) !== roleKey(field.role)) {
    add(
      "condition.fieldId",
      `must be a field of the same role: fields[${parentIndex}] is "${parent.role}"'s`,
    );
    return;
  }
  if (!READABLE.includes(parent.type)) {
    add(
      "condition.fieldId",
      `fields[${parentIndex}] is a ${parent.type} field, which a condition cannot read: name a ${READABLE.join(", ")} field`,
    );
    return;
  }
  const offered =
    parent.type === "checkbox"
      ? [CHECKBOX_READINGS.checked, CHECKBOX_READINGS.unchecked]
      : parent.type === "dropdown"
        ? (parent.options ?? []).map((o) => o.trim())
        : parent.type === "radio"
          ? membersOf(parent).map((k) => fields[k]?.option?.trim() ?? "")
          : undefined;
  if (offered && !offered.includes(value)) {
    add(
      "condition.value",
      `must be one of what fields[${parentIndex}] reads: ${offered.map((o) => `"${o}"`).join(", ")}`,
    );
  } else if (!value.trim()) add("condition.value", "is required");
  else if (value.length > RULE_LIMITS.valueLength) {
    add("condition.value", `must be at most ${RULE_LIMITS.valueLength} characters`);
  }
  let at: RuledField | undefined = parent;
  for (let steps = 0; at?.condition && steps <= fields.length; steps++) {
    if (at.condition.fieldId === field.id) {
      add("condition.fieldId", "goes round in a circle: the fields it depends on depend on this one");
      return;
    }
    // By the index, not a search: a chain of 500 conditions is walked for each of its 500 fields.
    at = fields[indexById.get(at.condition.fieldId) ?? -1];
  }
}

/** Rules as the contract carries them (countersign.fields.v1.FieldRules). */
export interface FieldRulesMessage {
  options: string[];
  minimum?: number;
  maximum?: number;
  group: string;
  option: string;
  condition?: { fieldId: string; value: string };
}

/** The rules a message carries, with what is unset left out (as fields are stored). */
export function rulesOf(message: FieldRulesMessage | undefined): FieldRules {
  if (!message) return {};
  const rules: FieldRules = {};
  if (message.options.length > 0) rules.options = message.options.map((o) => o.trim());
  if (message.minimum !== undefined) rules.minimum = message.minimum;
  if (message.maximum !== undefined) rules.maximum = message.maximum;
  if (message.group.trim()) rules.group = message.group.trim();
  if (message.option.trim()) rules.option = message.option.trim();
  if (message.condition) {
    rules.condition = { fieldId: message.condition.fieldId, value: message.condition.value.trim() };
  }
  return rules;
}

/** A field's rules as the contract carries them. */
export function rulesMessage(rules: FieldRules): FieldRulesMessage {
  return {
    options: rules.options ?? [],
    minimum: rules.minimum,
    maximum: rules.maximum,
    group: rules.group ?? "",
    option: rules.option ?? "",
    condition: rules.condition && { fieldId: rules.condition.fieldId, value: rules.condition.value },
  };
}
