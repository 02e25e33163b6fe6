/** SQL for retention: the requests whose documents are due for deletion, legal holds, the record of a deletion. */
import type { Queryable } from "@countersign/kit";

/** A request whose documents are due for deletion, with its workspace's retention. */
export interface RetentionDue {
  id: string;
  workspace_id: string;
  retention_days: number;
  retention_deletes_evidence: boolean;
}

/**
 * When a request ended: completed, cancelled, expired, or declined (its last decline). A request that
 * every signer signed but whose sealing is not done is not ended yet: its sealed PDF is still to come.
 */
const ENDED_AT = `CASE r.status
    WHEN 'completed' THEN CASE WHEN r.signed_document_id IS NOT NULL THEN r.completed_at END
    WHEN 'cancelled' THEN r.cancelled_at
    WHEN 'expired' THEN r.expires_at
    WHEN 'declined' THEN (SELECT max(declined_at) FROM recipients WHERE request_id = r.id)
  END`;

/** How long a replica's hold on a deletion lasts: past it, a crashed deletion is taken up again. */
export const RETENTION_LEASE = "15 minutes";

export const retentionStore = {
  /**
   * Takes the next request due (SKIP LOCKED, so replicas share the work), none of `skip`: marks it
   * started, so that nobody else takes it and a legal hold waits until its deletion is recorded.
   */
  async takeNextDue(tx: Queryable, skip: string[]): Promise<RetentionDue | undefined> {
    const { rows } = await tx.query<RetentionDue>(
      `UPDATE signature_requests SET retention_started_at = now()
        WHERE id = (
          SELECT r.id FROM signature_requests r JOIN request_settings s ON s.workspace_id = r.workspace_id
           WHERE s.retention_days IS NOT NULL
             AND r.status IN ('completed', 'declined', 'cancelled', 'expired')
             AND r.documents_deleted_at IS NULL AND r.legal_hold_at IS NULL
             AND (r.retention_started_at IS NULL OR r.retention_started_at < now() - interval '${RETENTION_LEASE}')
             AND ${ENDED_AT} <= now() - make_interval(days => s.retention_days)
             AND NOT (r.id = ANY($1::uuid[]))
           ORDER BY r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED)
        RETURNING id, workspace_id,
          (SELECT retention_days FROM request_settings WHERE workspace_id = signature_requests.workspace_id),
          (SELECT retention_deletes_evidence FROM request_settings WHERE workspace_id = signature_requests.workspace_id)`,
      [skip],
    );
    return rows[0];
  },

  /** Whether a replica is deleting the request's documents now. */
  async beingDeleted(tx: Queryable, requestId: string): Promise<boolean> {
    const { rows } = await tx.query<{ deleting: boolean }>(
      `SELECT coalesce(retention_started_at > now() - interval '${RETENTION_LEASE}', false) AS deleting
         FROM signature_requests WHERE id = $1`,
      [requestId],
    );
    return rows[0]?.deleting ?? false;
  },

  /** The files signers gave that were never submitted (a request declined or cancelled meanwhile). */
  async unsubmittedUploads(tx: Queryable, requestId: string): Promise<string[]> {
    const { rows } = await tx.query<{ document_id: string }>(
      "SELECT document_id FROM signer_uploads WHERE request_id = $1",
      [requestId],
    );
    return rows.map((r) => r.document_id);
  },

  async recordDeletion(
    tx: Queryable,
    requestId: string,
    { certificateDocumentId, evidenceDeleted }: { certificateDocumentId?: string; evidenceDeleted: boolean },
  ): Promise<void> {
    if (evidenceDeleted) await tx.query("DELETE FROM audit_entries WHERE request_id = $1", [requestId]);
    await tx.query("DELETE FROM signer_uploads WHERE request_id = $1", [requestId]);
    await tx.query(
      `UPDATE signature_requests
          SET documents_deleted_at = now(), retention_started_at = NULL, certificate_document_id = $2, updated_at = now()
        WHERE id = $1`,
      [requestId, certificateDocumentId ?? null],
    );
  },

  async setLegalHold(
    tx: Queryable,
    requestId: string,
    hold: { reason: string; by: string } | undefined,
  ): Promise<void> {
    await tx.query(
      `UPDATE signature_requests
          SET legal_hold_reason = $2, legal_hold_by = $3, legal_hold_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END,
              updated_at = now()
        WHERE id = $1`,
      [requestId, hold?.reason ?? null, hold?.by ?? null],
    );
  },
};
