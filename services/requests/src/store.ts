/** SQL for signature requests, their recipients and agreement sets. */

import type {
  FieldRules,
  HeldClaim,
  RecipientKind,
  RecipientStatus,
  RequestStatus,
  SignerLocale,
  TextCover,
} from "@countersign/domain";
import { sameAddress } from "@countersign/domain";
import { type DueRows, type Queryable, selectPage } from "@countersign/kit";

/** A field as a request keeps it: on a document, bound to its recipient, with its rules. */
export interface StoredField extends FieldRules {
  id: string;
  type: string;
  recipientId: string;
  documentId: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
  /** What the sender filled in (merge-fields.ts): the signer sees it and may change it. */
  prefilled?: string;
  /** The text tag that placed the field, painted white in the completed PDF. */
  cover?: TextCover;
}

export interface RequestRow {
  id: string;
  workspace_id: string;
  title: string;
  message: string;
  template_id: string | null;
  document_ids: string[];
  document_external_ids: string[];
  fields: StoredField[];
  status: RequestStatus;
  expires_at: Date | null;
  agreement_set_id: string | null;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string;
  signed_document_id: string | null;
  completion_failure: CompletionFailure | null;
  /** Who the request comes from, as recipients see it. */
  sender_name: string;
  sender_email: string;
  /** Signers may hand the request to someone else. */
  allow_reassign: boolean;
  /** The files signers submitted for their attachment fields. */
  signer_attachments: SignerAttachmentRecord[];
  /** Days after their last e-mail that a recipient whose turn it is is reminded; 0 for never. */
  reminder_every_days: number;
  /** Days before expires_at that the waiting recipients and the sender are warned; 0 for never. */
  expiry_warning_days: number;
  expiry_warned_at: Date | null;
  /** A legal hold: why, placed by whom (a key's name, a user's e-mail), when; all null when there is none. */
  legal_hold_reason: string | null;
  legal_hold_by: string | null;
  legal_hold_at: Date | null;
  /** When retention deleted the documents. */
  documents_deleted_at: Date | null;
  /** The certificate of completion kept on its own when retention deleted the documents. */
  certificate_document_id: string | null;
  /** An agent's proposal: the key that proposed it and when; all null for a request no agent proposed. */
  proposed_by: string | null;
  proposed_at: Date | null;
  /** A person's decision on the proposal, by e-mail, when, and a rejection's reason. */
  approval_decision: "approved" | "rejected" | null;
  approval_decided_by: string | null;
  approval_decided_at: Date | null;
  approval_note: string | null;
}

/** A file a signer gave for an attachment field, as the request keeps it. */
export interface SignerAttachmentRecord {
  fieldId: string;
  recipientId: string;
  documentId: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  attachedAt: string;
}

/** Why sealing a fully signed request gave up, kept on the request for its sender. */
export interface CompletionFailure {
  reason: string;
  attempts: number;
  failedAt: string;
}

export interface RecipientRow {
  id: string;
  request_id: string;
  position: number;
  name: string;
  email: string;
  role: string;
  kind: RecipientKind;
  routing_order: number;
  status: RecipientStatus;
  client_user_id: string;
  external_id: string;
  /** Who hosts the signer's signing in person; empty for a signer who signs from their own link. */
  host_name: string;
  host_email: string;
  viewed_at: Date | null;
  signed_at: Date | null;
  declined_at: Date | null;
  decline_reason: string;
  reminded_at: Date | null;
  viewed_ip: string;
  viewed_user_agent: string;
  signed_ip: string;
  signed_user_agent: string;
  consented_at: Date | null;
  /** The sender set an access code for the signer to give (its hash is never read with the row). */
  access_code_required: boolean;
  /** The signer must give a one-time code e-mailed to them. */
  email_code_required: boolean;
  /** The language of their e-mails and signing page; empty when the sender set none. */
  locale: SignerLocale | "";
  /** Wrong codes given since the last right one, and the lock-out they led to. */
  auth_failures: number;
  auth_locked_until: Date | null;
  /** The recipient's latest e-mail, where the row was read with it (recipientsOf). */
  last_email?: EmailDeliveryRow | null;
}

