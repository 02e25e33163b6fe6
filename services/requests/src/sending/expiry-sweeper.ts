/**
 * Turns requests whose expiresAt has passed into `expired`. Every replica sweeps, at start and on a
 * timer, one request at a time (the kit's due-rows.ts): locked with SKIP LOCKED, so two replicas never
 * expire the same request twice.
 */
import { type Database, DrainLoop, type Logger, workThroughDue } from "@countersign/kit";
import { dueRows } from "../core/store/sweep-rows.js";
import type { Requests } from "./requests.js";

export class ExpirySweeper {
  private readonly loop: DrainLoop;

  constructor(
    private readonly db: Database,
    private readonly requests: Requests,
    private readonly logger: Logger,
    private readonly afterCommit: () => void,
    intervalMs = 30_000,
  ) {
    this.loop = new DrainLoop(
      async (stopping) => {
        await this.sweep(stopping);
      },
      intervalMs,
      { work: "expiry sweep", logger },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Expires every request that is due now; returns how many. */
  sweep(stopping?: AbortSignal): Promise<number> {
    return workThroughDue(
      { db: this.db, logger: this.logger, afterCommit: this.afterCommit },
      {
        rows: dueRows.expiry,
        idOf: (due: { id: string; workspace_id: string }) => due.id,
        act: (tx, due) => this.requests.expireLocked(tx, due.workspace_id, due.id),
        logField: "signatureRequestId",
        failure: "could not expire a request; the others go on",
      },
      stopping,
    );
  }
}
