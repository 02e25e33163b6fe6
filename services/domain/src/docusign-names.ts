/**
 * DocuSign's names for a request's and a recipient's states, which the DocuSign-compatible API
 * answers (gateway) and DocuSign Connect deliveries carry (webhooks): one mapping, so a client sees
 * the same status in an envelope it reads and in the event that told it of the change.
 */
import { hasDonePart } from "./request-states.js";

const ENVELOPE_STATUS: Record<string, string> = {
  draft: "created",
  // Not sent until a person approves it: a draft, as DocuSign's clients see it.
  awaiting_approval: "created",
  sent: "sent",
  in_progress: "sent",
  completed: "completed",
  declined: "declined",
  cancelled: "voided",
  expired: "timedout",
};

const RECIPIENT_STATUS: Record<string, string> = {
  pending: "created",
  sent: "sent",
  viewed: "delivered",
  signed: "completed",
  approved: "completed",
  declined: "declined",
};

/** What the names are read from: a request's status and its recipients', in the request's order. */
export interface EnvelopeState {
  status: string;
  recipients: readonly { kind: string; status: string; routingOrder: number }[];
}

/** The routing order whose signers and viewers are being asked now: the lowest with someone yet to act. */
export function currentRoutingOrder({ recipients }: EnvelopeState): number {
  const waiting = recipients.filter((r) => !hasDonePart(r));
  const orders = (waiting.length > 0 ? waiting : recipients).map((r) => r.routingOrder);
  return orders.length > 0 ? Math.min(...orders) : 1;
}

/** DocuSign's name for a request's state; in progress is `delivered` once everyone asked has looked. */
export function envelopeStatus(request: EnvelopeState): string {
  if (request.status === "in_progress") {
    const order = currentRoutingOrder(request);
    const asked = request.recipients.filter((r) => r.kind !== "cc" && r.routingOrder === order);
    if (asked.length > 0 && asked.every((r) => r.status === "viewed" || r.status === "signed"))
      return "delivered";
  }
  return ENVELOPE_STATUS[request.status] ?? request.status;
}

/** DocuSign's name for a recipient's state: a carbon copy has its copy once the request is completed. */
export function recipientStatus(request: EnvelopeState, recipient: { kind: string; status: string }): string {
  if (recipient.kind === "cc") return request.status === "completed" ? "completed" : "created";
  // A certified delivery is complete once it was viewed.
  if (recipient.kind === "viewer" && recipient.status === "viewed") return "completed";
  return RECIPIENT_STATUS[recipient.status] ?? recipient.status;
}

/**
 * DocuSign's recipient type for each kind of recipient: a viewer is a certified delivery; an
 * approver, which DocuSign has no type for, a signer (DocuSign approves with a signer's tab).
 */
const RECIPIENT_TYPES: Record<string, string> = {
  signer: "signer",
  cc: "carboncopy",
  viewer: "certifieddelivery",
  approver: "signer",
};

export function docuSignRecipientType(kind: string): string {
  return RECIPIENT_TYPES[kind] ?? "signer";
}

/** The id a DocuSign client knows a recipient by: the sender's own, or its place in the request. */
export function docuSignRecipientId(position: number, externalId: string): string {
  return externalId || String(position + 1);
}
