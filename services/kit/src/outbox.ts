/**
 * The transactional outbox. A service writes its event with `enqueueEvent` in the transaction that
 * changes its state; the relay publishes committed rows to the bus, with the row id as the message
 * id, and deletes them once the bus has them. If the bus is down, rows wait and go out when it is
 * back, de-duplicated by id. Several replicas may relay together: a claim gives each row to one.
 */
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
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
}

export class OutboxRelay {
  private readonly loop: DrainLoop;
  private failures = 0;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.loop = new DrainLoop(() => this.drain(), options.pollIntervalMs ?? 1000);
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

  private async drain(): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    let unpublished: string[] = [];
    try {
      for (;;) {
        // The claim is one statement and publishing happens outside any transaction: the
        // in-process bus runs consumers during publish, and they may need the same database.
        const { rows } = await this.db.query<{ id: string; subject: string; payload: Uint8Array }>(
          `UPDATE outbox SET claimed_until = now() + interval '30 seconds'
           WHERE id IN (SELECT id FROM outbox WHERE claimed_until < now() ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id, subject, payload`,
          [batchSize],
        );
        rows.sort((a, b) => (a.id < b.id ? -1 : 1));
        unpublished = rows.map((row) => row.id);
        for (const row of rows) {
          await this.bus.publish(row.subject, row.payload, { msgId: row.id });
          await this.db.query("DELETE FROM outbox WHERE id = $1", [row.id]);
          unpublished.shift();
        }
        if (this.failures > 0)
          this.logger.info({ afterFailures: this.failures }, "outbox relay publishing again");
        this.failures = 0;
        if (rows.length < batchSize) return;
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
}
