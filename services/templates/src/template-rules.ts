/**
 * The rules a template must keep (docs/design.md §4), as pure functions that report every violation with
 * the path of the offending value, so that a client can fix them all in one round.
 */

import { type FieldDraft, fieldLayoutViolations, roleKey, signatureViolations } from "@countersign/domain";
import type { FieldViolation } from "@countersign/kit";

export { type FieldDraft, type PageSizes, placementViolations, roleKey } from "@countersign/domain";

export const LIMITS = {
  nameLength: 200,
  descriptionLength: 2000,
  roles: 50,
  roleNameLength: 100,
  routingOrder: 50,
} as const;

export interface RoleDraft {
  name: string;
  order: number;
}

export interface TemplateDraft {
  name: string;
  description: string;
  documentId: string;
  roles: RoleDraft[];
  fields: FieldDraft[];
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

  violations.push(
    ...fieldLayoutViolations(
      draft.fields,
      draft.roles.map((r) => r.name.trim()).filter(Boolean),
      "the template's roles",
    ),
    ...signatureViolations(
      draft.roles.map((role, i) => ({ name: role.name, path: `roles[${i}]` })),
      draft.fields,
    ),
  );
  return violations;
}
