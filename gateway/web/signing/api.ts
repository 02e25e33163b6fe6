// The JSON API of the signing page. Same origin; the session is a cookie, or, in another site's
// frame, a header (frame.ts). The shapes are the gateway's OpenAPI document's (shared/api-schema.ts,
// generated from it).
import { parse as parseDisposition } from "content-disposition";
import { ApiError, createApiClient, ok, problemOf } from "../shared/api-client";
import type { components } from "../shared/api-schema";
import { sessionHeaders } from "./frame";

type Schemas = components["schemas"];

export type FieldType = Schemas["FieldType"];
export type RecipientStatus = Schemas["RecipientStatus"];
export type RequestStatus = Schemas["RequestStatus"];
export type Session = Schemas["SigningSession"];
export type DocumentInfo = Session["documents"][number];
export type Field = Session["fields"][number];
/** A field an earlier signer filled in, shown where it lies, read-only. */
export type FilledField = Session["filled"][number];
export type SignatureValue = Extract<FilledField["value"], { kind: string }>;
/** A file the signer attached to an attachment field: the upload's answer, and its name to show. */
export interface AttachedFile {
  kind: "attachment";
  id: string;
  filename: string;
}
/** What the signer has put into a field: a signature, text (a picked date as YYYY-MM-DD), a box's state, a file. */
export type FieldValue = FilledField["value"] | AttachedFile;
/** A value as the service takes it. */
export type SubmittedValue = Schemas["SubmitSignature"]["values"][string];
export type SubmitResult = Schemas["Signed"];
export type SignerAuthentication = Schemas["SignerAuthentication"];
export type DeclineResult = Schemas["Declined"];

export type { Problem } from "../shared/api-client";
export { ApiError } from "../shared/api-client";

const API = "/sign/api";

/** The signing page's client: a 401 here is the link's job to explain, so it ends nothing itself. */
const api = createApiClient({ base: API, headers: sessionHeaders });

export function getSession(): Promise<Session> {
  return ok(api.GET("/session"));
}

/** Tells the service the signer now sees the request (not merely that the link was opened). */
export async function recordViewed(): Promise<void> {
  try {
    await api.POST("/viewed");
  } catch (error) {
    // A session already gone is the page's to explain from its next call, not this one's.
    if (!(error instanceof ApiError && (error.status === 401 || error.status === 410))) throw error;
  }
}

/**
 * How the page writes dates, sent with the signature: the date signed is the day in this time zone,
 * kept with the text the page showed (the sealed PDF writes the day itself, YYYY-MM-DD).
 */
export interface DateForm {
  locale: Schemas["SignerLocale"];
  timeZone: string;
}

export function submit(values: Record<string, SubmittedValue>, form: DateForm): Promise<SubmitResult> {
  return ok(
    api.POST("/submit", { body: { consent: true, values, locale: form.locale, timeZone: form.timeZone } }),
  );
}

/** Today (or `day`, one the signer picked) as the page shows a date field in this form. */
export async function dateSigned(form: DateForm, day?: string): Promise<string> {
  const query = { locale: form.locale, timeZone: form.timeZone, ...(day ? { date: day } : {}) };
  return (await ok(api.GET("/date-signed", { params: { query } }))).text;
}

/** Attaches a file to an attachment field; a later one for the same field replaces it. */
export async function attachFile(fieldId: string, file: File): Promise<AttachedFile> {
  const form = new FormData();
  form.append("file", file, file.name);
  const kept = await ok(
    api.POST("/attachments/{fieldId}", {
      params: { path: { fieldId } },
      // openapi-typescript writes a binary part as a string; the browser sends the File itself.
      body: { file: file as unknown as string },
      bodySerializer: () => form,
    }),
  );
  return { kind: "attachment", id: kept.id, filename: kept.filename };
}

export function decline(reason: string): Promise<DeclineResult> {
  return ok(api.POST("/decline", { body: { reason } }));
}

/** Hands the request to someone else, where the sender allows it; this session ends. */
export function reassign(to: Schemas["ReassignSigner"]): Promise<Schemas["Reassigned"]> {
  return ok(api.POST("/reassign", { body: to }));
}

/** E-mails the signer a one-time code. */
export function sendCode(): Promise<SignerAuthentication> {
  return ok(api.POST("/code"));
}

/** Gives the codes the sender asked for; a wrong one is a 422 naming its field, a lock-out a 429. */
export function verify(codes: Schemas["VerifySigner"]): Promise<SignerAuthentication> {
  return ok(api.POST("/verify", { body: codes }));
}

/** This signer's copy, once they have signed: what is signed so far, before the seal. */
export const SIGNER_COPY_URL = `${API}/copy`;

export function documentUrl(documentId: string): string {
  return `${API}/documents/${encodeURIComponent(documentId)}`;
}

/** A file of the session as the browser saves it: its bytes and the name the gateway gives it. */
export async function fetchFile(url: string): Promise<{ blob: Blob; filename: string }> {
  const response = await fetch(url, {
    cache: "no-store",
    credentials: "same-origin",
    headers: sessionHeaders,
  });
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  const disposition = response.headers.get("content-disposition");
  const filename = disposition ? (parseDisposition(disposition).parameters.filename ?? "") : "";
  return { blob: await response.blob(), filename: filename || "document.pdf" };
}

/** A document's bytes to draw; the schema declares the answer a PDF, so it is read as bytes. */
export async function fetchDocument(documentId: string): Promise<Uint8Array> {
  const { response } = await api.GET("/documents/{documentId}", {
    params: { path: { documentId } },
    parseAs: "stream",
  });
  return new Uint8Array(await response.arrayBuffer());
}
