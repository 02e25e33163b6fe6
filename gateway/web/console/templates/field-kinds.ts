/** The kinds of field a template can hold, with the size a new one gets (PDF points). */
import type { PageSize } from "../../shared/PageView";
import type { TemplateField } from "../types";
export const FIELD_KINDS = [
  { type: "signature", label: "Signature", width: 180, height: 48 },
  { type: "initials", label: "Initials", width: 72, height: 40 },
  { type: "date_signed", label: "Date signed", width: 110, height: 22 },
  { type: "name", label: "Name", width: 160, height: 22 },
  { type: "email", label: "E-mail", width: 180, height: 22 },
  { type: "text", label: "Text", width: 160, height: 22 },
  { type: "checkbox", label: "Checkbox", width: 16, height: 16 },
  { type: "radio", label: "Radio button", width: 16, height: 16 },
  { type: "dropdown", label: "Dropdown", width: 140, height: 22 },
  { type: "number", label: "Number", width: 80, height: 22 },
  { type: "date", label: "Date", width: 110, height: 22 },
  { type: "attachment", label: "Attachment", width: 180, height: 30 },
] as const;

export type FieldType = (typeof FIELD_KINDS)[number]["type"];

/** The label inside a placed field is drawn as if this size on the page, so it keeps to its box. */
const LABEL_POINTS = 8;
/** …but never smaller than can be read, nor larger than the console's small text. */
const LABEL_PX = { min: 7, max: 11.5 };

/**
 * The font size (CSS px) of a placed field's label when the page is shown at `scale` px per point:
 * it grows and shrinks with the page, so "Date signed" fits its default box at 390 px as at 1280.
 */
export function fieldLabelPx(scale: number): number {
  return Math.min(LABEL_PX.max, Math.max(LABEL_PX.min, LABEL_POINTS * scale));
}

export const kindOf = (type: string) => FIELD_KINDS.find((k) => k.type === type) ?? FIELD_KINDS[0];

/**
 * Kinds of field whose meaning the signer learns only from the label: without one the signing page
 * could say no more than "Text" or "Checkbox". The API leaves labels optional; the console does not.
 */
export const NEEDS_LABEL: ReadonlyMap<string, string> = new Map([
  ["text", "e.g. Company name"],
  ["checkbox", "e.g. I accept the terms"],
  // The question its group's buttons answer: the signer hears "Yearly, Billing period".
  ["radio", "e.g. Billing period"],
  ["dropdown", "e.g. Plan"],
  ["number", "e.g. Number of seats"],
  ["date", "e.g. Start date"],
  ["attachment", "e.g. Copy of your ID"],
]);
export const LABEL_NEEDED = "give it a label, the only thing the signer is told about what the field is for";

/** The fields a signer could not tell the meaning of, with their index among `fields`. */
export function unlabelledFields<F extends EditedField>(fields: readonly F[]) {
  return fields.flatMap((field, index) =>
    NEEDS_LABEL.has(field.type) && !field.label.trim() ? [{ field, index }] : [],
  );
}

/**
 * What a placed box says it is, on the page and to a screen reader: its label (a radio button's
 * label and option), or only its kind while it has none.
 */
export function boxCaption(field: Pick<EditedField, "type" | "label" | "option">): string {
  const label = field.label.trim();
  const option = field.type === "radio" ? (field.option ?? "").trim() : "";
  return [label, option].filter(Boolean).join(": ");
}

const tenth = (n: number) => Math.round(n * 10) / 10;

/**
 * A field as the API takes it: its key as its id (conditions name fields by id), its role by name,
 * its box to a tenth of a point, and no label when none was typed. What else the field carries (its
 * rules, a request's documentId) goes along.
 */
export function fieldBody<F extends EditedField>(field: F, role: string) {
  const { key, roleKey: _roleKey, ...rest } = field;
  return {
    ...rest,
    id: key,
    role,
    x: tenth(field.x),
    y: tenth(field.y),
    width: tenth(field.width),
    height: tenth(field.height),
    label: field.label.trim() || undefined,
    options: field.options?.map((o) => o.trim()).filter(Boolean),
  };
}

