/**
 * Turns requests whose expiresAt has passed into `expired`. Every replica sweeps, one request at a
 * time (due-rows.ts): locked with SKIP LOCKED, so two replicas never expire the same request twice.
 */
import type { Database, Logger } from "@countersign/kit";
import { workThroughDue } from "./due-rows.js";
import type { Requests } from "./requests.js";
import { store } from "./store.js";

export class ExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly requests: Requests,
    private readonly logger: Logger,
    private readonly afterCommit: () => void,
    private readonly intervalMs = 30_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .then(() => {})
        .catch((err: unknown) => this.logger.warn({ err }, "expiry sweep failed; next sweep tries again"))
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Expires every request that is due now; returns how many. */
  sweep(): Promise<number> {
    return workThroughDue(
      { db: this.db, logger: this.logger, afterCommit: this.afterCommit },
      {
        next: (tx, skip) => store.lockNextDue(tx, skip),
        idOf: (due) => due.id,
        act: (tx, due) => this.requests.expireLocked(tx, due.workspace_id, due.id),
        logField: "signatureRequestId",
        failure: "could not expire a request; the others go on",
      },
    );
  }
}
