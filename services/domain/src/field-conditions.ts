/**
 * How the signing page and the service read what a signer fills in alike: when a conditional field
 * is shown (while the field it depends on is shown and reads the condition's value), and what a
 * number field's text is worth. The page shows, hides and checks as the signer fills in; the service
 * requires and keeps only what was shown. Pure and free of imports, so the page takes it as it is.
 */

/** What a field needs of its condition's field to decide. */
export interface ConditionalField {
  id: string;
  type: string;
  group?: string;
  option?: string;
  condition?: { fieldId: string; value: string };
}

/** A field's value as far as a condition reads it: text, a checkbox's or radio button's state. */
export type ReadableValue = string | boolean | undefined;

/** The values a checkbox offers a condition. */
export const CHECKBOX_READINGS = { checked: "on", unchecked: "off" } as const;

/**
 * What a field reads for a condition: a checkbox "on" or "off", a radio button its group's chosen
 * option ("" while none is), any other field its text, trimmed.
 */
export function conditionReading<F extends ConditionalField>(
  field: F,
  fields: readonly F[],
  readValue: (field: F) => ReadableValue,
): string {
  if (field.type === "checkbox") {
    return readValue(field) === true ? CHECKBOX_READINGS.checked : CHECKBOX_READINGS.unchecked;
  }
  if (field.type === "radio") {
    const chosen = fields.find((f) => f.type === "radio" && f.group === field.group && readValue(f) === true);
    return chosen?.option ?? "";
  }
  const value = readValue(field);
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Whether each field is shown, by id: a field without a condition always is; one with a condition is
 * while its condition's field is shown and reads the condition's value. A condition naming no field,
 * or going round in a circle, hides its field (templates refuse both; this only never loops).
 */
export function shownFields<F extends ConditionalField>(
  fields: readonly F[],
  readValue: (field: F) => ReadableValue,
): Map<string, boolean> {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const shown = new Map<string, boolean>();
  const decide = (field: F, seen: Set<string>): boolean => {
    const known = shown.get(field.id);
    if (known !== undefined) return known;
    const condition = field.condition;
    let result = true;
    if (condition) {
      const parent = byId.get(condition.fieldId);
      result =
        parent !== undefined &&
        !seen.has(parent.id) &&
        decide(parent, new Set(seen).add(field.id)) &&
        conditionReading(parent, fields, readValue) === condition.value;
    }
    shown.set(field.id, result);
    return result;
  };
  for (const field of fields) decide(field, new Set([field.id]));
  return shown;
}

/** A number as a signer types it: digits, one decimal point or comma, an optional minus sign. */
const NUMBER = /^-?(\d+([.,]\d*)?|[.,]\d+)$/;

/** The number a signer typed into a number field (3.5 or 3,5), or undefined when it is none. */
export function numberOf(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text.replace(",", "."));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * How many boxes of a checkbox group must be checked at least and may be at most: the bounds one of
 * its boxes gives, else one when any box is required.
 */
export function groupBounds(members: readonly { minimum?: number; maximum?: number; required: boolean }[]): {
  least: number;
  most?: number;
} {
  const rules = members.find((f) => f.minimum !== undefined || f.maximum !== undefined);
  return {
    least: rules?.minimum ?? (members.some((f) => f.required) ? 1 : 0),
    most: rules?.maximum,
  };
}
