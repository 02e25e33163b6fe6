// The JSON API of the signing page. Same origin; the server keeps the session in a cookie. The
// shapes are the gateway's OpenAPI document's (shared/api-schema.ts, generated from it).
import type { components } from "../shared/api-schema";

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

export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { path: string; message: string }[];
  /** Why a signing link or session is gone (410), as a code the page says in the signer's language. */
  ended?: { reason: string; completedAt?: string; copyDays?: number };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || `The server answered ${status}.`);
    this.name = "ApiError";
  }
}

const API = "/sign/api";

async function problemOf(response: Response): Promise<Problem> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object") return body as Problem;
  } catch {
    // Not JSON: fall through to a generic problem.
  }
  return { status: response.status, title: response.statusText };
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, {
      credentials: "same-origin",
      cache: "no-store",
      ...init,
      headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch {
    throw new ApiError(0, {
      title: "Network error",
      detail: "We could not reach the server. Check your connection and try again.",
    });
  }
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  return (await response.json()) as T;
}

export function getSession(): Promise<Session> {
  return call<Session>("/session");
}

/** Tells the service the signer now sees the request (not merely that the link was opened). */
export async function recordViewed(): Promise<void> {
  const response = await fetch(`${API}/viewed`, { method: "POST", credentials: "same-origin" });
  if (!response.ok && response.status !== 401 && response.status !== 410)
    throw new ApiError(response.status, await problemOf(response));
}

/**
 * How the page writes dates, sent with the signature: the date signed is the day in this time zone,
 * kept with the text the page showed (the sealed PDF writes the day itself, YYYY-MM-DD).
 */
export interface DateForm {
  locale: string;
  timeZone: string;
}

export function submit(values: Record<string, SubmittedValue>, form: DateForm): Promise<SubmitResult> {
  return call<SubmitResult>("/submit", {
    method: "POST",
    body: JSON.stringify({ consent: true, values, locale: form.locale, timeZone: form.timeZone }),
  });
}

/** Today (or `day`, one the signer picked) as the page shows a date field in this form. */
export async function dateSigned(form: DateForm, day?: string): Promise<string> {
  const query = new URLSearchParams({
    locale: form.locale,
    timeZone: form.timeZone,
    ...(day ? { date: day } : {}),
  });
  return (await call<{ text: string }>(`/date-signed?${query}`)).text;
}

/** Attaches a file to an attachment field; a later one for the same field replaces it. */
export async function attachFile(fieldId: string, file: File): Promise<AttachedFile> {
  const body = new FormData();
  body.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch(`${API}/attachments/${encodeURIComponent(fieldId)}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      body,
    });
  } catch {
    throw new ApiError(0, { title: "Network error" });
  }
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  const kept = (await response.json()) as Schemas["SignerAttachmentUpload"];
  return { kind: "attachment", id: kept.id, filename: kept.filename };
}

export function decline(reason: string): Promise<DeclineResult> {
  return call<DeclineResult>("/decline", { method: "POST", body: JSON.stringify({ reason }) });
}

/** Hands the request to someone else, where the sender allows it; this session ends. */
export function reassign(to: {
  name: string;
  email: string;
  reason: string;
}): Promise<{ name: string; email: string }> {
  return call<{ name: string; email: string }>("/reassign", { method: "POST", body: JSON.stringify(to) });
}

/** E-mails the signer a one-time code. */
export function sendCode(): Promise<SignerAuthentication> {
  return call<SignerAuthentication>("/code", { method: "POST" });
}

/** Gives the codes the sender asked for; a wrong one is a 422 naming its field, a lock-out a 429. */
export function verify(codes: { accessCode?: string; emailCode?: string }): Promise<SignerAuthentication> {
  return call<SignerAuthentication>("/verify", { method: "POST", body: JSON.stringify(codes) });
}

/** This signer's copy, once they have signed: what is signed so far, before the seal. */
export const SIGNER_COPY_URL = `${API}/copy`;

export function documentUrl(documentId: string): string {
  return `${API}/documents/${encodeURIComponent(documentId)}`;
}

export async function fetchDocument(documentId: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(documentUrl(documentId), { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, { title: "Network error", detail: "We could not download this document." });
  }
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  return new Uint8Array(await response.arrayBuffer());
}