/** One queued e-mail's state, for the recipient's delivery state. */
export interface EmailDeliveryRow {
  kind: string;
  outcome: "sent" | "failed" | "not_sent" | null;
  attempts: number;
  last_error: string;
  created_at: Date;
  done_at: Date | null;
  next_attempt_at: Date;
}

export interface NewRequest {
  id: string;
  workspaceId: string;
  title: string;
  message: string;
  templateId: string | null;
  documentIds: string[];
  documentExternalIds: string[];
  fields: StoredField[];
  expiresAt: Date | null;
  /** The client operation that creates it, when the caller named one (see operation_key). */
  operationKey: string | null;
  /** A request created and sent at once is written sent (with its sent time) rather than moved there. */
  status: "draft" | "sent";
  sender: { name: string; email: string };
  allowReassign: boolean;
  reminderEveryDays: number;
  expiryWarningDays: number;
}

/** Which requests a list keeps: every condition given must hold. */
export interface RequestFilter {
  status: string;
  statuses: string[];
  changedSince: Date | undefined;
  changedBefore: Date | undefined;
  requestIds: string[];
  /** Words the title, or a recipient's name or e-mail, contains (ignoring case). */
  search?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** The orders a list can be in, each ending in the id so that pages never overlap. */
export const REQUEST_ORDERS = {
  newest: "id DESC",
  oldest: "id ASC",
  title: "lower(title) ASC, id DESC",
  changed: "updated_at DESC, id DESC",
} as const;
export type RequestOrder = keyof typeof REQUEST_ORDERS;

/** A LIKE pattern that finds `text` as it is: its own % and _ are not wildcards. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type NewRecipientRow = Pick<
  RecipientRow,
  | "id"
  | "name"
  | "email"
  | "role"
  | "kind"
  | "routing_order"
  | "status"
  | "client_user_id"
  | "external_id"
  | "host_name"
  | "host_email"
  | "email_code_required"
  | "locale"
> & { access_code_hash: Buffer | null };

const REQUEST_COLUMNS = `id, workspace_id, title, message, template_id, document_ids, document_external_ids,
  fields, status, expires_at, agreement_set_id, created_at, updated_at, sent_at, completed_at, cancelled_at,
  cancel_reason, signed_document_id, completion_failure, sender_name, sender_email, allow_reassign,
  signer_attachments, reminder_every_days, expiry_warning_days, expiry_warned_at,
  legal_hold_reason, legal_hold_by, legal_hold_at, documents_deleted_at, certificate_document_id,
  proposed_by, proposed_at, approval_decision, approval_decided_by, approval_decided_at, approval_note`;
const RECIPIENT_COLUMNS = `id, request_id, position, name, email, role, kind, routing_order, status, client_user_id,
  host_name, host_email,
  external_id, viewed_at, signed_at, declined_at, decline_reason, reminded_at, viewed_ip, viewed_user_agent, signed_ip,
  signed_user_agent, consented_at, (access_code_hash IS NOT NULL) AS access_code_required, email_code_required,
  auth_failures, auth_locked_until, locale`;

/**
 * Changes recipients (`change` is the SET list and WHERE clause) and, in the same statement, moves
 * their requests' `updated_at`: a recipient who changes state changes their request, so that lists
 * of what changed since a time (DocuSign's status changes) see views and signatures too.
 */
async function updateRecipients(tx: Queryable, change: string, params: unknown[]): Promise<RecipientRow[]> {
  const { rows } = await tx.query<RecipientRow>(
    `WITH changed AS (UPDATE recipients SET ${change} RETURNING ${RECIPIENT_COLUMNS}),
          touched AS (UPDATE signature_requests SET updated_at = now() WHERE id IN (SELECT request_id FROM changed))
     SELECT * FROM changed`,
    params,
  );
  return rows;
}

/** to_jsonb gives timestamps as text. */
/** A recipient's latest e-mail as recipientsOf reads it beside the recipient: null where there is none. */
interface EmailColumns {
  email_kind: string | null;
  email_outcome: EmailDeliveryRow["outcome"];
  email_attempts: number | null;
  email_last_error: string | null;
  email_created_at: Date | null;
  email_done_at: Date | null;
  email_next_attempt_at: Date | null;
}

export const store = {
  /** The documents each of these requests is made of (requests that do not exist use none). */
  async documentsUsed(db: Queryable, requestIds: string[]): Promise<HeldClaim[]> {
    const { rows } = await db.query<{
      id: string;
      document_ids: string[];
      signed_document_id: string | null;
      certificate_document_id: string | null;
    }>(
      `SELECT id, document_ids, signed_document_id, certificate_document_id
         FROM signature_requests WHERE id = ANY($1::uuid[])`,
      [requestIds],
    );
    const uploads = await db.query<{ request_id: string; document_id: string }>(
      "SELECT request_id, document_id FROM signer_uploads WHERE request_id = ANY($1::uuid[])",
      [requestIds],
    );
    return [
      ...rows.flatMap((r) =>
        [
          ...r.document_ids,
          ...(r.signed_document_id ? [r.signed_document_id] : []),
          // The certificate of completion kept when retention deleted the documents.
          ...(r.certificate_document_id ? [r.certificate_document_id] : []),
        ].map((documentId) => ({
          holderId: r.id,
          documentId,
        })),
      ),
      ...uploads.rows.map((u) => ({ holderId: u.request_id, documentId: u.document_id })),
    ];
  },

  /**
   * Keeps a signer's file as the one for its field; the document it replaces, whose claim the
   * caller releases once this is committed.
   */
  async saveUpload(
    tx: Queryable,
    requestId: string,
    upload: SignerAttachmentRecord,
  ): Promise<string | undefined> {
    const { rows } = await tx.query<{ previous: string | null }>(
      `WITH previous AS (SELECT document_id FROM signer_uploads WHERE request_id = $1 AND field_id = $2 FOR UPDATE)
       INSERT INTO signer_uploads (request_id, field_id, recipient_id, document_id, filename, content_type, size_bytes, sha256, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (request_id, field_id) DO UPDATE SET recipient_id = $3, document_id = $4, filename = $5,
         content_type = $6, size_bytes = $7, sha256 = $8, uploaded_at = $9
       RETURNING (SELECT document_id FROM previous) AS previous`,
      [
        requestId,
        upload.fieldId,
        upload.recipientId,
        upload.documentId,
        upload.filename,
        upload.contentType,
        upload.sizeBytes,
        upload.sha256,
        upload.attachedAt,
      ],
    );
    const previous = rows[0]?.previous;
    return previous && previous !== upload.documentId ? previous : undefined;
  },

  /** The files a signer gave, the latest for each of their fields. */
  async uploadsOf(db: Queryable, requestId: string, recipientId: string): Promise<SignerAttachmentRecord[]> {
    const { rows } = await db.query<SignerAttachmentRecord>(
      `SELECT field_id AS "fieldId", recipient_id AS "recipientId", document_id AS "documentId", filename,
              content_type AS "contentType", size_bytes::float8 AS "sizeBytes", sha256,
              to_json(uploaded_at) #>> '{}' AS "attachedAt"
         FROM signer_uploads WHERE request_id = $1 AND recipient_id = $2`,
      [requestId, recipientId],
    );
    return rows;
  },

  /** Lists files a signer submitted with their signature on the request. */
  async addSignerAttachments(
    tx: Queryable,
    requestId: string,
    added: SignerAttachmentRecord[],
  ): Promise<void> {
    if (added.length === 0) return;
    await tx.query(
      "UPDATE signature_requests SET signer_attachments = signer_attachments || $2::jsonb WHERE id = $1",
      [requestId, JSON.stringify(added)],
    );
  },

  async insertRequest(
    tx: Queryable,
    request: NewRequest,
    recipients: NewRecipientRow[],
  ): Promise<{ request: RequestRow; recipients: RecipientRow[] }> {
    const inserted = await tx.query<RequestRow>(
      `INSERT INTO signature_requests (id, workspace_id, title, message, template_id, document_ids,
         document_external_ids, fields, status, sent_at, expires_at, operation_key, sender_name, sender_email,
         allow_reassign, reminder_every_days, expiry_warning_days)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text, CASE WHEN $9::text = 'sent' THEN now() END, $10, $11,
               $12, $13, $14, $15, $16)
       RETURNING ${REQUEST_COLUMNS}`,
      [
        request.id,
        request.workspaceId,
        request.title,
        request.message,
        request.templateId,
        request.documentIds,
        request.documentExternalIds,
        JSON.stringify(request.fields),
        request.status,
        request.expiresAt,
        request.operationKey,
        request.sender.name,
        request.sender.email,
        request.allowReassign,
        request.reminderEveryDays,
        request.expiryWarningDays,
      ],
    );
    // One statement for every recipient, in the order given.
    const rows = await tx.query<RecipientRow>(
      `INSERT INTO recipients (id, request_id, workspace_id, position, name, email, role, kind, routing_order,
         status, client_user_id, external_id, access_code_hash, email_code_required, locale, host_name, host_email)
       SELECT r.id, $1, $2, r.position - 1, r.name, r.email, r.role, r.kind, r.routing_order, r.status,
              r.client_user_id, r.external_id, decode(r.access_code_hash, 'hex'), r.email_code_required, r.locale,
              r.host_name, r.host_email
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[],
                     $11::text[], $12::text[], $13::bool[], $14::text[], $15::text[], $16::text[])
              WITH ORDINALITY AS r(id, name, email, role, kind, routing_order, status, client_user_id, external_id,
                                   access_code_hash, email_code_required, locale, host_name, host_email, position)
       RETURNING ${RECIPIENT_COLUMNS}`,
      [
        request.id,
        request.workspaceId,
        recipients.map((r) => r.id),
        recipients.map((r) => r.name),
        recipients.map((r) => r.email),
        recipients.map((r) => r.role),
        recipients.map((r) => r.kind),
        recipients.map((r) => r.routing_order),
        recipients.map((r) => r.status),
        recipients.map((r) => r.client_user_id),
        recipients.map((r) => r.external_id),
        recipients.map((r) => r.access_code_hash?.toString("hex") ?? null),
        recipients.map((r) => r.email_code_required),
        recipients.map((r) => r.locale),
        recipients.map((r) => r.host_name),
        recipients.map((r) => r.host_email),
      ],
    );
    return {
      request: inserted.rows[0] as RequestRow,
      recipients: rows.rows.sort((a, b) => a.position - b.position),
    };
  },

  async getRequest(
    db: Queryable,
    workspaceId: string,
    id: string,
    lock = false,
  ): Promise<RequestRow | undefined> {
    const { rows } = await db.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM signature_requests WHERE id = $1 AND workspace_id = $2${lock ? " FOR UPDATE" : ""}`,
      [id, workspaceId],
    );
    return rows[0];
  },

  async requestByOperationKey(
    db: Queryable,
    workspaceId: string,
    operationKey: string,
  ): Promise<RequestRow | undefined> {
    const { rows } = await db.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM signature_requests WHERE workspace_id = $1 AND operation_key = $2`,
      [workspaceId, operationKey],
    );
    return rows[0];
  },

