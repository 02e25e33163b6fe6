import { groupBounds, numberOf, shownFields } from "@countersign/domain/web";

export { groupBounds };

import type { Field, FieldType, FieldValue, Session, SubmittedValue } from "./api";
import type { Translate } from "./i18n/locales";
import type { MessageId } from "./i18n/messages/en";

const TYPE_NAMES: Record<FieldType, MessageId> = {
  signature: "type.signature",
  initials: "type.initials",
  date_signed: "type.date_signed",
  text: "type.text",
  checkbox: "type.checkbox",
  name: "type.name",
  email: "type.email",
  date: "type.date",
  number: "type.number",
  dropdown: "type.dropdown",
  radio: "type.radio",
  attachment: "type.attachment",
};

/** Fields in reading order: document, page, top to bottom, left to right. */
export function sortFields(session: Session): Field[] {
  const docIndex = new Map(session.documents.map((d, i) => [d.id, i]));
  return [...session.fields].sort(
    (a, b) =>
      (docIndex.get(a.documentId) ?? 0) - (docIndex.get(b.documentId) ?? 0) ||
      a.page - b.page ||
      a.y - b.y ||
      a.x - b.x,
  );
}

/** Whether the signer has to do anything for this field (the server stamps the date). */
export function isFillable(field: Field): boolean {
  return field.type !== "date_signed";
}

export function isFilled(field: Field, value: FieldValue | undefined): boolean {
  switch (field.type) {
    case "date_signed":
      return true;
    case "signature":
    case "initials":
      return typeof value === "object" && value !== null && value.kind !== "attachment";
    case "attachment":
      return typeof value === "object" && value !== null && value.kind === "attachment";
    case "checkbox":
    case "radio":
      return value === true;
    default:
      return typeof value === "string" && value.trim().length > 0;
  }
}

/** What a value reads for a condition (field-conditions.ts): a picked date its day, text its text. */
function readingOf(value: FieldValue | undefined): string | boolean | undefined {
  return typeof value === "string" || typeof value === "boolean" ? value : undefined;
}

/** Whether each field is shown, by id, as the values stand: by the rule the service applies. */
export function shownOf(fields: Field[], values: Values): Map<string, boolean> {
  return shownFields(fields, (f) => readingOf(values[f.id]));
}

/** Why a number field's text is refused, as the service would refuse it; undefined when it is fine. */
export function numberProblem(field: Field, value: FieldValue | undefined, t: Translate): string | undefined {
  if (field.type !== "number" || typeof value !== "string" || !value.trim()) return undefined;
  const number = numberOf(value.trim());
  if (number === undefined || value.trim().length > 30) return t("field.notANumber");
  if (field.minimum !== undefined && number < field.minimum)
    return t("field.tooSmall", { min: field.minimum });
  if (field.maximum !== undefined && number > field.maximum)
    return t("field.tooLarge", { max: field.maximum });
  return undefined;
}

/** The buttons or boxes of the group `field` belongs to, among `fields`; just the field outside one. */
export function groupOf(field: Field, fields: Field[]): Field[] {
  if (!field.group || (field.type !== "radio" && field.type !== "checkbox")) return [field];
  return fields.filter((f) => f.type === field.type && f.group === field.group);
}

/** Something the signer must do before finishing: fill a required field, or choose in a group. */
export interface Requirement {
  /** The first field of it, in reading order: where "Next" takes the signer. */
  id: string;
  filled: boolean;
}

/**
 * What the signer must still do, each thing once, among the shown fields in reading order: a
 * required field (a number within its bounds), a required radio group (one button chosen), a
 * checkbox group that needs boxes checked (within its bounds).
 */
export function requirements(
  fields: Field[],
  values: Values,
  shown: Map<string, boolean>,
  t: Translate,
): Requirement[] {
  const found: Requirement[] = [];
  const groupsSeen = new Set<string>();
  for (const field of fields) {
    if (!shown.get(field.id) || !isFillable(field)) continue;
    const members = groupOf(field, fields).filter((f) => shown.get(f.id));
    if (members.length > 1 || field.group) {
      const key = `${field.type}\n${field.group}`;
      if (groupsSeen.has(key)) continue;
      groupsSeen.add(key);
      const chosen = members.filter((f) => values[f.id] === true).length;
      if (field.type === "radio") {
        if (members.some((f) => f.required)) found.push({ id: field.id, filled: chosen === 1 });
        continue;
      }
      const { least, most } = groupBounds(members);
      if (least > 0)
        found.push({ id: field.id, filled: chosen >= least && (most === undefined || chosen <= most) });
      continue;
    }
    if (field.required) {
      found.push({
        id: field.id,
        filled: isFilled(field, values[field.id]) && !numberProblem(field, values[field.id], t),
      });
    }
  }
  return found;
}

export function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toLocaleUpperCase() ?? "")
    .join("")
    .slice(0, 4);
}

export type Values = Record<string, FieldValue | undefined>;

export function initialValues(session: Session): Values {
  const values: Values = {};
  for (const field of session.fields) {
    if (field.type === "name") values[field.id] = session.recipient.name;
    else if (field.type === "email") values[field.id] = session.recipient.email;
    else if (field.type === "checkbox" || field.type === "radio") values[field.id] = false;
    else if (["text", "number", "date", "dropdown"].includes(field.type))
      values[field.id] = field.prefilled ?? "";
  }
  return values;
}

/**
 * The body's `values`: nothing for date_signed, for fields their condition hides, for empty optional
 * fields or for radio buttons not chosen; an attachment by the id its upload was answered.
 */
export function submittedValues(
  fields: Field[],
  values: Values,
  shown: Map<string, boolean>,
): Record<string, SubmittedValue> {
  const out: Record<string, SubmittedValue> = {};
  for (const field of fields) {
    const value = values[field.id];
    if (field.type === "date_signed" || value === undefined || !shown.get(field.id)) continue;
    if (field.type === "checkbox") out[field.id] = value === true;
    else if (field.type === "radio") {
      if (value === true) out[field.id] = true;
    } else if (typeof value === "string") {
      // A field the sender filled in and the signer emptied is sent empty: left out, it would keep the sender's value.
      if (value.trim() || field.prefilled) out[field.id] = value.trim();
    } else if (typeof value === "object" && value.kind === "attachment") {
      out[field.id] = { kind: "attachment", id: value.id };
    } else if (typeof value === "object") out[field.id] = value;
  }
  return out;
}

/** The sender's label for a field, else its type's name in the page's language. */
export function fieldLabel(field: Field, t: Translate): string {
  return field.label?.trim() || t(TYPE_NAMES[field.type]);
}
