/**
 * The life of a signature request and of its recipients (docs/design.md §5): which operation is allowed in
 * which state. Every operation asks here first, under the request's row lock, so two concurrent
 * operations see each other's result and only what this table allows can happen.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { RecipientKind, RecipientStatus, RequestStatus } from "@countersign/domain";

export type Operation =
  | "send"
  | "propose"
  | "approve"
  | "reject"
  | "resend"
  | "cancel"
  | "remind"
  | "update_recipients"
  | "embedded_signing_url"
  | "open_link"
  | "sign"
  | "decline"
  | "expire";

/** The request states each operation is allowed in. */
export const ALLOWED_FROM: Record<Operation, readonly RequestStatus[]> = {
  send: ["draft"],
  propose: ["draft"],
  approve: ["awaiting_approval"],
  reject: ["awaiting_approval"],
  resend: ["sent", "in_progress"],
  cancel: ["draft", "awaiting_approval", "sent", "in_progress"],
  remind: ["sent", "in_progress"],
  update_recipients: ["draft", "sent", "in_progress"],
  embedded_signing_url: ["sent", "in_progress"],
  open_link: ["sent", "in_progress"],
  sign: ["sent", "in_progress"],
  decline: ["sent", "in_progress"],
  expire: ["awaiting_approval", "sent", "in_progress"],
};

/** What each operation is called in an error a person reads. */
const DOING: Record<Operation, string> = {
  send: "send",
  propose: "propose",
  approve: "approve",
  reject: "reject",
  resend: "resend",
  cancel: "cancel",
  remind: "send a reminder for",
  update_recipients: "change the recipients of",
  embedded_signing_url: "make a signing URL for",
  open_link: "sign",
  sign: "sign",
  decline: "decline",
  expire: "expire",
};

/** The states a request ends in: nothing is allowed from them. */
export const TERMINAL: readonly RequestStatus[] = ["completed", "declined", "cancelled", "expired"];

export function isTerminal(status: RequestStatus): boolean {
  return TERMINAL.includes(status);
}

/**
 * `column` is one of `statuses`, as SQL: the sweeps select what this file allows rather than
 * restating it. The statuses are this file's constants, never input.
 */
export function statusIn(column: string, statuses: readonly RequestStatus[]): string {
  return `${column} IN (${statuses.map((s) => `'${s}'`).join(", ")})`;
}

export function allows(operation: Operation, status: RequestStatus): boolean {
  return ALLOWED_FROM[operation].includes(status);
}

/** Throws FAILED_PRECONDITION (409 invalid_state) naming the current state unless the table allows it. */
export function assertAllowed(operation: Operation, status: RequestStatus): void {
  if (allows(operation, status)) return;
  const when = ALLOWED_FROM[operation].join(" or ");
  throw new ConnectError(
    `cannot ${DOING[operation]} a request that is ${status}; only when it is ${when}`,
    Code.FailedPrecondition,
  );
}

/** A recipient whose turn has come and who has not finished: reminders and signing URLs are for them. */
export function isRecipientsTurn(status: RecipientStatus, kind: RecipientKind = "signer"): boolean {
  return status === "sent" || (status === "viewed" && kind !== "viewer");
}

/** Signers, approvers and viewers take their turn in routing order; a copy recipient waits for the end. */
export function actsInRouting(kind: RecipientKind): boolean {
  return kind !== "cc";
}

export type RecipientOperation = "notify" | "view" | "sign" | "decline";

/** The recipient states each recipient transition is allowed from (docs/design.md §5). */
export const RECIPIENT_ALLOWED_FROM: Record<RecipientOperation, readonly RecipientStatus[]> = {
  notify: ["pending"],
  view: ["sent"],
  sign: ["sent", "viewed"],
  decline: ["sent", "viewed"],
};

/** Where each recipient transition leads. */
export const RECIPIENT_LEADS_TO: Record<RecipientOperation, RecipientStatus> = {
  notify: "sent",
  view: "viewed",
  sign: "signed",
  decline: "declined",
};

export function recipientAllows(operation: RecipientOperation, status: RecipientStatus): boolean {
  return RECIPIENT_ALLOWED_FROM[operation].includes(status);
}

/** What a signer reads when the recipient's state forbids what they tried. */
const RECIPIENT_IS: Record<RecipientStatus, string> = {
  pending: "it is not your turn to sign yet: an earlier signer has not finished",
  sent: "you have not opened this request yet",
  viewed: "you have not signed yet",
  signed: "you have signed this request already",
  approved: "you have approved this request already",
  declined: "you have declined this request",
};

/** Throws FAILED_PRECONDITION (409) in words a signer understands unless the recipient table allows it. */
export function assertRecipientAllowed(operation: RecipientOperation, status: RecipientStatus): void {
  if (recipientAllows(operation, status)) return;
  throw new ConnectError(`cannot ${operation}: ${RECIPIENT_IS[status]}`, Code.FailedPrecondition);
}
