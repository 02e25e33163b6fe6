/**
 * The life of a signature request and of its recipients (DESIGN §5): which operation is allowed in
 * which state. Every operation asks here first, under the request's row lock, so two concurrent
 * operations see each other's result and only what this table allows can happen.
 */
import { Code, ConnectError } from "@connectrpc/connect";

export const REQUEST_STATUSES = [
  "draft",
  "sent",
  "in_progress",
  "completed",
  "declined",
  "cancelled",
  "expired",
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const RECIPIENT_STATUSES = ["pending", "sent", "viewed", "signed", "declined"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export type Operation =
  | "send"
  | "resend"
  | "cancel"
  | "remind"
  | "update_recipients"
  | "embedded_signing_url"
  | "open_link"
  | "expire";

/** The request states each operation is allowed in. */
export const ALLOWED_FROM: Record<Operation, readonly RequestStatus[]> = {
  send: ["draft"],
  resend: ["sent", "in_progress"],
  cancel: ["draft", "sent", "in_progress"],
  remind: ["sent", "in_progress"],
  update_recipients: ["draft", "sent", "in_progress"],
  embedded_signing_url: ["sent", "in_progress"],
  open_link: ["sent", "in_progress"],
  expire: ["sent", "in_progress"],
};

/** What each operation is called in an error a person reads. */
const DOING: Record<Operation, string> = {
  send: "send",
  resend: "resend",
  cancel: "cancel",
  remind: "send a reminder for",
  update_recipients: "change the recipients of",
  embedded_signing_url: "make a signing URL for",
  open_link: "sign",
  expire: "expire",
};

export function isTerminal(status: RequestStatus): boolean {
  return status === "completed" || status === "declined" || status === "cancelled" || status === "expired";
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
export function isRecipientsTurn(status: RecipientStatus): boolean {
  return status === "sent" || status === "viewed";
}
