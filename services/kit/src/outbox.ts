/**
 * The transactional outbox. A service writes its event with `enqueueEvent` in the transaction that
 * changes its state; the relay publishes committed rows to the bus, with the row id as the message
 * id, and deletes them once the bus has them. If the bus is down, rows wait and go out when it is
 * back, de-duplicated by id. Several replicas may relay together: a claim gives each row to one.
 * An event that fails while the bus answers is retried with backoff and, after `maxAttempts`,
 * parked in outbox_parked (an error log line, a metric) so that it cannot hold up the rest.
 */
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { Counter } from "prom-client";
import type { Database, Queryable } from "./database.js";
import { DrainLoop } from "./drain-loop.js";
import type { EventBus } from "./event-bus.js";
import { uuidv7 } from "./ids.js";
import type { Logger } from "./logger.js";

export async function enqueueEvent<Desc extends DescMessage>(
  tx: Queryable,
  subject: string,
  schema: Desc,
  message: MessageShape<Desc>,
): Promise<string> {
  const id = uuidv7();
  await tx.query("INSERT INTO outbox (id, subject, payload) VALUES ($1, $2, $3)", [
    id,
    subject,
    toBinary(schema, message),
  ]);
  return id;
}

export interface OutboxRelayOptions {
  /** How often to look for rows nobody kicked the relay for (e.g. written by a crashed replica). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Failed publishes of one event (with the bus answering) before it is parked. */
  maxAttempts?: number;
  /** The wait before attempt n + 1 of an event that failed. */
  retryDelayMs?: (attempts: number) => number;
  /**
   * This relay is the only one on its database (standalone, whose data dir is locked): claims a
   * killed process left are released at start instead of running out their lease.
   */
  onlyReplica?: boolean;
}

/** Events parked by every relay of this process, by subject (Prometheus). */
export const outboxEventsParked = new Counter({
  name: "outbox_events_parked_total",
  help: "Events the outbox gave up publishing after repeated failures, by subject.",
  labelNames: ["subject"],
  registers: [],
});

interface OutboxRow {
  id: string;
  subject: string;
  payload: Uint8Array;
  /** Failed attempts before this claim. */
  attempts: number;
}

export class OutboxRelay {
  private readonly loop: DrainLoop;
  private failures = 0;
  private claimsReleased = false;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.loop = new DrainLoop((stopping) => this.drain(stopping), options.pollIntervalMs ?? 1000, {
      work: "outbox relay",
      logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Publishes what is waiting now; services call it right after a commit that wrote events. */
  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(stopping: AbortSignal): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    let unpublished: string[] = [];
    try {
      if (this.options.onlyReplica && !this.claimsReleased) {
        await this.db.query(
          "UPDATE outbox SET claimed_until = '-infinity' WHERE claimed_until > now() AND attempts = 0",
        );
        this.claimsReleased = true;
      }
      for (;;) {
        // The claim is one statement and publishing happens outside any transaction: the
        // in-process bus runs consumers during publish, and they may need the same database.
        const { rows } = await this.db.query<OutboxRow>(
          `UPDATE outbox SET claimed_until = now() + interval '30 seconds'
           WHERE id IN (SELECT id FROM outbox WHERE claimed_until < now() ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id, subject, payload, attempts`,
          [batchSize],
        );
        rows.sort((a, b) => (a.id < b.id ? -1 : 1));
        unpublished = rows.map((row) => row.id);
        // All at once: JetStream acknowledges each publish, and one at a time every event waited
        // for the round trip of the one before. Published rows go in one statement.
        const outcomes = await Promise.allSettled(
          rows.map((row) => this.bus.publish(row.subject, row.payload, { msgId: row.id })),
        );
        const published = rows.filter((_, i) => outcomes[i]?.status === "fulfilled").map((row) => row.id);
        if (published.length > 0)
          await this.db.query("DELETE FROM outbox WHERE id = ANY($1::uuid[])", [published]);
        const sent = new Set(published);
        unpublished = unpublished.filter((id) => !sent.has(id));
        const refusals = rows.flatMap((row, i) => {
          const outcome = outcomes[i];
          return outcome?.status === "rejected" ? [{ row, err: outcome.reason as unknown }] : [];
        });
        if (refusals.length > 0) {
          // A bus that does not answer is an outage: everything waits. One that answers refused
          // these events: they are retried later, and the rest went on.
          const answers = await this.bus.ping().then(
            () => true,
            () => false,
          );
          if (!answers) throw refusals[0]?.err;
          for (const { row, err } of refusals) await this.failed(row, err);
        }
        unpublished = [];
        if (this.failures > 0)
          this.logger.info({ afterFailures: this.failures }, "outbox relay publishing again");
        this.failures = 0;
        if (rows.length < batchSize || stopping.aborted) return;
      }
    } catch (err) {
      this.failures += 1;
      // One line per outage, not one per poll.
      if (this.failures === 1)
        this.logger.warn({ err }, "outbox relay cannot publish; events wait in the outbox");
      // What this relay claimed but did not publish is released for the next attempt.
      await this.db
        .query("UPDATE outbox SET claimed_until = '-infinity' WHERE id = ANY($1::uuid[])", [unpublished])
        .catch(() => {});
    }
  }

  /** Counts a failed attempt at one event: retried after a backoff, or parked after too many. */
  private async failed(row: OutboxRow, err: unknown): Promise<void> {
    const lastError = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    const maxAttempts = this.options.maxAttempts ?? 10;
    const delay = this.options.retryDelayMs ?? ((n: number) => Math.min(1000 * 2 ** (n - 1), 300_000));
    const attempts = row.attempts + 1;
    if (attempts < maxAttempts) {
      await this.db.query(
        `UPDATE outbox SET attempts = $2, last_error = $3, claimed_until = now() + $4 * interval '1 millisecond'
          WHERE id = $1`,
        [row.id, attempts, lastError, delay(attempts)],
      );
      this.logger.warn(
        { err, eventId: row.id, subject: row.subject, attempts },
        "event not published; retrying later",
      );
      return;
    }
    // One statement: the row moves to outbox_parked, or stays where it is.
    await this.db.query(
      `WITH moved AS (DELETE FROM outbox WHERE id = $1 RETURNING id, subject, payload, created_at)
       INSERT INTO outbox_parked (id, subject, payload, created_at, attempts, last_error)
       SELECT id, subject, payload, created_at, $2, $3 FROM moved
       ON CONFLICT (id) DO NOTHING`,
      [row.id, attempts, lastError],
    );
    outboxEventsParked.inc({ subject: row.subject });
    this.logger.error(
      { err, eventId: row.id, subject: row.subject, attempts },
      "event parked after repeated failures; the events after it go on (table outbox_parked)",
    );
  }
}
