/**
 * The states a signature request and its recipients can be in, and the kinds of recipient: declared
 * once here, for the requests service that moves them (state-machine.ts) and the gateway that names
 * them in the public contract, from which the web apps' lists are generated.
 */
export const REQUEST_STATUSES = [
  "draft",
  "awaiting_approval",
  "sent",
  "in_progress",
  "completed",
  "declined",
  "cancelled",
  "expired",
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const RECIPIENT_STATUSES = ["pending", "sent", "viewed", "signed", "approved", "declined"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/**
 * A signer fills fields; an approver approves or declines and signs nothing; a viewer must open the
 * documents before the routing moves on, and signs nothing; a cc recipient receives a copy when the
 * request is completed.
 */
export const RECIPIENT_KINDS = ["signer", "cc", "viewer", "approver"] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/**
 * Whether a recipient has done their part: a signer signed, an approver approved, a viewer opened
 * the documents; a copy recipient has none to do. A request completes when every recipient has.
 */
export function hasDonePart(recipient: { kind: string; status: string }): boolean {
  if (recipient.kind === "signer") return recipient.status === "signed";
  if (recipient.kind === "approver") return recipient.status === "approved";
  if (recipient.kind === "viewer") return recipient.status === "viewed";
  return true;
}