  /** Each recipient's newest e-mail link that has not been replaced or revoked. */
  async liveEmailLinks(
    db: Queryable,
    requestId: string,
  ): Promise<{ id: string; recipient_id: string; created_at: Date }[]> {
    const { rows } = await db.query<{ id: string; recipient_id: string; created_at: Date }>(
      `SELECT DISTINCT ON (recipient_id) id, recipient_id, created_at
         FROM signing_links
        WHERE request_id = $1 AND kind = 'email' AND revoked_at IS NULL
        ORDER BY recipient_id, created_at DESC, id DESC`,
      [requestId],
    );
    return rows;
  },

  /** The recipients of these requests, each with their latest e-mail. */
  async recipientsOf(db: Queryable, requestIds: string[]): Promise<RecipientRow[]> {
    if (requestIds.length === 0) return [];
    // The latest e-mail's columns under names of their own, read as the driver types them.
    const { rows } = await db.query<RecipientRow & EmailColumns>(
      `SELECT r.*, e.kind AS email_kind, e.outcome AS email_outcome, e.attempts AS email_attempts,
              e.last_error AS email_last_error, e.created_at AS email_created_at,
              COALESCE(e.done_at, e.parked_at) AS email_done_at,
              e.next_attempt_at AS email_next_attempt_at
         FROM (SELECT ${RECIPIENT_COLUMNS} FROM recipients WHERE request_id = ANY($1::uuid[])) r
         LEFT JOIN LATERAL (
           SELECT kind, outcome, attempts, last_error, created_at, done_at, parked_at, next_attempt_at
             FROM notifications n WHERE n.recipient_id = r.id AND n.kind <> 'sender_expiry_warning'
            ORDER BY n.id DESC LIMIT 1) e ON true
        ORDER BY r.request_id, r.position`,
      [requestIds],
    );
    return rows.map(
      ({
        email_kind,
        email_outcome,
        email_attempts,
        email_last_error,
        email_created_at,
        email_done_at,
        email_next_attempt_at,
        ...recipient
      }) => ({
        ...recipient,
        last_email:
          email_kind === null || email_created_at === null || email_next_attempt_at === null
            ? null
            : {
                kind: email_kind,
                outcome: email_outcome,
                attempts: email_attempts ?? 0,
                last_error: email_last_error ?? "",
                created_at: email_created_at,
                done_at: email_done_at,
                next_attempt_at: email_next_attempt_at,
              },
      }),
    );
  },

