/**
 * Sends bulk sends' rows in the background, as jobs of the kit's queue (job-queue.ts): claimed so
 * that replicas share them and a replica that dies lets its rows go when their lease passes, the
 * workspaces' bulk sends in turn. Each row's request is made through the same creation as a single
 * request, and what came of it is recorded with the batch's completion in one transaction. A row's
 * operation key makes a retried row answer the request an earlier attempt made, so a crash between
 * making a request and recording it sends no second one.
 *
 * A row the request refuses (its template gone, a document no longer there) fails with the reason;
 * one that meets a passing fault (a service down) is tried again after a wait, a few times.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { CreateSignatureRequestRequestSchema } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  type Database,
  exponentialBackoff,
  fieldViolations,
  inDataMode,
  type JobFailure,
  type JobOutcome,
  JobQueue,
  type Logger,
  type Queryable,
} from "@countersign/kit";
import { bulkSendStore, type LeasedRow, ROW_JOBS } from "./bulk-send-store.js";
import type { RequestMaker } from "./request-maker.js";

/** Codes that say the request itself cannot be made: trying again would answer the same. */
const REFUSALS = new Set([
  Code.InvalidArgument,
  Code.NotFound,
  Code.FailedPrecondition,
  Code.PermissionDenied,
  Code.AlreadyExists,
  Code.OutOfRange,
]);

export interface BulkSendWorkerOptions {
  /** Rows made at once; each is a few calls and one transaction. */
  concurrency?: number;
  /** How long a claimed row is this worker's before another may take it up. */
  leaseMs?: number;
  /** Tries of a row that meets passing faults, before it fails. */
  maxAttempts?: number;
  /** The wait before the first retry of such a row, doubled after each, at most an hour. */
  retryBaseMs?: number;
  pollIntervalMs?: number;
  /** The only replica on its database (standalone): claims of a killed process go at start. */
  onlyReplica?: boolean;
}

export class BulkSendWorker extends JobQueue<LeasedRow> {
  constructor(
    private readonly db: Database,
    private readonly creation: RequestMaker,
    private readonly logger: Logger,
    options: BulkSendWorkerOptions = {},
  ) {
    super({
      name: "bulk send",
      db,
      logger,
      table: ROW_JOBS,
      batchSize: options.concurrency ?? 4,
      leaseSeconds: Math.ceil((options.leaseMs ?? 120_000) / 1000),
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      maxAttempts: options.maxAttempts ?? 5,
      backoff: exponentialBackoff(options.retryBaseMs ?? 10_000, 3_600_000),
      onlyReplica: options.onlyReplica,
      describe: (row) => ({ bulkSendId: row.bulk_send_id, line: row.line }),
      // The rows of a claim are made at once; each records its own outcome as it ends.
      runBatch: (rows) => Promise.all(rows.map((row) => this.send(row))),
      failed: (tx, row, failure) => this.failed(tx, row, failure),
    });
  }

  /** Makes a row's request; a refusal is the row's outcome, a passing fault fails the attempt. */
  private async send(row: LeasedRow): Promise<JobOutcome> {
    try {
      // Made in the mode its bulk send was started in, as a call of that caller would make it.
      const request = await inDataMode(row.test ? "test" : "live", () =>
        this.creation.create(fromBinary(CreateSignatureRequestRequestSchema, row.input)),
      );
      await this.db.transaction(async (tx) => {
        await bulkSendStore.markSent(tx, row, request.id);
        await bulkSendStore.completeFinished(tx, row.bulk_send_id);
      });
      return { kind: "done" };
    } catch (err) {
      if (!(err instanceof ConnectError && REFUSALS.has(err.code))) return { kind: "failed", error: err };
      const reason = reasonOf(err);
      await this.db.transaction(async (tx) => {
        await bulkSendStore.markFailed(tx, row, reason);
        await bulkSendStore.completeFinished(tx, row.bulk_send_id);
      });
      this.logger.info({ bulkSendId: row.bulk_send_id, line: row.line, reason }, "a bulk send row failed");
      return { kind: "done", note: reason };
    }
  }

  /** A passing fault, as the sender reads it: its own words (an address, a stack) are for the log. */
  private async failed(tx: Queryable, row: LeasedRow, failure: JobFailure): Promise<void> {
    const tries = failure.attempts;
    const reason = `the request could not be made: a service did not answer (tried ${tries} ${tries === 1 ? "time" : "times"})`;
    if (failure.retryAt) {
      await bulkSendStore.noteRetry(tx, row, reason);
      return;
    }
    await bulkSendStore.markFailed(tx, row, reason);
    await bulkSendStore.completeFinished(tx, row.bulk_send_id);
  }
}

/** What a refused row says: the refusal's own words and what it says of each field. */
function reasonOf(err: ConnectError): string {
  const fields = fieldViolations(err).map((v) => `${v.path}: ${v.message}`);
  return [err.rawMessage, ...fields].join("; ");
}
