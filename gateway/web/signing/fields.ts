import type { Field, FieldType, FieldValue, Session } from "./api";
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
      return typeof value === "object" && value !== null;
    case "checkbox":
      return value === true;
    default:
      return typeof value === "string" && value.trim().length > 0;
  }
}

export function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toLocaleUpperCase() ?? "")
    .join("")
    .slice(0, 4);
}

export function initialValues(session: Session): Record<string, FieldValue | undefined> {
  const values: Record<string, FieldValue | undefined> = {};
  for (const field of session.fields) {
    if (field.type === "name") values[field.id] = session.recipient.name;
    else if (field.type === "email") values[field.id] = session.recipient.email;
    else if (field.type === "text") values[field.id] = "";
    else if (field.type === "checkbox") values[field.id] = false;
  }
  return values;
}

/** The body's `values`: nothing for date_signed, nothing for empty optional fields. */
export function submittedValues(
  fields: Field[],
  values: Record<string, FieldValue | undefined>,
): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const field of fields) {
    const value = values[field.id];
    if (field.type === "date_signed" || value === undefined) continue;
    if (field.type === "checkbox") out[field.id] = value === true;
    else if (typeof value === "string") {
      if (value.trim()) out[field.id] = value.trim();
    } else out[field.id] = value;
  }
  return out;
}

/** The sender's label for a field, else its type's name in the page's language. */
export function fieldLabel(field: Field, t: Translate): string {
  return field.label?.trim() || t(TYPE_NAMES[field.type]);
}