  /** The request a recipient belongs to, if the recipient is the workspace's. */
  async requestIdOfRecipient(
    db: Queryable,
    workspaceId: string,
    recipientId: string,
  ): Promise<string | undefined> {
    const { rows } = await db.query<{ request_id: string }>(
      "SELECT request_id FROM recipients WHERE id = $1 AND workspace_id = $2",
      [recipientId, workspaceId],
    );
    return rows[0]?.request_id;
  },

  page(
    db: Queryable,
    workspaceId: string,
    filter: RequestFilter,
    pageIndex: number,
    pageSize: number,
    order: RequestOrder = "newest",
  ) {
    const params: unknown[] = [workspaceId];
    const where = ["workspace_id = $1"];
    const keep = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (filter.status) keep((p) => `status = ${p}`, filter.status);
    if (filter.statuses.length > 0) keep((p) => `status = ANY(${p}::text[])`, filter.statuses);
    if (filter.changedSince) keep((p) => `updated_at >= ${p}`, filter.changedSince);
    if (filter.changedBefore) keep((p) => `updated_at < ${p}`, filter.changedBefore);
    if (filter.requestIds.length > 0) keep((p) => `id = ANY(${p}::uuid[])`, filter.requestIds);
    if (filter.createdAfter) keep((p) => `created_at >= ${p}`, filter.createdAfter);
    if (filter.createdBefore) keep((p) => `created_at < ${p}`, filter.createdBefore);
    if (filter.search?.trim()) {
      keep(
        (p) =>
          `(title ILIKE ${p} OR EXISTS (SELECT 1 FROM recipients r WHERE r.request_id = signature_requests.id
             AND (r.name ILIKE ${p} OR r.email ILIKE ${p})))`,
        containing(filter.search.trim()),
      );
    }
    return selectPage<RequestRow>(
      db,
      {
        from: "signature_requests",
        columns: REQUEST_COLUMNS,
        where: where.join(" AND "),
        orderBy: REQUEST_ORDERS[order],
        params,
        maxPageSize: 100,
      },
      pageIndex,
      pageSize,
    );
  },

