/**
 * Idempotency-Key records for the gateway: the first POST with a key claims it, later ones with the
 * same key and request get the stored answer, and a key used for another request is refused. A
 * claim whose gateway died runs out, so a retry can run; answers are kept for 24 hours.
 */
import { create } from "@bufbuild/protobuf";
import {
  ClaimOutcome,
  type StoredResponse,
  StoredResponseSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { type Database, DrainLoop, isUuid, type Logger, validationError } from "@countersign/kit";

/** How long an answer is replayed. */
export const RETENTION_HOURS = 24;
const MAX_KEY_LENGTH = 255;

interface KeyRow {
  fingerprint: string;
  claimed_until: Date;
  status: number | null;
  content_type: string;
  body: Uint8Array | null;
}

export interface ClaimResult {
  outcome: ClaimOutcome;
  response?: StoredResponse;
}

export class IdempotencyKeys {
  private readonly cleanup: DrainLoop;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    cleanupIntervalMs = 10 * 60_000,
  ) {
    this.cleanup = new DrainLoop(() => this.deleteExpired(), cleanupIntervalMs, {
      work: "idempotency key cleanup",
      logger,
    });
  }

  start(): void {
    this.cleanup.start();
  }

  stop(): Promise<void> {
    return this.cleanup.stop();
  }

  async claim(
    workspaceId: string,
    key: string,
    fingerprint: string,
    claimSeconds: number,
  ): Promise<ClaimResult> {
    check(workspaceId, key, fingerprint);
    const seconds = Math.min(Math.max(claimSeconds, 1), 3600);
    return this.db.transaction(async (tx) => {
      // A key past its retention starts afresh.
      await tx.query(
        "DELETE FROM idempotency_keys WHERE workspace_id = $1 AND key = $2 AND expires_at <= now()",
        [workspaceId, key],
      );
      const inserted = await tx.query(
        `INSERT INTO idempotency_keys (workspace_id, key, fingerprint, expires_at, claimed_until)
         VALUES ($1, $2, $3, now() + make_interval(hours => $4), now() + make_interval(secs => $5))
         ON CONFLICT DO NOTHING RETURNING key`,
        [workspaceId, key, fingerprint, RETENTION_HOURS, seconds],
      );
      if (inserted.rowCount > 0) return { outcome: ClaimOutcome.CLAIMED };
      const { rows } = await tx.query<KeyRow>(
        `SELECT fingerprint, claimed_until, status, content_type, body FROM idempotency_keys
          WHERE workspace_id = $1 AND key = $2 FOR UPDATE`,
        [workspaceId, key],
      );
      const row = rows[0];
      if (!row) return { outcome: ClaimOutcome.IN_PROGRESS };
      if (row.fingerprint !== fingerprint) return { outcome: ClaimOutcome.MISMATCH };
      if (row.status !== null) {
        return {
          outcome: ClaimOutcome.COMPLETED,
          response: create(StoredResponseSchema, {
            status: row.status,
            contentType: row.content_type,
            body: row.body ?? new Uint8Array(),
          }),
        };
      }
      if (row.claimed_until > new Date()) return { outcome: ClaimOutcome.IN_PROGRESS };
      // The claimer is gone without an answer: this caller runs the request instead.
      await tx.query(
        `UPDATE idempotency_keys SET claimed_until = now() + make_interval(secs => $3)
          WHERE workspace_id = $1 AND key = $2`,
        [workspaceId, key, seconds],
      );
      return { outcome: ClaimOutcome.CLAIMED };
    });
  }

  async complete(
    workspaceId: string,
    key: string,
    fingerprint: string,
    response: StoredResponse,
  ): Promise<void> {
    check(workspaceId, key, fingerprint);
    await this.db.query(
      `UPDATE idempotency_keys SET status = $4, content_type = $5, body = $6
        WHERE workspace_id = $1 AND key = $2 AND fingerprint = $3 AND status IS NULL`,
      [workspaceId, key, fingerprint, response.status, response.contentType, response.body],
    );
  }

  async release(workspaceId: string, key: string, fingerprint: string): Promise<void> {
    check(workspaceId, key, fingerprint);
    await this.db.query(
      "DELETE FROM idempotency_keys WHERE workspace_id = $1 AND key = $2 AND fingerprint = $3 AND status IS NULL",
      [workspaceId, key, fingerprint],
    );
  }

  private async deleteExpired(): Promise<void> {
    try {
      await this.db.query("DELETE FROM idempotency_keys WHERE expires_at <= now()");
    } catch (err) {
      this.logger.warn({ err }, "could not delete expired idempotency keys; the next sweep tries again");
    }
  }
}

function check(workspaceId: string, key: string, fingerprint: string): void {
  const violations = [];
  if (!isUuid(workspaceId)) violations.push({ path: "workspace_id", message: "must be a UUID" });
  if (!key || key.length > MAX_KEY_LENGTH)
    violations.push({ path: "key", message: `must be 1 to ${MAX_KEY_LENGTH} characters` });
  if (!/^[0-9a-f]{64}$/.test(fingerprint))
    violations.push({ path: "fingerprint", message: "must be a SHA-256 in hex" });
  if (violations.length > 0) throw validationError(violations);
}
