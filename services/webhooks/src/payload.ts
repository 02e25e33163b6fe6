/**
 * The JSON body of a delivery: `{ type, timestamp, data: { signatureRequest, recipient? } }`, kept
 * small — the request's state and links to it and its sealed PDF, never document bytes.
 */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampNow } from "@bufbuild/protobuf/wkt";
import type { SignatureRequestEventType, WebhookFormat } from "@countersign/domain";
import {
  type RecipientSnapshot,
  type SignatureRequestEvent,
  SignatureRequestEventSchema,
} from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { uuidv7 } from "@countersign/kit";
import { connectPayload } from "./connect-payload.js";
import type { WebhookEventType } from "./event-types.js";

function iso(timestamp: Timestamp | undefined): string | null {
  return timestamp ? timestampDate(timestamp).toISOString() : null;
}

function recipientJson(recipient: RecipientSnapshot) {
  return {
    id: recipient.id,
    name: recipient.name,
    email: recipient.email,
    role: recipient.role,
    kind: recipient.kind,
    routingOrder: recipient.routingOrder,
    status: recipient.status,
    externalId: recipient.externalId || null,
  };
}

/** A synthetic event's request and signer as a real one of its type would show them. */
const SYNTHETIC_STATES: Record<
  SignatureRequestEventType,
  { request: string; signer: string; acted: boolean }
> = {
  sent: { request: "sent", signer: "sent", acted: false },
  viewed: { request: "in_progress", signer: "viewed", acted: true },
  signed: { request: "in_progress", signer: "signed", acted: true },
  completed: { request: "completed", signer: "signed", acted: false },
  declined: { request: "declined", signer: "declined", acted: true },
  cancelled: { request: "cancelled", signer: "sent", acted: false },
  expired: { request: "expired", signer: "sent", acted: false },
};

export class Payloads {
  /** `publicUrl` is the base of the links in payloads. */
  constructor(private readonly publicUrl: string) {}

  /** The body for an event, as every endpoint of the format subscribed to its type receives it. */
  of(event: SignatureRequestEvent, format: WebhookFormat = "standard_webhooks"): string {
    return format === "docusign_connect" ? connectPayload(event) : this.standard(event);
  }

  private standard(event: SignatureRequestEvent): string {
    const request = event.signatureRequest;
    if (!request) throw new Error(`event ${event.eventId} carries no signature request`);
    const api = `${this.publicUrl.replace(/\/$/, "")}/api/v1`;
    return JSON.stringify({
      type: `signature_request.${event.type}`,
      timestamp: iso(event.occurTime),
      data: {
        signatureRequest: {
          id: request.id,
          accountId: request.workspaceId,
          title: request.title,
          status: request.status,
          templateId: request.templateId || null,
          documentIds: request.documentIds,
          recipients: request.recipients.map(recipientJson),
          createdAt: iso(request.createTime),
          expiresAt: iso(request.expireTime),
          ...(request.cancelReason ? { cancelReason: request.cancelReason } : {}),
          ...(request.signedDocumentId ? { signedDocumentId: request.signedDocumentId } : {}),
          externalId: request.externalId || null,
          test: request.test,
          links: {
            self: `${api}/signature-requests/${request.id}`,
            ...(request.signedDocumentId
              ? { signedDocument: `${api}/documents/${request.signedDocumentId}/download` }
              : {}),
          },
        },
        ...(event.recipient ? { recipient: recipientJson(event.recipient) } : {}),
      },
    });
  }

  /** A made-up event of the type in the endpoint's format, for test-fire: it names no real request. */
  synthetic(workspaceId: string, type: WebhookEventType, format: WebhookFormat): string {
    const kind = type.slice("signature_request.".length) as SignatureRequestEventType;
    const state = SYNTHETIC_STATES[kind];
    const signer = {
      id: uuidv7(),
      name: "Ada Lovelace",
      email: "ada@example.com",
      role: "Signer",
      kind: "signer",
      routingOrder: 1,
      status: state.signer,
    };
    return this.of(
      create(SignatureRequestEventSchema, {
        eventId: uuidv7(),
        type: kind,
        occurTime: timestampNow(),
        signatureRequest: {
          id: uuidv7(),
          workspaceId,
          title: "Test event from Countersign",
          status: state.request,
          documentIds: [uuidv7()],
          recipients: [signer],
          createTime: timestampNow(),
          ...(kind === "cancelled" ? { cancelReason: "a test event" } : {}),
          ...(kind === "completed" ? { signedDocumentId: uuidv7() } : {}),
        },
        ...(state.acted ? { recipient: signer } : {}),
      }),
      format,
    );
  }
}
