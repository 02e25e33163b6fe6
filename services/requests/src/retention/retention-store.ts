/** SQL for retention: the requests whose documents are due for deletion, their leases, legal holds, the record of a deletion. */
import { type DueRows, lockNextDue, type Queryable, uuidv7 } from "@countersign/kit";
import { statusIn, TERMINAL } from "../core/state-machine.js";

/** A request whose documents are due for deletion, with its workspace's retention and the lease taken on it. */
export interface RetentionDue {
  id: string;
  workspace_id: string;
  retention_days: number;
  retention_deletes_evidence: boolean;
  /** The lease's token: only its holder renews it and records the deletion. */
  lease: string;
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

/**
 * How long a lease lasts unless renewed: the longest one document's deletion may take. Past it, a
 * deletion whose replica died is taken up again.
 */
const RETENTION_LEASE = "15 minutes";

/** Ended requests of workspaces with a retention period, past it, documents not deleted, not held, not leased. */
const DUE: DueRows = {
  select: "r.id, r.workspace_id, s.retention_days, s.retention_deletes_evidence",
  from: "signature_requests r JOIN request_settings s ON s.workspace_id = r.workspace_id",
  where: `s.retention_days IS NOT NULL
          AND ${statusIn("r.status", TERMINAL)}
          AND r.documents_deleted_at IS NULL AND r.legal_hold_at IS NULL
          AND (r.retention_lease_until IS NULL OR r.retention_lease_until < now())
          AND ${ENDED_AT} <= now() - make_interval(days => s.retention_days)`,
  order: "r.id",
  lock: "r",
  id: "r.id",
};

export const retentionStore = {
  /**
   * Takes a lease on the next request due (locked as the kit's sweeps lock, so replicas share the
   * work), none of `skip`: nobody else takes it, and a legal hold is refused, while the lease lasts.
   */
  async takeNextDue(tx: Queryable, skip: string[]): Promise<RetentionDue | undefined> {
    const due = await lockNextDue<Omit<RetentionDue, "lease">>(tx, DUE, skip);
    if (!due) return undefined;
    const lease = uuidv7();
    await tx.query(
      `UPDATE signature_requests SET retention_lease = $2, retention_lease_until = now() + interval '${RETENTION_LEASE}'
        WHERE id = $1`,
      [due.id, lease],
    );
    return { ...due, lease };
  },

  /**
   * Renews the lease before the next deletion: false when it is no longer ours (it ran out and another
   * replica took the request) or a legal hold was placed meanwhile, and nothing more may be deleted.
   */
  async renewLease(tx: Queryable, requestId: string, lease: string): Promise<boolean> {
    const { rowCount } = await tx.query(
      `UPDATE signature_requests SET retention_lease_until = now() + interval '${RETENTION_LEASE}'
        WHERE id = $1 AND retention_lease = $2 AND legal_hold_at IS NULL AND documents_deleted_at IS NULL`,
      [requestId, lease],
    );
    return (rowCount ?? 0) > 0;
  },

  /** Lets the request go after a failed attempt: the next sweep takes it again, and a hold may be placed. */
  async releaseLease(tx: Queryable, requestId: string, lease: string): Promise<void> {
    await tx.query(
      `UPDATE signature_requests SET retention_lease = NULL, retention_lease_until = NULL
        WHERE id = $1 AND retention_lease = $2`,
      [requestId, lease],
    );
  },

  /** Whether a replica holds a lease on the request to delete its documents. */
  async beingDeleted(tx: Queryable, requestId: string): Promise<boolean> {
    const { rows } = await tx.query<{ deleting: boolean }>(
      "SELECT coalesce(retention_lease_until > now(), false) AS deleting FROM signature_requests WHERE id = $1",
      [requestId],
    );
    return rows[0]?.deleting ?? false;
  },

  /** The files signers gave that were never submitted (a request declined or cancelled meanwhile). */
  async unsubmittedUploads(db: Queryable, requestId: string): Promise<string[]> {
    const { rows } = await db.query<{ document_id: string }>(
      "SELECT document_id FROM signer_uploads WHERE request_id = $1",
      [requestId],
    );
    return rows.map((r) => r.document_id);
  },

  /**
   * Records the deletion under the request's lock, if the lease is still ours; false otherwise (the
   * caller rolls back).
   */
  async recordDeletion(
    tx: Queryable,
    requestId: string,
    lease: string,
    { certificateDocumentId, evidenceDeleted }: { certificateDocumentId?: string; evidenceDeleted: boolean },
  ): Promise<boolean> {
    const { rowCount } = await tx.query(
      `UPDATE signature_requests
          SET documents_deleted_at = now(), retention_lease = NULL, retention_lease_until = NULL,
              certificate_document_id = $3, updated_at = now()
        WHERE id = $1 AND retention_lease = $2 AND legal_hold_at IS NULL`,
      [requestId, lease, certificateDocumentId ?? null],
    );
    if (!rowCount) return false;
    if (evidenceDeleted) await tx.query("DELETE FROM audit_entries WHERE request_id = $1", [requestId]);
    await tx.query("DELETE FROM signer_uploads WHERE request_id = $1", [requestId]);
    return true;
  },

  async setLegalHold(
    tx: Queryable,
    requestId: string,
    hold: { reason: string; by: string } | undefined,
  ): Promise<void> {
    await tx.query(
      `UPDATE signature_requests
          SET legal_hold_reason = $2, legal_hold_by = $3,
              legal_hold_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END, updated_at = now()
        WHERE id = $1`,
      [requestId, hold?.reason ?? null, hold?.by ?? null],
    );
  },
};
