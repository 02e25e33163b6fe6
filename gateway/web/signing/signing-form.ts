/**
 * What the signer has done on the signing page, as one state and the events that change it: the
 * values they entered, the signature they adopted, their consent, a dialog open, a submission or a
 * decline in flight, and what the server found wrong — with what screen readers are told of each.
 */
import type { Field, FieldValue, Session, SignatureValue } from "./api";
import { initialValues } from "./fields";

export type SignatureKind = "signature" | "initials";

export interface SigningForm {
  values: ReturnType<typeof initialValues>;
  /** The server's problem with each field, by field id. */
  errors: Record<string, string>;
  consent: boolean;
  consentError: string | null;
  /** A problem that belongs to no field, shown above the documents. */
  banner: string | null;
  /** What is in flight: nothing, the submission, or the decline. */
  busy: "submitting" | "declining" | null;
  /** The signature or initials being drawn or typed, in its dialog. */
  dialogField: Field | null;
  /** The signature and initials adopted once, applied to the next such field with one click. */
  adopted: Partial<Record<SignatureKind, SignatureValue>>;
  declineOpen: boolean;
  declineError: string | null;
  /** Said politely to screen readers. */
  status: string;
  /** Said at once to screen readers. */
  alert: string;
}

export type SigningEvent =
  | { type: "entered"; id: string; value: FieldValue }
  | { type: "consented"; consent: boolean }
  | { type: "announced"; status: string }
  | { type: "alerted"; alert: string }
  | { type: "signature-opened"; field: Field }
  | { type: "signature-closed" }
  | { type: "signature-adopted"; kind: SignatureKind; value: SignatureValue; ids: string[]; status: string }
  | { type: "submitted" }
  | {
      type: "submission-refused";
      errors?: Record<string, string>;
      consentError?: string | null;
      banner: string | null;
      alert: string;
    }
  | { type: "field-refused"; id: string; message: string }
  | { type: "decline-opened" }
  | { type: "decline-closed" }
  | { type: "declined" }
  | { type: "decline-refused"; error: string };

export function initialForm(session: Session): SigningForm {
  return {
    values: initialValues(session),
    errors: {},
    consent: false,
    consentError: null,
    banner: null,
    busy: null,
    dialogField: null,
    adopted: {},
    declineOpen: false,
    declineError: null,
    status: "",
    alert: "",
  };
}

/** `errors` without the field's: a value entered answers the server's problem with it. */
function without(errors: Record<string, string>, id: string): Record<string, string> {
  if (!(id in errors)) return errors;
  const { [id]: _, ...rest } = errors;
  return rest;
}

export function signingForm(form: SigningForm, event: SigningEvent): SigningForm {
  switch (event.type) {
    case "entered":
      return {
        ...form,
        values: { ...form.values, [event.id]: event.value },
        errors: without(form.errors, event.id),
      };
    case "consented":
      return { ...form, consent: event.consent, consentError: null };
    case "announced":
      return { ...form, status: event.status };
    case "alerted":
      return { ...form, alert: event.alert };
    case "signature-opened":
      return { ...form, dialogField: event.field };
    case "signature-closed":
      return { ...form, dialogField: null };
    case "signature-adopted": {
      let { values, errors } = form;
      for (const id of event.ids) {
        values = { ...values, [id]: event.value };
        errors = without(errors, id);
      }
      return {
        ...form,
        values,
        errors,
        adopted: { ...form.adopted, [event.kind]: event.value },
        dialogField: null,
        status: event.status,
      };
    }
    case "submitted":
      return {
        ...form,
        busy: "submitting",
        banner: null,
        errors: {},
        consentError: null,
        status: "Signing…",
      };
    case "submission-refused":
      return {
        ...form,
        busy: null,
        errors: event.errors ?? form.errors,
        consentError: event.consentError ?? form.consentError,
        banner: event.banner,
        alert: event.alert,
      };
    case "field-refused":
      return { ...form, errors: { ...form.errors, [event.id]: event.message }, alert: event.message };
    case "decline-opened":
      return { ...form, declineOpen: true, declineError: null };
    case "decline-closed":
      return { ...form, declineOpen: false };
    case "declined":
      return { ...form, busy: "declining", declineError: null };
    case "decline-refused":
      return { ...form, busy: null, declineError: event.error };
  }
}
