/**
 * The signature_requests table (a request is written with its recipients, in one transaction): with
 * the state machine (state-machine.ts), the only code that writes a request's status.
 */
import type { HeldClaim, RequestStatus } from "@countersign/domain";
import { inCallMode, type Queryable, selectPage } from "@countersign/kit";
import {
  type CompletionFailure,
  type NewRecipientRow,
  type NewRequest,
  RECIPIENT_COLUMNS,
  REQUEST_COLUMNS,
  type RecipientRow,
  type RequestRow,
  type SignerAttachmentRecord,
} from "./rows.js";

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
  /** The sender's own id, exactly as given. */
  externalId?: string;
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

export const requestStore = {
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
         allow_reassign, reminder_every_days, expiry_warning_days, external_id, lock_signer_identity, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text, CASE WHEN $9::text = 'sent' THEN now() END, $10, $11,
               $12, $13, $14, $15, $16, $17, $18, $19)
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
        request.externalId,
        request.lockSignerIdentity,
        request.test,
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
      `SELECT ${REQUEST_COLUMNS} FROM signature_requests WHERE id = $1 AND workspace_id = $2${inCallMode("test")}${lock ? " FOR UPDATE" : ""}`,
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
      `SELECT ${REQUEST_COLUMNS} FROM signature_requests WHERE workspace_id = $1 AND operation_key = $2${inCallMode("test")}`,
      [workspaceId, operationKey],
    );
    return rows[0];
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
    const where = [`workspace_id = $1${inCallMode("test")}`];
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
    if (filter.externalId) keep((p) => `external_id = ${p}`, filter.externalId);
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

  /** A draft waits for a person's approval, with who proposed it. */
  async propose(tx: Queryable, id: string, proposedBy: string): Promise<void> {
    await tx.query(
      `UPDATE signature_requests SET status = 'awaiting_approval', proposed_by = $2, proposed_at = now(),
         updated_at = now() WHERE id = $1`,
      [id, proposedBy],
    );
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

  async workspaceOfRequest(db: Queryable, requestId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ workspace_id: string }>(
      "SELECT workspace_id FROM signature_requests WHERE id = $1",
      [requestId],
    );
    return rows[0]?.workspace_id;
  },

  /** A sent request is in progress once a recipient acts; the request as it is afterwards. */
  async markInProgress(tx: Queryable, request: RequestRow): Promise<RequestRow> {
    return request.status === "sent" ? requestStore.setStatus(tx, request.id, "in_progress") : request;
  },

  async setExpiryWarned(tx: Queryable, requestId: string): Promise<void> {
    await tx.query("UPDATE signature_requests SET expiry_warned_at = now() WHERE id = $1", [requestId]);
  },
};
