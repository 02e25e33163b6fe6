/**
 * What a signer may put into their fields, checked as one pure function that reports every
 * violation with its path (`values.<fieldId>`), and the values as they are kept: `date_signed`
 * stamped, `name` and `email` defaulting to the recipient's, a field the sender filled in to what
 * they wrote, a day (picked or signed) as the day it is and as the page showed it, an attachment as
 * the document the signer gave.
 */

import { groupBounds, isDay, numberOf, shownFields } from "@countersign/domain";
import type { FieldValue } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { FieldViolation } from "@countersign/kit";
import { type StackName, unwritableProblem } from "./font-stacks.js";
import { personViolations } from "./request-rules.js";
import type { StoredField } from "./store/rows.js";

export type StoredValue =
  | { kind: "typed"; text: string }
  | { kind: "drawn"; png: string }
  | { kind: "text"; text: string }
  | { kind: "checkbox"; checked: boolean }
  /**
   * A day the signer picked or signed on (YYYY-MM-DD), and how their page showed it in their
   * language: what the API answers. The sealed PDF writes the day in the document's one form
   * (pdf/layout/sealed-days.ts). A date signed before days were kept is `text` alone.
   */
  | { kind: "date"; date: string; text: string }
  /** A file the signer gave (AttachSignerFile), kept as a document of the request. */
  | { kind: "attachment"; documentId: string; filename: string };

export const VALUE_LIMITS = {
  typedLength: 100,
  textLength: 1000,
  numberLength: 30,
} as const;

/** Control characters other than tab and line breaks have no place in what is drawn on a page. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** Text that is drawn on the sealed document in `stack`: within its length, and every character drawable. */
function textProblem(text: string, max: number, stack: StackName): string | undefined {
  if (text.length > max) return `must be at most ${max} characters`;
  if (CONTROL.test(text)) return "must not hold control characters";
  return unwritableProblem(stack, text);
}

/** What the signer's values are read with, besides the values. */
export interface ReadingContext {
  /** Whether the signer agreed to sign electronically. */
  consent: boolean;
  /** Name and email fields left out take the recipient's. */
  signer: { name: string; email: string };
  /** The sender fixed who the signer is: their name and email fields are theirs, whatever is sent. */
  identityLocked?: boolean;
  /** The day date_signed stamps (in the signer's time zone), and how the page showed it. */
  dateSigned: { date: string; text: string };
  /** A picked day as the page showed it. */
  writeDay: (day: string) => string;
  /** Why each drawing was refused when it was read (drawn-signature.ts), by field id. */
  drawnProblems: Map<string, string>;
  /** The files the signer gave for their attachment fields, by field id. */
  attachments: Map<string, { documentId: string; filename: string }>;
}

/** One value checked against its field's type; the kept value, or why it is refused. */
function readValue(
  field: StoredField,
  value: FieldValue["value"],
  context: ReadingContext,
): StoredValue | string {
  switch (field.type) {
    case "signature":
    case "initials": {
      if (value.case === "typed") {
        const text = value.value.text.trim();
        return textProblem(text, VALUE_LIMITS.typedLength, "handwriting") ?? { kind: "typed", text };
      }
      if (value.case === "drawnPng") {
        return (
          context.drawnProblems.get(field.id) ?? {
            kind: "drawn",
            png: Buffer.from(value.value).toString("base64"),
          }
        );
      }
      return `must be a typed or drawn ${field.type === "signature" ? "signature" : "set of initials"}`;
    }
    case "checkbox":
    case "radio":
      return value.case === "checked" ? { kind: "checkbox", checked: value.value } : "must be true or false";
    case "text":
    case "name":
    case "email": {
      if (value.case !== "text") return "must be text";
      const text = value.value.trim();
      if (context.identityLocked && field.type !== "text") {
        const own = field.type === "name" ? context.signer.name : context.signer.email;
        // Compared as the page shows it: the sender's own value, which the signer cannot change.
        return text === own.trim()
          ? { kind: "text", text: own }
          : `is the signer's own ${field.type}, as the sender gave it: "${own}"`;
      }
      const problem =
        field.type === "email" && text
          ? personViolations({ email: text }, () => "")[0]?.message
          : textProblem(text, field.type === "text" ? VALUE_LIMITS.textLength : 254, "text");
      return problem ?? { kind: "text", text };
    }
    case "number":
      return value.case === "text" ? readNumber(field, value.value.trim()) : "must be a number, as text";
    case "dropdown": {
      if (value.case !== "text") return "must be one of the dropdown's options, as text";
      const text = value.value.trim();
      if (!text || field.options?.includes(text)) return { kind: "text", text };
      return `must be one of ${(field.options ?? []).map((o) => `"${o}"`).join(", ")}`;
    }
    case "date": {
      if (value.case !== "text") return "must be a day, as text: YYYY-MM-DD";
      const day = value.value.trim();
      if (!day) return { kind: "text", text: "" };
      if (!isDay(day)) return "must be a day of the calendar, written YYYY-MM-DD";
      return { kind: "date", date: day, text: context.writeDay(day) };
    }
    case "attachment": {
      if (value.case !== "attachmentId") return "must be the id of the file you attached";
      const attached = context.attachments.get(field.id);
      if (!attached || attached.documentId !== value.value) {
        return "must be the id of the file you attached to this field last";
      }
      return { kind: "attachment", ...attached };
    }
    case "date_signed":
      return "is stamped with the signing date by the service; send no value";
    default:
      return `is a ${field.type} field, which cannot be filled in`;
  }
}

/**
 * Why a sender's merge value (merge-fields.ts) cannot fill a text, number or date field: what the
 * field would answer a signer who typed it.
 */
