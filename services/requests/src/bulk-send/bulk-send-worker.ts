/**
 * Sends bulk sends' rows in the background: leases pending rows of running batches (so replicas
 * share them, and a replica that dies lets its rows go when their lease passes), makes each row's
 * request through the same creation as a single request, and records what came of it. A row's
 * operation key makes a retried row answer the request an earlier attempt made, so a crash between
 * making a request and recording it sends no second one.
 *
 * A row the request refuses (its template gone, a document no longer there) fails with the reason;
 * one that meets a passing fault (a service down) is tried again after a wait, a few times.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { CreateSignatureRequestRequestSchema } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, DrainLoop, fieldViolations, type Logger } from "@countersign/kit";
import type { RequestCreation } from "../request-creation.js";
import { bulkSendStore, type LeasedRow } from "./bulk-send-store.js";

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
  /** How long a leased row is this worker's before another may take it up. */
  leaseMs?: number;
  /** Tries of a row that meets passing faults, before it fails. */
  maxAttempts?: number;
  /** The wait before the first retry of such a row, doubled after each. */
  retryBaseMs?: number;
  pollIntervalMs?: number;
  /** The only replica on its database (standalone): leases of a killed process go at start. */
  onlyReplica?: boolean;
}

export class BulkSendWorker {
  private readonly loop: DrainLoop;
  private readonly options: Required<Omit<BulkSendWorkerOptions, "onlyReplica">>;
  private leasesReleased: boolean;

  constructor(
    private readonly db: Database,
    private readonly creation: RequestCreation,
    private readonly logger: Logger,
    options: BulkSendWorkerOptions = {},
  ) {
    this.options = {
      concurrency: options.concurrency ?? 4,
      leaseMs: options.leaseMs ?? 120_000,
      maxAttempts: options.maxAttempts ?? 5,
      retryBaseMs: options.retryBaseMs ?? 10_000,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
    };
    this.leasesReleased = !options.onlyReplica;
    this.loop = new DrainLoop((stopping) => this.drain(stopping), this.options.pollIntervalMs, {
      work: "bulk send",
      logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Resolves when no drain runs; tests wait on it. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Sends rows until none is due or the worker stops; each lease holds as many rows as run at once. */
  private async drain(stopping: AbortSignal): Promise<void> {
    if (!this.leasesReleased) {
      await bulkSendStore.releaseLeases(this.db);
      this.leasesReleased = true;
    }
    // A batch whose last row was recorded by a worker that died before it completed the batch.
    await bulkSendStore.completeFinished(this.db);
    while (!stopping.aborted) {
      const rows = await bulkSendStore.lease(this.db, this.options.concurrency, this.options.leaseMs);
      if (rows.length === 0) return;
      // Every row's outcome is awaited, whatever another's was: none runs on past the drain.
      const outcomes = await Promise.allSettled(rows.map((row) => this.send(row)));
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") {
          this.logger.error(
            { err: outcome.reason },
            "could not record a bulk send row; its lease lets it be taken up again",
          );
        }
      }
      await bulkSendStore.completeFinished(this.db, [...new Set(rows.map((r) => r.bulk_send_id))]);
    }
  }

  private async send(row: LeasedRow): Promise<void> {
    const logged = { bulkSendId: row.bulk_send_id, line: row.line };
    try {
      const request = await this.creation.create(fromBinary(CreateSignatureRequestRequestSchema, row.input));
      await bulkSendStore.markSent(this.db, row, request.id);
    } catch (err) {
      const refused = err instanceof ConnectError && REFUSALS.has(err.code);
      if (refused) {
        const reason = reasonOf(err);
        await bulkSendStore.markFailed(this.db, row, reason);
        this.logger.info({ ...logged, reason }, "a bulk send row failed");
        return;
      }
      // A passing fault's own words (an address, a stack) are for the log, not for the sender.
      const tries = row.attempts + 1;
      const reason = `the request could not be made: a service did not answer (tried ${tries} ${tries === 1 ? "time" : "times"})`;
      if (tries >= this.options.maxAttempts) {
        this.logger.error({ ...logged, err }, "a bulk send row failed after its last try");
        await bulkSendStore.markFailed(this.db, row, reason);
        return;
      }
      const delay = this.options.retryBaseMs * 2 ** row.attempts;
      this.logger.warn(
        { ...logged, err, retryInMs: delay },
        "a bulk send row met a passing fault; it is tried again",
      );
      await bulkSendStore.retryLater(this.db, row, reason, delay);
    }
  }
}

/** What a refused row says: the refusal's own words and what it says of each field. */
function reasonOf(err: ConnectError): string {
  const fields = fieldViolations(err).map((v) => `${v.path}: ${v.message}`);
  return [err.rawMessage, ...fields].join("; ");
}