  async setStatus(
    tx: Queryable,
    id: string,
    status: RequestStatus,
    stamps: { sent?: boolean; cancelled?: boolean; cancelReason?: string } = {},
  ): Promise<RequestRow> {
    const { rows } = await tx.query<RequestRow>(
      `UPDATE signature_requests SET status = $2, updated_at = now(),
         sent_at = CASE WHEN $3 THEN now() ELSE sent_at END,
         cancelled_at = CASE WHEN $4 THEN now() ELSE cancelled_at END,
         cancel_reason = COALESCE($5, cancel_reason)
       WHERE id = $1 RETURNING ${REQUEST_COLUMNS}`,
      [id, status, stamps.sent ?? false, stamps.cancelled ?? false, stamps.cancelReason ?? null],
    );
    return rows[0] as RequestRow;
  },

  async complete(tx: Queryable, id: string, signedDocumentId: string, at: Date): Promise<RequestRow> {
    const { rows } = await tx.query<RequestRow>(
      `UPDATE signature_requests SET status = 'completed', completed_at = $3, signed_document_id = $2, updated_at = now()
        WHERE id = $1 RETURNING ${REQUEST_COLUMNS}`,
      [id, signedDocumentId, at],
    );
    return rows[0] as RequestRow;
  },

  /** Says on the request why its completion gave up, or (null) that it is being tried again. */
  async setCompletionFailure(tx: Queryable, id: string, failure: CompletionFailure | null): Promise<void> {
    await tx.query(
      "UPDATE signature_requests SET completion_failure = $2, updated_at = now() WHERE id = $1",
      [id, failure === null ? null : JSON.stringify(failure)],
    );
  },