export function prefillProblem(field: Pick<StoredField, "type" | "minimum" | "maximum">, text: string) {
  switch (field.type) {
    case "text":
      return textProblem(text, VALUE_LIMITS.textLength, "text");
    case "number": {
      const read = readNumber(field, text);
      return typeof read === "string" ? read : undefined;
    }
    case "date":
      return isDay(text) ? undefined : "must be a day of the calendar, written YYYY-MM-DD";
    default:
      return `is a ${field.type} field, which takes no merge value`;
  }
}

function readNumber(field: Pick<StoredField, "minimum" | "maximum">, text: string): StoredValue | string {
  if (!text) return { kind: "text", text };
  const number = numberOf(text);
  if (number === undefined || text.length > VALUE_LIMITS.numberLength) {
    return "must be a number, such as 42 or 3.5";
  }
  if (field.minimum !== undefined && number < field.minimum) return `must be at least ${field.minimum}`;
  if (field.maximum !== undefined && number > field.maximum) return `must be at most ${field.maximum}`;
  return { kind: "text", text };
}

function isEmpty(value: StoredValue): boolean {
  return (
    (value.kind === "checkbox" && !value.checked) ||
    ((value.kind === "typed" || value.kind === "text") && !value.text)
  );
}

/** What a kept value reads for a condition (field-conditions.ts). */
function readingOf(value: StoredValue | undefined): string | boolean | undefined {
  if (!value) return undefined;
  switch (value.kind) {
    case "checkbox":
      return value.checked;
    case "date":
      return value.date;
    case "text":
      return value.text;
    default:
      return undefined;
  }
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
 * Checks a signer's submission against their fields: each value against its field, then what only
 * the fields together say — which conditional fields are shown (a hidden field takes no value and
 * is not required), one radio button a group, the bounds of a checkbox group. Groups are reported at
 * their first field. Unchecked boxes and buttons, and empty values, are not kept.
 */
export function readSignerValues(
  fields: StoredField[],
  given: Record<string, FieldValue>,
  context: ReadingContext,
): SignerValues {
  const violations: FieldViolation[] = [];
  const read = new Map<string, StoredValue>();
  const refused = new Set<string>();
  const add = (id: string, message: string) => {
    violations.push({ path: `values.${id}`, message });
    refused.add(id);
  };
  if (!context.consent) {
    violations.push({ path: "consent", message: "must be true: the signer agrees to sign electronically" });
  }
  const byId = new Map(fields.map((f) => [f.id, f]));
  // A field the sender filled in keeps their value unless the signer sends one of their own.
  const submitted = new Map<string, FieldValue["value"]>([
    ...fields.flatMap((f): [string, FieldValue["value"]][] =>
      f.prefilled ? [[f.id, { case: "text", value: f.prefilled }]] : [],
    ),
    ...Object.entries(given).map(([id, { value }]): [string, FieldValue["value"]] => [id, value]),
  ]);
  for (const [id, value] of submitted) {
    const field = byId.get(id);
    if (!field) add(id, "is not one of your fields");
    else {
      const kept = readValue(field, value, context);
      if (typeof kept === "string") add(id, kept);
      else read.set(id, kept);
    }
  }
  const shown = shownFields(fields, (f) => readingOf(read.get(f.id)));
  const values = new Map<string, StoredValue>();
  const groupsDone = new Set<string>();
  for (const field of fields) {
    if (!shown.get(field.id)) {
      // The sender's value of a field its condition hides is not the signer's to take back.
      const sent = Object.hasOwn(given, field.id);
      if (sent && read.has(field.id) && !isEmpty(read.get(field.id) as StoredValue)) {
        add(
          field.id,
          `is shown only when the field ${field.condition?.fieldId} reads "${field.condition?.value}": send no value`,
        );
      }
      continue;
    }
    if (field.type === "date_signed") {
      values.set(field.id, { kind: "date", ...context.dateSigned });
      continue;
    }
    const value = read.get(field.id);
    if (!value && (field.type === "name" || field.type === "email")) {
      const text = field.type === "name" ? context.signer.name : context.signer.email;
      values.set(field.id, { kind: "text", text });
      continue;
    }
    if (value && !isEmpty(value)) values.set(field.id, value);
    if (field.group && (field.type === "radio" || field.type === "checkbox")) {
      if (groupsDone.has(field.group)) continue;
      groupsDone.add(field.group);
      const members = fields.filter(
        (f) => f.type === field.type && f.group === field.group && shown.get(f.id),
      );
      const problem = groupProblem(field, members, read);
      if (problem && !members.some((f) => refused.has(f.id))) add(field.id, problem);
      continue;
    }
    if (field.required && !refused.has(field.id) && (!value || isEmpty(value))) {
      add(field.id, field.type === "checkbox" ? "is required: it must be checked" : "is required");
    }
  }
  return { values, violations };
}

/** Why a group's boxes or buttons, as given, are refused: too few or too many chosen. */
function groupProblem(
  first: StoredField,
  members: StoredField[],
  read: Map<string, StoredValue>,
): string | undefined {
  const chosen = members.filter((f) => {
    const value = read.get(f.id);
    return value?.kind === "checkbox" && value.checked;
  }).length;
  const name = `"${first.group}"`;
  if (first.type === "radio") {
    if (chosen > 1) return `choose one option of ${name}, not ${chosen}`;
    if (chosen === 0 && members.some((f) => f.required)) return `is required: choose an option of ${name}`;
    return undefined;
  }
  const { least, most } = groupBounds(members);
  if (chosen < least) return `check at least ${least} of ${name}`;
  if (most !== undefined && chosen > most) return `check at most ${most} of ${name}`;
  return undefined;
}
