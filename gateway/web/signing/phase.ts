/**
 * Where the signing page stands: loading, signing, or one of the ends a session can reach — and
 * which one a session the server answered means.
 */

import { ENDED_WORDS, isEndedReason, type SignerLocale } from "@countersign/domain/web";
import { IntlMessageFormat } from "intl-messageformat";
import { ApiError, type Problem, type RequestStatus, type Session } from "./api";
import type { Translate } from "./i18n/locales";

export type Phase =
  | { kind: "loading" }
  | { kind: "error"; error: unknown }
  /** The session is over: it timed out (no problem), or its request ended meanwhile (the 410's problem). */
  | { kind: "ended"; problem?: Problem }
  | { kind: "ready"; session: Session }
  /** The sender asked for codes before the document: an access code, an e-mailed one, or both. */
  | { kind: "authenticate"; session: Session }
  | {
      kind: "signed";
      requestStatus: RequestStatus;
      /** Every signer has signed: the document is being sealed, or is sealed. */
      everyoneSigned: boolean;
      /** An approver approved rather than signed. */
      approved?: boolean;
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
  return error.status === 410 ? { kind: "ended", problem: error.problem } : { kind: "ended" };
}

/**
 * Why a 410 says the request ended, in the page's language (the words the link pages use too); the
 * service's own words for a reason the page does not know.
 */
export function whyEnded(problem: Problem, locale: SignerLocale): string {
  const ended = problem.ended;
  if (!ended || !isEndedReason(ended.reason)) return sentence(problem.detail ?? "");
  const completed = ended.completedAt ? new Date(ended.completedAt) : new Date(0);
  return String(
    new IntlMessageFormat(ENDED_WORDS[locale][ended.reason], locale).format({
      date: completed.toLocaleDateString(locale, { dateStyle: "long" }),
      days: ended.copyDays ?? 0,
    }),
  );
}

/**
 * What went wrong, in words for the signer: the network in the page's language, the service's own
 * sentence otherwise, and a general apology when there is neither.
 */
export function problemText(error: unknown, t: Translate): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return t("common.network");
    const detail = error.problem.detail;
    if (detail) return sentence(detail);
  }
  return t("common.somethingWrong");
}

export function phaseOf(session: Session): Phase {
  const { methods, verified } = session.authentication;
  if (methods.some((m) => !verified.includes(m))) return { kind: "authenticate", session };
  if (session.recipient.status === "signed" || session.recipient.status === "approved") {
    return {
      kind: "signed",
      approved: session.recipient.status === "approved",
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