  async touch(tx: Queryable, id: string): Promise<void> {
    await tx.query("UPDATE signature_requests SET updated_at = now() WHERE id = $1", [id]);
  },

  /** The changed recipients as they are now. */
  async setRecipientStatus(tx: Queryable, ids: string[], status: RecipientStatus): Promise<RecipientRow[]> {
    return updateRecipients(tx, "status = $2 WHERE id = ANY($1::uuid[])", [ids, status]);
  },

  /**
   * A recipient's new name and address. At another address it is another person, who has seen
   * nothing yet: the place's view (its time, address and browser) is the previous person's and goes.
   */
  async renameRecipient(tx: Queryable, before: RecipientRow, name: string, email: string): Promise<void> {
    await tx.query(
      `UPDATE recipients SET name = $2, email = $3,
              status = CASE WHEN $4 AND status = 'viewed' THEN 'sent' ELSE status END,
              viewed_at = CASE WHEN $4 THEN NULL ELSE viewed_at END,
              viewed_ip = CASE WHEN $4 THEN '' ELSE viewed_ip END,
              viewed_user_agent = CASE WHEN $4 THEN '' ELSE viewed_user_agent END
        WHERE id = $1`,
      [before.id, name, email, !sameAddress(before.email, email)],
    );
  },

  async setRecipientLocale(tx: Queryable, id: string, locale: SignerLocale | ""): Promise<void> {
    await tx.query("UPDATE recipients SET locale = $2 WHERE id = $1", [id, locale]);
  },

