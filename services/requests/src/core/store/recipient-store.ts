/**
 * The recipients table, and each recipient's e-mail links: with the state machine, the only code
 * that writes a recipient's status.
 */
import { type RecipientStatus, type SignerLocale, sameAddress } from "@countersign/domain";
import type { Queryable } from "@countersign/kit";
import { inCallMode } from "@countersign/kit";
import { type EmailDeliveryRow, RECIPIENT_COLUMNS, type RecipientRow } from "./rows.js";

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

export const recipientStore = {
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
      `SELECT r.request_id FROM recipients r JOIN signature_requests s ON s.id = r.request_id
        WHERE r.id = $1 AND r.workspace_id = $2${inCallMode("s.test")}`,
      [recipientId, workspaceId],
    );
    return rows[0]?.request_id;
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

  async markViewed(tx: Queryable, id: string, ip: string, userAgent: string): Promise<RecipientRow> {
    const rows = await updateRecipients(
      tx,
      "status = 'viewed', viewed_at = now(), viewed_ip = $2, viewed_user_agent = $3 WHERE id = $1",
      [id, ip, userAgent],
    );
    return rows[0] as RecipientRow;
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
};
