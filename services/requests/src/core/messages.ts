/** Rows as the contract's messages. */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { rulesMessage } from "@countersign/domain";
import {
  type AuditEntry as AuditEntryMessage,
  AuditEntrySchema,
  type EmailDelivery,
  EmailDeliverySchema,
  type FieldValue,
  type Recipient,
  RecipientSchema,
  type RequestFieldSchema,
  type SignatureRequest,
  SignatureRequestSchema,
  type SignerAttachmentSchema,
  TypedSignatureSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type AuditEntry, hashedContent } from "./audit-trail.js";
import type { StoredValue } from "./field-values.js";
import type {
  EmailDeliveryRow,
  RecipientRow,
  RequestRow,
  SignerAttachmentRecord,
  StoredField,
} from "./store/rows.js";

function time(date: Date | null): Timestamp | undefined {
  return date ? timestampFromDate(date) : undefined;
}

/** Who a recipient is and where they stand: the same in the API's answers and in the events. */
export function recipientIdentity(row: RecipientRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    kind: row.kind,
    routingOrder: row.routing_order,
    status: row.status,
  };
}

export function toRecipient(row: RecipientRow): Recipient {
  return create(RecipientSchema, {
    ...recipientIdentity(row),
    clientUserId: row.client_user_id,
    host: row.host_email ? { name: row.host_name, email: row.host_email } : undefined,
    viewTime: time(row.viewed_at),
    signTime: time(row.signed_at),
    declineTime: time(row.declined_at),
    declineReason: row.decline_reason,
    externalId: row.external_id,
    emailDelivery: row.last_email ? toEmailDelivery(row.last_email) : undefined,
    authentication: authenticationOf(row),
    locale: row.locale,
  });
}

/** What a signer must give before the document is shown, in the order the page asks for it. */
export function authenticationOf(row: Pick<RecipientRow, "access_code_required" | "email_code_required">) {
  return [
    ...(row.access_code_required ? ["access_code"] : []),
    ...(row.email_code_required ? ["email_code"] : []),
  ];
}

function toEmailDelivery(row: EmailDeliveryRow): EmailDelivery {
  const status = row.outcome ?? (row.last_error ? "retrying" : "queued");
  return create(EmailDeliverySchema, {
    status,
    kind: row.kind,
    attempts: row.attempts,
    error: status === "sent" ? "" : row.last_error,
    queueTime: timestampFromDate(row.created_at),
    doneTime: time(row.done_at),
    nextAttemptTime: status === "retrying" ? timestampFromDate(row.next_attempt_at) : undefined,
  });
}

/** A kept field as the contract carries it, its rules in their own message. */
function toRequestField({
  options,
  minimum,
  maximum,
  group,
  option,
  condition,
  ...placed
}: StoredField): MessageInitShape<typeof RequestFieldSchema> {
  return { ...placed, rules: rulesMessage({ options, minimum, maximum, group, option, condition }) };
}

/** A file a signer gave, as the contract carries it. */
export function toSignerAttachment({
  attachedAt,
  sizeBytes,
  ...attachment
}: SignerAttachmentRecord): MessageInitShape<typeof SignerAttachmentSchema> {
  return { ...attachment, sizeBytes: BigInt(sizeBytes), attachTime: timestampFromDate(new Date(attachedAt)) };
}

export function toSignatureRequest(row: RequestRow, recipients: RecipientRow[]): SignatureRequest {
  return create(SignatureRequestSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    title: row.title,
    message: row.message,
    status: row.status,
    templateId: row.template_id ?? "",
    documentIds: row.document_ids,
    documentExternalIds: row.document_external_ids,
    recipients: recipients.map(toRecipient),
    fields: row.fields.map(toRequestField),
    expireTime: time(row.expires_at),
    agreementSetId: row.agreement_set_id ?? "",
    createTime: time(row.created_at),
    updateTime: time(row.updated_at),
    sendTime: time(row.sent_at),
    completeTime: time(row.completed_at),
    cancelTime: time(row.cancelled_at),
    cancelReason: row.cancel_reason,
    signedDocumentId: row.signed_document_id ?? "",
    sender: { name: row.sender_name, email: row.sender_email },
    allowReassign: row.allow_reassign,
    externalId: row.external_id,
    lockSignerIdentity: row.lock_signer_identity,
    test: row.test,
    reminderEveryDays: row.reminder_every_days,
    expiryWarningDays: row.expiry_warning_days,
    expiryWarningTime: time(row.expiry_warned_at),
    legalHold:
      row.legal_hold_at && row.legal_hold_reason !== null
        ? {
            reason: row.legal_hold_reason,
            placedBy: row.legal_hold_by ?? "",
            placeTime: time(row.legal_hold_at),
          }
        : undefined,
    proposal: row.proposed_at
      ? {
          proposedBy: row.proposed_by ?? "",
          proposeTime: time(row.proposed_at),
          decision: row.approval_decision ?? "",
          decidedBy: row.approval_decided_by ?? "",
          decideTime: time(row.approval_decided_at),
          note: row.approval_note ?? "",
        }
      : undefined,
    documentsDeleteTime: time(row.documents_deleted_at),
    certificateDocumentId: row.certificate_document_id ?? "",
    signerAttachments: row.signer_attachments.map(toSignerAttachment),
    completionFailure: row.completion_failure
      ? {
          reason: row.completion_failure.reason,
          attempts: row.completion_failure.attempts,
          failTime: timestampFromDate(new Date(row.completion_failure.failedAt)),
        }
      : undefined,
  });
}

export function toAuditEntry(entry: AuditEntry): AuditEntryMessage {
  return create(AuditEntrySchema, {
    sequence: entry.sequence,
    time: timestampFromDate(entry.at),
    action: entry.action,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    ip: entry.actor.ip,
    userAgent: entry.actor.userAgent,
    actorName: entry.actor.name ?? "",
    actorEmail: entry.actor.email ?? "",
    details: JSON.stringify(entry.details),
    previousHash: entry.previousHash,
    hash: entry.hash,
    hashedContent: hashedContent(entry),
  });
}

/** A kept value as the contract carries it. */
export function toFieldValue(value: StoredValue): FieldValue["value"] {
  switch (value.kind) {
    case "typed":
      return { case: "typed", value: create(TypedSignatureSchema, { text: value.text }) };
    case "drawn":
      return { case: "drawnPng", value: Buffer.from(value.png, "base64") };
    case "text":
      return { case: "text", value: value.text };
    case "checkbox":
      return { case: "checked", value: value.checked };
    case "date":
      return { case: "text", value: value.text };
    case "attachment":
      return { case: "attachmentId", value: value.documentId };
  }
}
