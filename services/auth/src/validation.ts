/** Input rules auth applies before anything reaches the database. */
import { type FieldViolation, isUuid, notFound, validationError } from "@countersign/kit";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function checkName(value: string, path: string, max: number): FieldViolation[] {
  const trimmed = value.trim();
  if (trimmed.length === 0) return [{ path, message: "must not be empty" }];
  if (trimmed.length > max) return [{ path, message: `must be at most ${max} characters` }];
  return [];
}

export function checkEmail(value: string, path = "email"): FieldViolation[] {
  return EMAIL.test(value.trim()) ? [] : [{ path, message: "must be an email address" }];
}

export function checkPassword(value: string, path = "password"): FieldViolation[] {
  if (value.length < 10) return [{ path, message: "must be at least 10 characters" }];
  if (value.length > 200) return [{ path, message: "must be at most 200 characters" }];
  return [];
}

export function rejectViolations(violations: FieldViolation[]): void {
  if (violations.length > 0) throw validationError(violations);
}

/** An id that is not even a UUID names nothing: not found, like any unknown id. */
export function requireUuid(id: string, what: string): string {
  if (!isUuid(id)) throw notFound(what);
  return id;
}
