/** Signature requests, recipients, audit entries and agreement sets as the public API writes them. */
import { coverOf, placementOf, rulesOf } from "@countersign/domain";
import type {
  RequestField,
  AgreementSet as StoredAgreementSet,
  AuditEntry as StoredAuditEntry,
  EmailDelivery as StoredEmailDelivery,
  Recipient as StoredRecipient,
  SignatureRequest as StoredSignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { z } from "zod";
import type { AgreementSet } from "../contract/agreement-sets.js";
import type {
  AuditEntry,
  EmailDelivery,
  Recipient,
  SignatureRequest,
} from "../contract/signature-requests.js";
import { iso, isoOrNull } from "../json-time.js";

type Json<T extends z.ZodType> = z.infer<T>;

function orNull(value: string): string | null {
  return value === "" ? null : value;
}

export function recipientJson(r: StoredRecipient): Json<typeof Recipient> {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: orNull(r.role),
    kind: r.kind as Json<typeof Recipient>["kind"],
    routingOrder: r.routingOrder,
    status: r.status as Json<typeof Recipient>["status"],
    clientUserId: orNull(r.clientUserId),
    externalId: orNull(r.externalId),
    viewedAt: isoOrNull(r.viewTime),
    signedAt: isoOrNull(r.signTime),
    declinedAt: isoOrNull(r.declineTime),
    declineReason: orNull(r.declineReason),
    emailDelivery: r.emailDelivery ? emailDeliveryJson(r.emailDelivery) : null,
    authentication: r.authentication as Json<typeof Recipient>["authentication"],
    locale: orNull(r.locale) as Json<typeof Recipient>["locale"],
    host: r.host ? { name: r.host.name, email: r.host.email } : null,
  };
}

function emailDeliveryJson(d: StoredEmailDelivery): Json<typeof EmailDelivery> {
  return {
    status: d.status as Json<typeof EmailDelivery>["status"],
    email: d.kind as Json<typeof EmailDelivery>["email"],
    attempts: d.attempts,
    error: orNull(d.error),
    queuedAt: iso(d.queueTime),
    doneAt: isoOrNull(d.doneTime),
    nextAttemptAt: isoOrNull(d.nextAttemptTime),
  };
}

export function fieldJson(f: RequestField): Json<typeof SignatureRequest>["fields"][number] {
  return {
    id: f.id,
    type: f.type as Json<typeof SignatureRequest>["fields"][number]["type"],
    recipientId: f.recipientId,
    documentId: f.documentId,
    ...placementOf(f),
    required: f.required,
    label: f.label,
    ...(f.prefilled ? { prefilled: f.prefilled } : {}),
    ...coverOf(f.cover),
    ...rulesOf(f.rules),
  };
}

export function signatureRequestJson(
  request: StoredSignatureRequest | undefined,
): Json<typeof SignatureRequest> {
  if (!request) throw new Error("the requests service answered without a signature request");
  return {
    id: request.id,
    title: request.title,
    message: request.message,
    status: request.status as Json<typeof SignatureRequest>["status"],
    templateId: orNull(request.templateId),
    documentIds: request.documentIds,
    recipients: request.recipients.map(recipientJson),
    fields: request.fields.map(fieldJson),
    signerAttachments: request.signerAttachments.map((a) => ({
      fieldId: a.fieldId,
      recipientId: a.recipientId,
      documentId: a.documentId,
      filename: a.filename,
      contentType: a.contentType as Json<typeof SignatureRequest>["signerAttachments"][number]["contentType"],
      sizeBytes: Number(a.sizeBytes),
      sha256: a.sha256,
      attachedAt: iso(a.attachTime),
    })),
    expiresAt: isoOrNull(request.expireTime),
    agreementSetId: orNull(request.agreementSetId),
    createdAt: iso(request.createTime),
    updatedAt: iso(request.updateTime),
    sentAt: isoOrNull(request.sendTime),
    completedAt: isoOrNull(request.completeTime),
    cancelledAt: isoOrNull(request.cancelTime),
    cancelReason: orNull(request.cancelReason),
    signedDocumentId: orNull(request.signedDocumentId),
    sender: { name: request.sender?.name ?? "", email: orNull(request.sender?.email ?? "") },
    allowReassign: request.allowReassign,
    externalId: orNull(request.externalId),
    lockSignerIdentity: request.lockSignerIdentity,
    test: request.test,
    reminderEveryDays: request.reminderEveryDays,
    expiryWarningDays: request.expiryWarningDays,
    expiryWarningSentAt: isoOrNull(request.expiryWarningTime),
    legalHold: request.legalHold
      ? {
          reason: request.legalHold.reason,
          placedBy: request.legalHold.placedBy,
          placedAt: iso(request.legalHold.placeTime),
        }
      : null,
    proposal: request.proposal
      ? {
          proposedBy: request.proposal.proposedBy,
          proposedAt: iso(request.proposal.proposeTime),
          decision: proposalDecision(request.proposal.decision, request.status),
          decidedBy: orNull(request.proposal.decidedBy),
          decidedAt: isoOrNull(request.proposal.decideTime),
          reason: orNull(request.proposal.note),
        }
      : null,
    documentsDeletedAt: isoOrNull(request.documentsDeleteTime),
    certificateDocumentId: orNull(request.certificateDocumentId),
    completionFailure: request.completionFailure
      ? {
          reason: request.completionFailure.reason,
          attempts: request.completionFailure.attempts,
          failedAt: iso(request.completionFailure.failTime),
        }
      : null,
  };
}

export function auditEntryJson(entry: StoredAuditEntry): Json<typeof AuditEntry> {
  return {
    sequence: entry.sequence,
    at: iso(entry.time),
    action: entry.action,
    actor: {
      type: entry.actorType,
      id: orNull(entry.actorId),
      name: orNull(entry.actorName),
      email: orNull(entry.actorEmail),
    },
    ip: orNull(entry.ip),
    userAgent: orNull(entry.userAgent),
    details: JSON.parse(entry.details || "{}") as Record<string, unknown>,
    previousHash: orNull(entry.previousHash),
    hash: entry.hash,
  };
}

export function agreementSetJson(set: StoredAgreementSet | undefined): Json<typeof AgreementSet> {
  if (!set) throw new Error("the requests service answered without an agreement set");
  return {
    id: set.id,
    name: set.name,
    status: set.status as Json<typeof AgreementSet>["status"],
    requestIds: set.requests.map((r) => r.requestId),
    requests: set.requests.map((r) => ({
      id: r.requestId,
      status: r.status as Json<typeof AgreementSet>["requests"][number]["status"],
    })),
    createdAt: iso(set.createTime),
  };
}

/**
 * A proposal's decision as the API names it: a person's, `pending` while the request awaits one, or
 * how the request ended before anyone decided.
 */
function proposalDecision(
  decision: string,
  status: string,
): "pending" | "approved" | "rejected" | "cancelled" | "expired" {
  if (decision === "approved" || decision === "rejected") return decision;
  if (status === "expired") return "expired";
  return status === "awaiting_approval" ? "pending" : "cancelled";
}
