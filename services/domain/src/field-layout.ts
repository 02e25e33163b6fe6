/**
 * The rules of fields laid on PDF pages, shared by templates and by requests made from documents:
 * field types, which role fills each field, every role signing somewhere, what each field accepts
 * (field-rules.ts), and fields lying on a page that exists and inside it. Pure functions that report
 * every violation with its path.
 */
import type { FieldViolation } from "@countersign/kit";
import {
  type FieldRules,
  type FieldRulesMessage,
  fieldRuleViolations,
  roleKey,
  rulesOf,
} from "./field-rules.js";

export const FIELD_TYPES = [
  "signature",
  "initials",
  "date_signed",
  "text",
  "checkbox",
  "name",
  "email",
  "date",
  "number",
  "dropdown",
  "radio",
  "attachment",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_LIMITS = { fields: 500, labelLength: 200 } as const;

/** The box of a page a text tag took, painted white in the completed PDF (the contract's TextCover). */
export interface TextCover {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A field's cover as the contract's TextCover message carries it, kept as a plain box; absent when none. */
export function coverOf(cover: TextCover | undefined): { cover?: TextCover } {
  return cover ? { cover: { x: cover.x, y: cover.y, width: cover.width, height: cover.height } } : {};
}

/** Where a field lies: its page (from 1) and its box on that page, in PDF points. */
export interface FieldPlacement {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A field's placement alone, from anything that carries one (a contract's message, a row, a draft). */
export function placementOf({ page, x, y, width, height }: FieldPlacement): FieldPlacement {
  return { page, x, y, width, height };
}

export interface FieldDraft extends FieldRules, FieldPlacement {
  id: string;
  type: string;
  role: string;
  required: boolean;
  label: string;
  /** The text tag that placed the field, set only by the service that found it. */
  cover?: TextCover;
}

/** A field as the contracts carry it: a draft whose rules are a message. */
export type FieldMessage = Omit<FieldDraft, keyof FieldRules> & { rules?: FieldRulesMessage };

/** A field of a contract as a plain draft: the one mapping of a field's properties across services. */
export function fieldDraftOf(f: FieldMessage): FieldDraft {
  return {
    id: f.id,
    type: f.type,
    role: f.role,
    ...placementOf(f),
    required: f.required,
    label: f.label,
    ...rulesOf(f.rules),
    ...coverOf(f.cover),
  };
}

/** Width and height of each page in PDF points, as the document's viewer shows it. */
export type PageSizes = { width: number; height: number }[];

const FIELD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Tolerance for coordinates that a client computed in floating point from the page's edge. */
const EPSILON = 1e-6;

/**
 * Violations of each field on its own and of its role: `roles` are the names a field may give,
 * `whose` says where they come from in a message ("the template's roles").
 */
export function fieldLayoutViolations(
  fields: FieldDraft[],
  roles: string[],
  whose: string,
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const add = (path: string, message: string) => violations.push({ path, message });
  if (fields.length > FIELD_LIMITS.fields) add("fields", `at most ${FIELD_LIMITS.fields} fields`);
  const known = new Set(roles.map(roleKey));
  const fieldIds = new Map<string, number>();
  fields.forEach((field, i) => {
    const at = (name: string) => `fields[${i}].${name}`;
    if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
      add(at("type"), `must be one of ${FIELD_TYPES.join(", ")}`);
    }
    if (!known.has(roleKey(field.role))) {
      add(
        at("role"),
        roles.length > 0 ? `must name one of ${whose} (${roles.join(", ")})` : `must name one of ${whose}`,
      );
    }
    if (!Number.isInteger(field.page) || field.page < 1) add(at("page"), "must be a page number, 1 or more");
    for (const side of ["x", "y", "width", "height"] as const) {
      const value = field[side];
      const positive = side === "width" || side === "height";
      if (Number.isNaN(value)) add(at(side), "is required");
      else if (!Number.isFinite(value) || value < 0 || (positive && value === 0)) {
        add(at(side), positive ? "must be more than 0" : "must be 0 or more");
      }
    }
    if (field.label.length > FIELD_LIMITS.labelLength)
      add(at("label"), `must be at most ${FIELD_LIMITS.labelLength} characters`);
    if (field.id) {
      if (!FIELD_ID.test(field.id)) add(at("id"), "must be 1 to 64 letters, digits, _ or -");
      const earlier = fieldIds.get(field.id);
      if (earlier === undefined) fieldIds.set(field.id, i);
      else add(at("id"), `is already the id of fields[${earlier}]`);
    }
  });
  violations.push(...fieldRuleViolations(fields));
  return violations;
}

/**
 * Every signing role has at least one required signature field that is always shown (a condition
 * could hide it); reported at each role's path.
 */
export function signatureViolations(
  roles: { name: string; path: string }[],
  fields: FieldDraft[],
): FieldViolation[] {
  return roles.flatMap((role) => {
    if (!role.name.trim()) return [];
    const signatures = fields.filter(
      (f) => f.type === "signature" && f.required && roleKey(f.role) === roleKey(role.name),
    );
    if (signatures.some((f) => !f.condition)) return [];
    const message = `"${role.name}" needs at least one required signature field`;
    return [
      {
        path: role.path,
        message: signatures.length > 0 ? `${message} without a condition` : message,
      },
    ];
  });
}

/** Violations of where fields lie: on a page the document has, and inside it. */
export function placementViolations(
  fields: FieldDraft[],
  pages: PageSizes,
  pathOf: (i: number) => string = (i) => `fields[${i}]`,
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  fields.forEach((field, i) => {
    if (!Number.isInteger(field.page) || field.page < 1) return;
    const page = pages[field.page - 1];
    if (!page) {
      const count = pages.length === 1 ? "1 page" : `${pages.length} pages`;
      violations.push({
        path: `${pathOf(i)}.page`,
        message: `page ${field.page} does not exist: the document has ${count}`,
      });
      return;
    }
    const size = `page ${field.page} is ${round(page.width)} × ${round(page.height)} points`;
    if (field.x + field.width > page.width + EPSILON) {
      violations.push({
        path: `${pathOf(i)}.x`,
        message: `x + width = ${round(field.x + field.width)} lies outside the page: ${size}`,
      });
    }
    if (field.y + field.height > page.height + EPSILON) {
      violations.push({
        path: `${pathOf(i)}.y`,
        message: `y + height = ${round(field.y + field.height)} lies outside the page: ${size}`,
      });
    }
  });
  return violations;
}

function round(points: number): number {
  return Math.round(points * 100) / 100;
}
