/**
 * What a signer may put into their fields, checked as one pure function that reports every
 * violation with its path (`values.<fieldId>`), and the values as they are kept: `date_signed`
 * stamped, `name` and `email` defaulting to the recipient's.
 */
import type { FieldValue } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { FieldViolation } from "@countersign/kit";
import { type StackName, unwritableProblem } from "./completion/font-stacks.js";
import { personViolations } from "./request-rules.js";
import type { StoredField } from "./store.js";

export type StoredValue =
  | { kind: "typed"; text: string }
  | { kind: "drawn"; png: string }
  | { kind: "text"; text: string }
  | { kind: "checkbox"; checked: boolean };

export const VALUE_LIMITS = {
  typedLength: 100,
  textLength: 1000,
} as const;

/** Control characters other than tab and line breaks have no place in what is drawn on a page. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** Text that is drawn on the sealed document in `stack`: within its length, and every character drawable. */
function textProblem(text: string, max: number, stack: StackName): string | undefined {
  if (text.length > max) return `must be at most ${max} characters`;
  if (CONTROL.test(text)) return "must not hold control characters";
  return unwritableProblem(stack, text);
}

/**
 * One value checked against its field's type; the kept value, or why it is refused. A drawing was
 * read before (drawn-signature.ts): `drawnProblem` is why it was refused, if it was.
 */
function readValue(
  field: StoredField,
  value: FieldValue["value"],
  drawnProblem: string | undefined,
): StoredValue | string {
  switch (field.type) {
    case "signature":
    case "initials": {
      if (value.case === "typed") {
        const text = value.value.text.trim();
        return textProblem(text, VALUE_LIMITS.typedLength, "handwriting") ?? { kind: "typed", text };
      }
      if (value.case === "drawnPng") {
        return drawnProblem ?? { kind: "drawn", png: Buffer.from(value.value).toString("base64") };
      }
      return `must be a typed or drawn ${field.type === "signature" ? "signature" : "set of initials"}`;
    }
    case "checkbox":
      return value.case === "checked" ? { kind: "checkbox", checked: value.value } : "must be true or false";
    case "text":
    case "name":
    case "email": {
      if (value.case !== "text") return "must be text";
      const text = value.value.trim();
      const problem =
        field.type === "email" && text
          ? personViolations({ email: text }, () => "")[0]?.message
          : textProblem(text, field.type === "text" ? VALUE_LIMITS.textLength : 254, "text");
      return problem ?? { kind: "text", text };
    }
    case "date_signed":
      return "is stamped with the signing date by the service; send no value";
    default:
      return `is a ${field.type} field, which cannot be filled in`;
  }
}

function isEmpty(value: StoredValue): boolean {
  return (
    (value.kind === "checkbox" && !value.checked) ||
    ((value.kind === "typed" || value.kind === "text") && !value.text)
  );
}

export interface SignerValues {
  /** The kept value of every field of the signer that has one. */
  values: Map<string, StoredValue>;
  violations: FieldViolation[];
}

/** The drawings of a submission, by field id, to be read (drawn-signature.ts) before its values are. */
export function drawingsOf(given: Record<string, FieldValue>): [fieldId: string, png: Uint8Array][] {
  return Object.entries(given).flatMap(([id, { value }]) =>
    value.case === "drawnPng" ? [[id, value.value]] : [],
  );
}

/**
 * Checks a signer's submission against their fields. `dateSigned` is what date_signed reads; name and
 * email fields left out take the recipient's; `drawnProblems` says, by field id, why a drawing
 * was refused when it was read.
 */
export function readSignerValues(
  fields: StoredField[],
  given: Record<string, FieldValue>,
  consent: boolean,
  signer: { name: string; email: string },
  dateSigned: string,
  drawnProblems: Map<string, string>,
): SignerValues {
  const violations: FieldViolation[] = [];
  const values = new Map<string, StoredValue>();
  if (!consent) {
    violations.push({ path: "consent", message: "must be true: the signer agrees to sign electronically" });
  }
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const [id, value] of Object.entries(given)) {
    const field = byId.get(id);
    if (!field) {
      violations.push({ path: `values.${id}`, message: "is not one of your fields" });
      continue;
    }
    const read = readValue(field, value.value, drawnProblems.get(id));
    if (typeof read === "string") violations.push({ path: `values.${id}`, message: read });
    else values.set(id, read);
  }
  for (const field of fields) {
    if (field.type === "date_signed") {
      values.set(field.id, { kind: "text", text: dateSigned });
      continue;
    }
    const value = values.get(field.id);
    if (!value && (field.type === "name" || field.type === "email")) {
      values.set(field.id, { kind: "text", text: field.type === "name" ? signer.name : signer.email });
      continue;
    }
    const problem = violations.some((v) => v.path === `values.${field.id}`);
    if (field.required && !problem && (!value || isEmpty(value))) {
      violations.push({
        path: `values.${field.id}`,
        message: field.type === "checkbox" ? "is required: it must be checked" : "is required",
      });
    }
  }
  return { values, violations };
}
