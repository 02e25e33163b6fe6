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
]);
export const LABEL_NEEDED = "give it a label, the only thing the signer is told about what the field is for";

/** The fields a signer could not tell the meaning of, with their index among `fields`. */
export function unlabelledFields<F extends EditedField>(fields: readonly F[]) {
  return fields.flatMap((field, index) =>
    NEEDS_LABEL.has(field.type) && !field.label.trim() ? [{ field, index }] : [],
  );
}

const tenth = (n: number) => Math.round(n * 10) / 10;

/**
 * A field as the API takes it: its role by name, its box to a tenth of a point, and no label when
 * none was typed. What else the field carries (a request's documentId) goes along.
 */
export function fieldBody<F extends EditedField>(field: F, role: string) {
  const { key: _key, roleKey: _roleKey, ...rest } = field;
  return {
    ...rest,
    role,
    x: tenth(field.x),
    y: tenth(field.y),
    width: tenth(field.width),
    height: tenth(field.height),
    label: field.label.trim() || undefined,
  };
}

/** Smallest box a field may be resized to, in points. */
export const MIN_SIZE = 10;

/** Colours that tell the roles apart on the page, by role index. */
const ROLE_COLOURS = ["#2451b7", "#b4531d", "#1e7a46", "#8a2bb7", "#b42318", "#0f766e"];
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
