/**
 * Writes attempts and what they mean for their messages and endpoints, many in one transaction
 * (group commit), so the database sees a few statements per batch instead of a transaction per
 * delivery.
 */
import type { Database, Logger, Queryable } from "@countersign/kit";
import { GroupCommit } from "../group-commit.js";
import { type AttemptRow, store } from "../store.js";

export interface AttemptResult {
  attempt: AttemptRow;
  endpointId: string;
  /** `pending` schedules the next attempt after `nextDelayMs`; the others end the round. */
  messageStatus: "succeeded" | "failed" | "pending";
  nextDelayMs?: number;
}

export class AttemptLog {
  private readonly batches: GroupCommit<AttemptResult>;

  constructor(
    db: Database,
    private readonly logger: Logger,
    /** Continuous failure after which an endpoint is disabled. */
    private readonly disableAfterMs: number,
  ) {
    this.batches = new GroupCommit((results) => db.transaction((tx) => this.write(tx, results)));
  }

  /** Resolves once the result is committed; rejects when its batch could not be written. */
  add(result: AttemptResult): Promise<void> {
    return this.batches.add(result);
  }

  private async write(tx: Queryable, results: AttemptResult[]): Promise<void> {
    await store.insertAttempts(
      tx,
      results.map((r) => r.attempt),
    );
    await store.afterAttempts(
      tx,
      results.map((r) => ({
        id: r.attempt.message_id,
        status: r.messageStatus,
        nextDelayMs: r.nextDelayMs ?? 0,
      })),
    );
    // An endpoint that answered 2xx in this batch is working, whatever else failed in it.
    const working = new Set(results.filter((r) => r.attempt.succeeded).map((r) => r.endpointId));
    await store.endpointsSucceeded(tx, [...working]);
    const failing = new Map<string, AttemptResult>();
    for (const r of results)
      if (!r.attempt.succeeded && !working.has(r.endpointId)) failing.set(r.endpointId, r);
    for (const [endpointId, last] of failing) {
      const at = last.attempt.attempted_at;
      const failingSince = await store.endpointFailed(tx, endpointId, at);
      const gone = results.some((r) => r.endpointId === endpointId && r.attempt.status_code === 410);
      const reason = gone
        ? `the endpoint answered 410 Gone at ${at.toISOString()}`
        : failingSince && at.getTime() - failingSince.getTime() >= this.disableAfterMs
          ? `every delivery has failed since ${failingSince.toISOString()}`
          : undefined;
      if (reason) {
        await store.disableEndpoint(tx, endpointId, reason);
        this.logger.warn({ endpointId, reason }, "webhook endpoint disabled");
      }
    }
  }
}