  async workspaceOfRequest(db: Queryable, requestId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ workspace_id: string }>(
      "SELECT workspace_id FROM signature_requests WHERE id = $1",
      [requestId],
    );
    return rows[0]?.workspace_id;
  },

  async markViewed(tx: Queryable, id: string, ip: string, userAgent: string): Promise<RecipientRow> {
    const rows = await updateRecipients(
      tx,
      "status = 'viewed', viewed_at = now(), viewed_ip = $2, viewed_user_agent = $3 WHERE id = $1",
      [id, ip, userAgent],
    );
    return rows[0] as RecipientRow;
  },

  /** A sent request is in progress once a recipient acts; the request as it is afterwards. */
  async markInProgress(tx: Queryable, request: RequestRow): Promise<RequestRow> {
    return request.status === "sent" ? store.setStatus(tx, request.id, "in_progress") : request;
  },

  /** A signer's signature, or an approver's approval (`as`): the act's time, address and browser. */
  async markSigned(
    tx: Queryable,
    id: string,
    signed: { ip: string; userAgent: string; consentedAt: Date; signedAt: Date },
    as: "signed" | "approved" = "signed",
  ): Promise<RecipientRow> {
    const rows = await updateRecipients(
      tx,
      `status = $6, signed_at = $5, signed_ip = $2, signed_user_agent = $3, consented_at = $4,
         viewed_at = COALESCE(viewed_at, $5) WHERE id = $1`,
      [id, signed.ip, signed.userAgent, signed.consentedAt, signed.signedAt, as],
    );
    return rows[0] as RecipientRow;
  },

  async markDeclined(tx: Queryable, id: string, reason: string): Promise<RecipientRow> {
    const rows = await updateRecipients(
      tx,
      "status = 'declined', declined_at = now(), decline_reason = $2 WHERE id = $1",
      [id, reason],
    );
    return rows[0] as RecipientRow;
  },

  async setReminded(tx: Queryable, id: string, at: Date): Promise<void> {
    await tx.query("UPDATE recipients SET reminded_at = $2 WHERE id = $1", [id, at]);
  },

  async setExpiryWarned(tx: Queryable, requestId: string): Promise<void> {
    await tx.query("UPDATE signature_requests SET expiry_warned_at = now() WHERE id = $1", [requestId]);
  },
};

/**
 * What the sweeps find due (the kit's due-rows.ts locks them one at a time, replicas skipping each
 * other's), each row locked with its request.
 */
export const dueRows = {
  /** Requests past their expiry that no completion is sealing. */
  expiry: {
    select: "id, workspace_id",
    from: "signature_requests",
    where: `status IN ('awaiting_approval', 'sent', 'in_progress') AND expires_at <= now()
            AND NOT EXISTS (SELECT 1 FROM completions c WHERE c.request_id = signature_requests.id)`,
    order: "expires_at",
    lock: "signature_requests",
    id: "id",
  },
  /**
   * Recipients due a scheduled reminder — their turn, reachable by e-mail, their last e-mail the
   * request's reminder_every_days ago or longer, the request not expired.
   */
  reminder: {
    select: "s.id AS request_id, s.workspace_id, r.id AS recipient_id",
    from: "signature_requests s JOIN recipients r ON r.request_id = s.id",
    where: `s.status IN ('sent', 'in_progress') AND s.reminder_every_days > 0
            AND (s.expires_at IS NULL OR s.expires_at > now())
            AND r.kind <> 'cc' AND r.client_user_id = '' AND r.host_email = ''
            AND (r.status = 'sent' OR (r.status = 'viewed' AND r.kind <> 'viewer'))
            AND (SELECT max(n.created_at) FROM notifications n
                  WHERE n.recipient_id = r.id AND n.kind NOT IN ('signing_code', 'sender_expiry_warning'))
                <= now() - make_interval(days => s.reminder_every_days)`,
    order: "s.id, r.position",
    lock: "s",
    id: "r.id",
  },
  /**
   * Requests due their warning before expiry: expiring within their expiry_warning_days, not warned
   * yet, and sent before that window opened (one sent already inside it is not warned).
   */
  expiryWarning: {
    select: "id, workspace_id",
    from: "signature_requests",
    where: `status IN ('sent', 'in_progress') AND expiry_warning_days > 0 AND expiry_warned_at IS NULL
            AND expires_at > now() AND expires_at - make_interval(days => expiry_warning_days) <= now()
            AND sent_at < expires_at - make_interval(days => expiry_warning_days)`,
    order: "expires_at",
    lock: "signature_requests",
    id: "id",
  },
} satisfies Record<string, DueRows>;
