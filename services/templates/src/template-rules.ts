/**
 * The rules a template must keep (DESIGN §4), as pure functions that report every violation with
 * the path of the offending value, so that a client can fix them all in one round.
 */
import type { FieldViolation } from "@countersign/kit";

export const FIELD_TYPES = [
  "signature",
  "initials",
  "date_signed",
  "text",
  "checkbox",
  "name",
  "email",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const LIMITS = {
  nameLength: 200,
  descriptionLength: 2000,
  roles: 50,
  roleNameLength: 100,
  routingOrder: 50,
  fields: 500,
  labelLength: 200,
} as const;

export interface RoleDraft {
  name: string;
  order: number;
}

export interface FieldDraft {
  id: string;
  type: string;
  role: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
}

export interface TemplateDraft {
  name: string;
  description: string;
  documentId: string;
  roles: RoleDraft[];
  fields: FieldDraft[];
}

/** [width, height] of each page in PDF points, as the document's viewer shows it. */
export type PageSizes = { width: number; height: number }[];

const FIELD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Tolerance for coordinates that a client computed in floating point from the page's edge. */
const EPSILON = 1e-6;

/** Role names are compared as people read them: trimmed, case-insensitively. */
export function roleKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Violations of the name and the description, which nothing else depends on; absent ones are not checked. */
export function labelViolations(labels: { name?: string; description?: string }): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (labels.name !== undefined) {
    if (!labels.name.trim()) violations.push({ path: "name", message: "is required" });
    else if (labels.name.length > LIMITS.nameLength) {
      violations.push({ path: "name", message: `must be at most ${LIMITS.nameLength} characters` });
    }
  }
  if (labels.description !== undefined && labels.description.length > LIMITS.descriptionLength) {
    violations.push({
      path: "description",
      message: `must be at most ${LIMITS.descriptionLength} characters`,
    });
  }
  return violations;
}

/** Violations that need nothing but the draft itself. */
export function shapeViolations(draft: TemplateDraft): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const add = (path: string, message: string) => violations.push({ path, message });

  violations.push(...labelViolations(draft));

  if (draft.roles.length === 0) add("roles", "a template needs at least one signer role");
  if (draft.roles.length > LIMITS.roles) add("roles", `a template has at most ${LIMITS.roles} roles`);
  const firstRoleIndex = new Map<string, number>();
  draft.roles.forEach((role, i) => {
    if (!role.name.trim()) add(`roles[${i}].name`, "is required");
    else if (role.name.length > LIMITS.roleNameLength) {
      add(`roles[${i}].name`, `must be at most ${LIMITS.roleNameLength} characters`);
    } else {
      const earlier = firstRoleIndex.get(roleKey(role.name));
      if (earlier === undefined) firstRoleIndex.set(roleKey(role.name), i);
      else add(`roles[${i}].name`, `"${role.name}" is already the name of roles[${earlier}]`);
    }
    if (!Number.isInteger(role.order) || role.order < 1 || role.order > LIMITS.routingOrder) {
      add(`roles[${i}].order`, `must be a whole number from 1 to ${LIMITS.routingOrder}`);
    }
  });

  if (draft.fields.length > LIMITS.fields) add("fields", `a template has at most ${LIMITS.fields} fields`);
  const roleNames = draft.roles.map((r) => r.name.trim()).filter(Boolean);
  const fieldIds = new Map<string, number>();
  draft.fields.forEach((field, i) => {
    const at = (name: string) => `fields[${i}].${name}`;
    if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
      add(at("type"), `must be one of ${FIELD_TYPES.join(", ")}`);
    }
    if (!firstRoleIndex.has(roleKey(field.role))) {
      add(
        at("role"),
        roleNames.length > 0
          ? `must name one of the template's roles (${roleNames.join(", ")})`
          : "must name one of the template's roles",
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
    if (field.label.length > LIMITS.labelLength)
      add(at("label"), `must be at most ${LIMITS.labelLength} characters`);
    if (field.id) {
      if (!FIELD_ID.test(field.id)) add(at("id"), "must be 1 to 64 letters, digits, _ or -");
      const earlier = fieldIds.get(field.id);
      if (earlier === undefined) fieldIds.set(field.id, i);
      else add(at("id"), `is already the id of fields[${earlier}]`);
    }
  });

  draft.roles.forEach((role, i) => {
    const signs = draft.fields.some(
      (f) => f.type === "signature" && f.required && roleKey(f.role) === roleKey(role.name),
    );
    if (role.name.trim() && !signs)
      add(`roles[${i}]`, `"${role.name}" needs at least one required signature field`);
  });
  return violations;
}

/** Violations of where fields lie: on a page the document has, and inside it. */
export function placementViolations(fields: FieldDraft[], pages: PageSizes): FieldViolation[] {
  const violations: FieldViolation[] = [];
  fields.forEach((field, i) => {
    if (!Number.isInteger(field.page) || field.page < 1) return;
    const page = pages[field.page - 1];
    if (!page) {
      const count = pages.length === 1 ? "1 page" : `${pages.length} pages`;
      violations.push({
        path: `fields[${i}].page`,
        message: `page ${field.page} does not exist: the document has ${count}`,
      });
      return;
    }
    const size = `page ${field.page} is ${round(page.width)} × ${round(page.height)} points`;
    if (field.x + field.width > page.width + EPSILON) {
      violations.push({
        path: `fields[${i}].x`,
        message: `x + width = ${round(field.x + field.width)} lies outside the page: ${size}`,
      });
    }
    if (field.y + field.height > page.height + EPSILON) {
      violations.push({
        path: `fields[${i}].y`,
        message: `y + height = ${round(field.y + field.height)} lies outside the page: ${size}`,
      });
    }
  });
  return violations;
}

function round(points: number): number {
  return Math.round(points * 100) / 100;
}
