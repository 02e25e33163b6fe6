/**
 * Writes attempts and what they mean for their messages and endpoints, many in one transaction
 * (group commit), so the database sees a few statements per batch instead of a transaction per
 * delivery. Endpoints are locked in id order, so two replicas' batches cannot deadlock, and only
 * when a streak starts, ends or disables one: healthy endpoints are never locked.
 */
import type { Database, Logger, Queryable } from "@countersign/kit";
import { GroupCommit } from "../group-commit.js";
import { type AttemptRow, store } from "../store.js";

export interface AttemptResult {
  attempt: AttemptRow;
  endpointId: string;
  /** The claim the attempt was made under; a result from a claim that ran out changes no message. */
  claimId: string;
  /** `pending` schedules the next attempt after `nextDelayMs`; the others end the round. */
  messageStatus: "succeeded" | "failed" | "pending";
  nextDelayMs?: number;
  /** False when the failure was ours (a secret we cannot open), not the endpoint's. */
  countsAgainstEndpoint: boolean;
}

/** What a batch does to an endpoint: disable it, or set (a Date) or clear (null) its failing streak. */
type EndpointChange = { id: string; disable: string } | { id: string; streak: Date | null };

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

  /** Resolves once the result is committed; rejects when it could not be written. */
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
        claimId: r.claimId,
        status: r.messageStatus,
        nextDelayMs: r.nextDelayMs ?? 0,
      })),
    );
    await this.updateEndpoints(tx, results);
  }

  /** Failing streaks and disabling: a 2xx ends a streak, a failure starts one, 410 or a long streak disables. */
  private async updateEndpoints(tx: Queryable, results: AttemptResult[]): Promise<void> {
    const counted = results.filter((r) => r.attempt.succeeded || r.countsAgainstEndpoint);
    const working = new Set(counted.filter((r) => r.attempt.succeeded).map((r) => r.endpointId));
    const lastFailure = new Map<string, Date>();
    for (const r of counted) if (!r.attempt.succeeded) lastFailure.set(r.endpointId, r.attempt.attempted_at);
    const gone = new Map<string, Date>();
    for (const r of results)
      if (r.attempt.status_code === 410) gone.set(r.endpointId, r.attempt.attempted_at);

    const changes = (streaks: { id: string; failing_since: Date | null }[]): EndpointChange[] =>
      streaks.flatMap(({ id, failing_since }): EndpointChange[] => {
        const goneAt = gone.get(id);
        if (goneAt) return [{ id, disable: `the endpoint answered 410 Gone at ${goneAt.toISOString()}` }];
        if (working.has(id)) return failing_since ? [{ id, streak: null }] : [];
        const failedAt = lastFailure.get(id);
        if (!failedAt) return [];
        if (!failing_since) return [{ id, streak: failedAt }];
        return failedAt.getTime() - failing_since.getTime() >= this.disableAfterMs
          ? [{ id, disable: `every delivery has failed since ${failing_since.toISOString()}` }]
          : [];
      });
    const touched = [...new Set([...working, ...lastFailure.keys(), ...gone.keys()])];
    // Read first without a lock; lock (in id order) and read again only what needs changing.
    const wanted = changes(await store.streaks(tx, touched));
    if (wanted.length === 0) return;
    const locked = await store.lockEndpoints(
      tx,
      wanted.map((c) => c.id),
    );
    for (const change of changes(locked)) {
      if ("disable" in change) {
        await store.disableEndpoint(tx, change.id, change.disable);
        this.logger.warn({ endpointId: change.id, reason: change.disable }, "webhook endpoint disabled");
      } else {
        await store.setStreak(tx, change.id, change.streak);
      }
    }
  }
}
