/** Signature request events, written to the outbox in the transaction of the transition they announce. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type SignatureRequestEventType, signatureRequestSubject } from "@countersign/domain";
import {
  type RecipientSnapshot,
  RecipientSnapshotSchema,
  SignatureRequestEventSchema,
} from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { enqueueEvent, type Queryable, uuidv7 } from "@countersign/kit";
import { recipientIdentity } from "./messages.js";
import type { RecipientRow, RequestRow } from "./store/rows.js";

function recipientSnapshot(row: RecipientRow): RecipientSnapshot {
  return create(RecipientSnapshotSchema, { ...recipientIdentity(row), externalId: row.external_id });
}

/** Enqueues the event; `request` and `recipients` are the state after the transition. */
export async function enqueueRequestEvent(
  tx: Queryable,
  type: SignatureRequestEventType,
  request: RequestRow,
  recipients: RecipientRow[],
  actingRecipient?: RecipientRow,
): Promise<void> {
  await enqueueEvent(
    tx,
    signatureRequestSubject(type),
    SignatureRequestEventSchema,
    create(SignatureRequestEventSchema, {
      eventId: uuidv7(),
      type,
      occurTime: timestampFromDate(new Date()),
      signatureRequest: {
        id: request.id,
        workspaceId: request.workspace_id,
        title: request.title,
        status: request.status,
        templateId: request.template_id ?? "",
        documentIds: request.document_ids,
        recipients: recipients.map(recipientSnapshot),
        createTime: timestampFromDate(request.created_at),
        expireTime: request.expires_at ? timestampFromDate(request.expires_at) : undefined,
        cancelReason: request.cancel_reason,
        signedDocumentId: request.signed_document_id ?? "",
        externalId: request.external_id,
        test: request.test,
      },
      recipient: actingRecipient ? recipientSnapshot(actingRecipient) : undefined,
    }),
  );
}
