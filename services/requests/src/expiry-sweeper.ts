/**
 * Turns requests whose expiresAt has passed into `expired`. Every replica sweeps; the rows each
 * one takes are locked with SKIP LOCKED, so two replicas never expire the same request twice.
 */
import type { Database, Logger } from "@countersign/kit";
import type { Requests } from "./requests.js";
import { store } from "./store.js";

const BATCH = 50;

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
  async sweep(): Promise<number> {
    let expired = 0;
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const due = await store.lockDue(tx, BATCH);
        for (const row of due) await this.requests.expireLocked(tx, row.workspace_id, row.id);
        return due.length;
      });
      expired += batch;
      if (batch > 0) this.afterCommit();
      if (batch < BATCH) return expired;
    }
  }
}
