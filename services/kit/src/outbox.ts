/**
 * The transactional outbox. A service writes its event with `enqueueEvent` in the transaction that
 * changes its state; the relay publishes committed rows to the bus, with the row id as the message
 * id, and deletes them once the bus has them. If the bus is down, rows wait and go out when it is
 * back, de-duplicated by id. The outbox is a job queue (job-queue.ts): several replicas may relay
 * together, and an event that fails while the bus answers is retried with backoff and, after
 * `maxAttempts`, parked (parked_at, an error log line, a metric) so that it cannot hold up the rest.
 */
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import type { Database, Queryable } from "./database.js";
import type { EventBus } from "./event-bus.js";
import { uuidv7 } from "./ids.js";
import { exponentialBackoff, type JobOutcome, JobQueue } from "./job-queue.js";
import type { Logger } from "./logger.js";
import { contextFrom, currentTraceparent, inSpan, SpanKind } from "./tracing.js";

export async function enqueueEvent<Desc extends DescMessage>(
  tx: Queryable,
  subject: string,
  schema: Desc,
  message: MessageShape<Desc>,
): Promise<string> {
  const id = uuidv7();
  await tx.query("INSERT INTO outbox (id, subject, payload, traceparent) VALUES ($1, $2, $3, $4)", [
    id,
    subject,
    toBinary(schema, message),
    currentTraceparent(),
  ]);
  return id;
}

export interface OutboxRelayOptions {
  /** The queue's name in logs and metrics: the service's, "auth outbox". */
  name?: string;
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

interface OutboxRow {
  id: string;
  subject: string;
  payload: Uint8Array;
  traceparent: string | null;
  attempts: number;
}

export class OutboxRelay extends JobQueue<OutboxRow> {
  /** Drains in a row that found the bus away. */
  private outage = 0;

  constructor(
    db: Database,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    super({
      name: options.name ?? "outbox",
      db,
      logger,
      table: {
        name: "outbox",
        key: "id",
        columns: ["subject", "payload", "traceparent"],
        deleteWhenDone: true,
      },
      leaseSeconds: 30,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      batchSize: options.batchSize ?? 100,
      maxAttempts: options.maxAttempts ?? 10,
      backoff: options.retryDelayMs ?? exponentialBackoff(1000, 300_000),
      onlyReplica: options.onlyReplica,
      describe: (row) => ({ eventId: row.id, subject: row.subject }),
      // Publishing happens outside any transaction: the in-process bus runs consumers during
      // publish, and they may need the same database.
      runBatch: (rows) => this.publish(rows),
    });
  }

  /**
   * All at once: JetStream acknowledges each publish, and one at a time every event waited for the
   * round trip of the one before; the published rows are deleted in one statement.
   */
  private async publish(rows: readonly OutboxRow[]): Promise<JobOutcome[]> {
    const outcomes = await Promise.allSettled(
      rows.map((row) =>
        // A traced event is published in a span of the trace it was written in, whose context the
        // message carries to its consumers.
        inSpan(
          `publish ${row.subject}`,
          {
            kind: SpanKind.PRODUCER,
            parent: contextFrom(row.traceparent),
            onlyInTrace: true,
            attributes: {
              "messaging.system": "nats",
              "messaging.operation.type": "send",
              "messaging.destination.name": row.subject,
              "messaging.message.id": row.id,
            },
          },
          () =>
            this.bus.publish(row.subject, row.payload, {
              msgId: row.id,
              traceparent: currentTraceparent() ?? undefined,
            }),
        ),
      ),
    );
    const refused = outcomes.some((outcome) => outcome.status === "rejected");
    // A bus that does not answer is an outage: everything waits, uncounted. One that answers
    // refused these events: they are retried later, and the rest went on.
    if (
      refused &&
      !(await this.bus.ping().then(
        () => true,
        () => false,
      ))
    ) {
      this.outage += 1;
      // One line per outage, not one per poll.
      if (this.outage === 1) this.logger.warn("outbox relay cannot publish; events wait in the outbox");
      return outcomes.map((outcome) =>
        outcome.status === "fulfilled" ? { kind: "done" } : { kind: "released" },
      );
    }
    if (this.outage > 0) this.logger.info({ afterFailures: this.outage }, "outbox relay publishing again");
    this.outage = 0;
    return outcomes.map((outcome) =>
      outcome.status === "fulfilled" ? { kind: "done" } : { kind: "failed", error: outcome.reason },
    );
  }
}
