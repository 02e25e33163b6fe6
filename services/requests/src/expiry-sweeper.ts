/**
 * Turns requests whose expiresAt has passed into `expired`. Every replica sweeps; the rows each
 * one takes are locked with SKIP LOCKED, so two replicas never expire the same request twice. Each
 * request expires in a transaction of its own: one that fails is logged and skipped for this
 * sweep, and cannot hold back the others.
 */
import type { Database, Logger } from "@countersign/kit";
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
  async sweep(): Promise<number> {
    let expired = 0;
    const failed: string[] = [];
    for (;;) {
      let current: string | undefined;
      try {
        const done = await this.db.transaction(async (tx) => {
          const due = await store.lockNextDue(tx, failed);
          if (!due) return false;
          current = due.id;
          await this.requests.expireLocked(tx, due.workspace_id, due.id);
          return true;
        });
        if (!done) break;
        expired += 1;
        this.afterCommit();
      } catch (err) {
        if (current === undefined) throw err;
        failed.push(current);
        this.logger.error(
          { err, signatureRequestId: current },
          "could not expire a request; the others go on",
        );
      }
    }
    return expired;
  }
}
