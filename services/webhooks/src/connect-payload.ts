/**
 * A delivery in DocuSign Connect's JSON (its "SIM" envelope events, API v2.1), for receivers written
 * for DocuSign: the event by DocuSign's name, the envelope's URI in the DocuSign-compatible API, and
 * an envelope summary with DocuSign's status names and recipient ids — the same the envelope has when
 * a client reads it through /restapi. An expired request, which DocuSign voids, is announced as
 * `envelope-voided`; its summary says `timedout`, as /restapi does.
 */
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import {
  docuSignRecipientId,
  docuSignRecipientType,
  envelopeStatus,
  recipientStatus,
  type SignatureRequestEventType,
} from "@countersign/domain";
import type {
  RecipientSnapshot,
  SignatureRequestEvent,
  SignatureRequestSnapshot,
} from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";

/** DocuSign Connect's name for each event, and whether it is about one recipient. */
const CONNECT_EVENTS: Record<SignatureRequestEventType, { event: string; ofRecipient: boolean }> = {
  sent: { event: "envelope-sent", ofRecipient: false },
  viewed: { event: "recipient-delivered", ofRecipient: true },
  signed: { event: "recipient-completed", ofRecipient: true },
  completed: { event: "envelope-completed", ofRecipient: false },
  declined: { event: "envelope-declined", ofRecipient: true },
  cancelled: { event: "envelope-voided", ofRecipient: false },
  expired: { event: "envelope-voided", ofRecipient: false },
};

function iso(timestamp: Timestamp | undefined): string | undefined {
  return timestamp ? timestampDate(timestamp).toISOString() : undefined;
}

function recipientJson(request: SignatureRequestSnapshot, recipient: RecipientSnapshot, position: number) {
  return {
    recipientId: docuSignRecipientId(position, recipient.externalId),
    recipientIdGuid: recipient.id,
    recipientType: docuSignRecipientType(recipient.kind),
    name: recipient.name,
    email: recipient.email,
    roleName: recipient.role,
    routingOrder: String(recipient.routingOrder),
    status: recipientStatus(request, recipient),
  };
}

function envelopeSummary(request: SignatureRequestSnapshot, event: SignatureRequestEvent) {
  const recipients = request.recipients.map((r, i) => recipientJson(request, r, i));
  const status = envelopeStatus(request);
  const changed = iso(event.occurTime);
  const created = iso(request.createTime);
  const expires = iso(request.expireTime);
  return {
    envelopeId: request.id,
    status,
    emailSubject: request.title,
    ...(request.templateId ? { templateId: request.templateId } : {}),
    ...(created ? { createdDateTime: created } : {}),
    ...(changed ? { statusChangedDateTime: changed } : {}),
    ...(status === "completed" && changed ? { completedDateTime: changed } : {}),
    ...(request.cancelReason ? { voidedReason: request.cancelReason } : {}),
    ...(expires ? { expireDateTime: expires } : {}),
    recipients: {
      signers: recipients.filter((r) => r.recipientType === "signer"),
      carbonCopies: recipients.filter((r) => r.recipientType === "carboncopy"),
      certifiedDeliveries: recipients.filter((r) => r.recipientType === "certifieddelivery"),
    },
  };
}

/** The body of a Connect delivery for the event. */
export function connectPayload(event: SignatureRequestEvent): string {
  const request = event.signatureRequest;
  if (!request) throw new Error(`event ${event.eventId} carries no signature request`);
  const { event: name, ofRecipient } = CONNECT_EVENTS[event.type as SignatureRequestEventType];
  const position = event.recipient ? request.recipients.findIndex((r) => r.id === event.recipient?.id) : -1;
  const acting = position >= 0 ? request.recipients[position] : undefined;
  return JSON.stringify({
    event: name,
    apiVersion: "v2.1",
    uri: `/restapi/v2.1/accounts/${request.workspaceId}/envelopes/${request.id}`,
    generatedDateTime: iso(event.occurTime),
    data: {
      accountId: request.workspaceId,
      envelopeId: request.id,
      ...(ofRecipient && acting ? { recipientId: docuSignRecipientId(position, acting.externalId) } : {}),
      envelopeSummary: envelopeSummary(request, event),
    },
  });
}
