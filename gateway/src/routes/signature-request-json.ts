/** Signature requests, recipients, audit entries and agreement sets as the public API writes them. */
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type {
  AgreementSet,
  AuditEntry,
  Recipient,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";

function iso(time: Timestamp | undefined): string | null {
  return time ? timestampDate(time).toISOString() : null;
}

function orNull(value: string): string | null {
  return value === "" ? null : value;
}

export function recipientJson(r: Recipient) {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: orNull(r.role),
    kind: r.kind,
    routingOrder: r.routingOrder,
    status: r.status,
    clientUserId: orNull(r.clientUserId),
    viewedAt: iso(r.viewTime),
    signedAt: iso(r.signTime),
    declinedAt: iso(r.declineTime),
    declineReason: orNull(r.declineReason),
  };
}

export function signatureRequestJson(request: SignatureRequest | undefined) {
  if (!request) throw new Error("the requests service answered without a signature request");
  return {
    id: request.id,
    title: request.title,
    message: request.message,
    status: request.status,
    templateId: orNull(request.templateId),
    documentIds: request.documentIds,
    recipients: request.recipients.map(recipientJson),
    fields: request.fields.map((f) => ({
      id: f.id,
      type: f.type,
      recipientId: f.recipientId,
      documentId: f.documentId,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
      required: f.required,
      label: f.label,
    })),
    expiresAt: iso(request.expireTime),
    agreementSetId: orNull(request.agreementSetId),
    createdAt: iso(request.createTime),
    updatedAt: iso(request.updateTime),
    sentAt: iso(request.sendTime),
    completedAt: iso(request.completeTime),
    cancelledAt: iso(request.cancelTime),
    cancelReason: orNull(request.cancelReason),
    signedDocumentId: orNull(request.signedDocumentId),
  };
}

export function auditEntryJson(entry: AuditEntry) {
  return {
    sequence: entry.sequence,
    at: iso(entry.time),
    action: entry.action,
    actor: { type: entry.actorType, id: orNull(entry.actorId) },
    ip: orNull(entry.ip),
    userAgent: orNull(entry.userAgent),
    details: JSON.parse(entry.details || "{}") as Record<string, unknown>,
    previousHash: orNull(entry.previousHash),
    hash: entry.hash,
  };
}

export function agreementSetJson(set: AgreementSet | undefined) {
  if (!set) throw new Error("the requests service answered without an agreement set");
  return {
    id: set.id,
    name: set.name,
    status: set.status,
    requestIds: set.requests.map((r) => r.requestId),
    requests: set.requests.map((r) => ({ id: r.requestId, status: r.status })),
    createdAt: iso(set.createTime),
  };
}