/** What a field accepts beyond its type and when it is shown, as the API gives it: only what is set. */
export function rulesOf(
  field: Pick<TemplateField, "options" | "minimum" | "maximum" | "group" | "option" | "condition">,
) {
  const { options, minimum, maximum, group, option, condition } = field;
  return Object.fromEntries(
    Object.entries({ options, minimum, maximum, group, option, condition }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Partial<typeof field>;
}

/** The kinds of field a condition can read: those whose value the signer chooses. */
const READABLE = new Set(["checkbox", "radio", "dropdown", "text", "number", "date"]);

/**
 * The fields `field` could depend on: another field of the same signer that a condition can read,
 * a radio group once (by its first button, which stands for it), and none that depends on `field`.
 */
export function conditionParents(field: EditedField, fields: readonly EditedField[]) {
  const dependsOn = (f: EditedField, seen = new Set<string>()): boolean => {
    const parent = fields.find((p) => p.key === f.condition?.fieldId);
    if (!parent || seen.has(parent.key)) return false;
    return parent.key === field.key || dependsOn(parent, seen.add(parent.key));
  };
  const groupsSeen = new Set<string>();
  return fields.filter((f) => {
    if (f.key === field.key || f.roleKey !== field.roleKey || !READABLE.has(f.type) || dependsOn(f))
      return false;
    if (f.type !== "radio") return true;
    if (field.type === "radio" && f.group === field.group) return false;
    if (groupsSeen.has(f.group ?? "")) return false;
    groupsSeen.add(f.group ?? "");
    return true;
  });
}

/** How a field is named where another depends on it: its kind and its label (a radio group's name). */
export function fieldName(field: EditedField): string {
  const name = field.type === "radio" ? field.group : field.label.trim();
  return `${field.type === "radio" ? "Radio group" : kindOf(field.type).label}: ${name || "(no label)"}`;
}

/** What a condition on `parent` may compare with, when it is a choice: a checkbox's state, the options. */
export function conditionChoices(
  parent: EditedField,
  fields: readonly EditedField[],
): { value: string; label: string }[] | undefined {
  if (parent.type === "checkbox") {
    return [
      { value: "on", label: "is checked" },
      { value: "off", label: "is not checked" },
    ];
  }
  const options =
    parent.type === "dropdown"
      ? (parent.options ?? [])
      : parent.type === "radio"
        ? fields
            .filter((f) => f.type === "radio" && f.group === parent.group && f.roleKey === parent.roleKey)
            .map((f) => f.option ?? "")
        : undefined;
  return options?.filter((o) => o.trim()).map((o) => ({ value: o, label: `is "${o}"` }));
}

/** Smallest box a field may be resized to, in points. */
export const MIN_SIZE = 10;

/** Colours that tell the roles apart on the page, by role index. */
// Each holds 4.5:1 against its own 12% tint over a white page, where a field's label is drawn in
// it at sizes down to a phone's: the orange, green and teal of before held about 4.2:1.
const ROLE_COLOURS = ["#2451b7", "#9a4412", "#18693c", "#8a2bb7", "#b42318", "#0d6660"];
export const roleColour = (index: number) => ROLE_COLOURS[index % ROLE_COLOURS.length] as string;

/** A role while it is edited: its key stays put while its name is typed. */
export interface EditedRole {
  key: string;
  name: string;
  order: number;
}

/** A template's field while it is edited: the stored field's place and flags, its role by key. */
export interface EditedField extends Omit<TemplateField, "id" | "type" | "role"> {
  /** Local identity while editing; the service assigns the stored id. */
  key: string;
  type: FieldType;
  /** The key of the role that fills it. */
  roleKey: string;
}

/** A moved box, kept inside its page (as the service requires) without changing its size. */
export function placeOnPage(field: EditedField, size: PageSize): EditedField {
  const width = Math.min(Math.max(MIN_SIZE, field.width), size.width);
  const height = Math.min(Math.max(MIN_SIZE, field.height), size.height);
  return {
    ...field,
    width,
    height,
    x: Math.min(Math.max(0, field.x), size.width - width),
    y: Math.min(Math.max(0, field.y), size.height - height),
  };
}

/** A resized box: its top-left corner stays, and it stops at the page's right and bottom edges. */
export function resizeOnPage(field: EditedField, width: number, height: number, size: PageSize): EditedField {
  return {
    ...field,
    width: Math.min(Math.max(MIN_SIZE, width), size.width - field.x),
    height: Math.min(Math.max(MIN_SIZE, height), size.height - field.y),
  };
}

let counter = 0;
export const newKey = () => `f${Date.now().toString(36)}${(counter++).toString(36)}`;
