/**
 * Where the signing page stands: loading, signing, or one of the ends a session can reach — and
 * which one a session the server answered means.
 */
import type { ApiError, RequestStatus, Session } from "./api";

export type Phase =
  | { kind: "loading" }
  | { kind: "error"; message: string }
  /** The session is over: it timed out (no reason), or its request ended meanwhile (why). */
  | { kind: "ended"; why?: string }
  | { kind: "ready"; session: Session }
  /** The sender asked for codes before the document: an access code, an e-mailed one, or both. */
  | { kind: "authenticate"; session: Session }
  | {
      kind: "signed";
      requestStatus: RequestStatus;
      /** Every signer has signed: the document is being sealed, or is sealed. */
      everyoneSigned: boolean;
      sealingDelayed?: boolean;
      signedDocumentId?: string | null;
    }
  | { kind: "declined" }
  /** The signer handed the request to someone else; their link has ended. */
  | { kind: "reassigned"; name: string; email: string }
  | { kind: "closed"; requestStatus: RequestStatus; title?: string; signedDocumentId?: string | null }
  | { kind: "redirecting" };

/** The service's reasons read as sentences on the page: capitalised, with a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? "" : "."}`;
}

/** A 410 says the request ended and why; a 401 only that the session did. */
export function endedBy(error: ApiError): Phase {
  return error.status === 410 ? { kind: "ended", why: error.problem.detail } : { kind: "ended" };
}

export function phaseOf(session: Session): Phase {
  const { methods, verified } = session.authentication;
  if (methods.some((m) => !verified.includes(m))) return { kind: "authenticate", session };
  if (session.recipient.status === "signed") {
    return {
      kind: "signed",
      requestStatus: session.requestStatus,
      everyoneSigned: session.everyoneSigned,
      sealingDelayed: session.sealingDelayed,
      signedDocumentId: session.signedDocumentId,
    };
  }
  if (session.recipient.status === "declined") return { kind: "declined" };
  if (session.requestStatus !== "sent" && session.requestStatus !== "in_progress") {
    return {
      kind: "closed",
      requestStatus: session.requestStatus,
      title: session.request.title,
      signedDocumentId: session.signedDocumentId,
    };
  }
  return { kind: "ready", session };
}

export function phaseKind(session: Session): Phase["kind"] {
  return phaseOf(session).kind;
}
