import { create, fromBinary } from "@bufbuild/protobuf";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import type { Database } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import type { BusMessage, PublishOptions } from "../src/event-bus.js";
import { MemoryEventBus } from "../src/event-bus-memory.js";
import { backgroundJobAttempts } from "../src/job-queue.js";
import { createLogger } from "../src/logger.js";
import { migrate, outboxTrack } from "../src/migrations.js";
import { enqueueEvent, OutboxRelay } from "../src/outbox.js";

/** The in-process bus behind a switch that makes publishing fail, as a NATS outage would. */
class FlakyBus extends MemoryEventBus {
  down = false;
  override async publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void> {
    if (this.down) throw new Error("connection refused");
    return super.publish(subject, data, options);
  }

  override async ping(): Promise<void> {
    if (this.down) throw new Error("connection refused");
  }
}

let embedded: EmbeddedPostgres;
let db: Database;
let bus: FlakyBus;
let relay: OutboxRelay;
let received: BusMessage[];
const logger = createLogger({ name: "outbox-test", level: "silent" });

beforeEach(async () => {
  embedded = await EmbeddedPostgres.open();
  db = embedded.database("svc");
  await migrate(db, [outboxTrack]);
  bus = new FlakyBus();
  received = [];
  await bus.consume("auth.>", "test", async (msg) => {
    received.push(msg);
  });
  relay = new OutboxRelay(db, bus, logger, { pollIntervalMs: 20 });
});

afterEach(async () => {
  await relay.stop();
  await embedded.close();
});

async function writeEvents(count: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await enqueueEvent(
        tx,
        "auth.api_key_deleted",
        ApiKeyDeletedSchema,
        create(ApiKeyDeletedSchema, { keyId: `k${i}` }),
      );
    }
  });
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

test("committed events are published in order and removed from the outbox", async () => {
  await writeEvents(3);
  relay.start();
  await until(() => received.length === 3);
  expect(received.map((m) => fromBinary(ApiKeyDeletedSchema, m.data).keyId)).toEqual(["k0", "k1", "k2"]);
  await until(() => true);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 0 }]);
});

test("a backlog is published all at once and removed from the outbox in one statement", async () => {
  const statements: string[] = [];
  const counted: Database = {
    ...db,
    query: (sql, params) => {
      statements.push(sql);
      return db.query(sql, params);
    },
  };
  await relay.stop();
  relay = new OutboxRelay(counted, bus, logger, { pollIntervalMs: 60_000 });
  await writeEvents(50);
  relay.start();
  await until(() => received.length === 50);
  await until(() => statements.some((sql) => sql.startsWith("DELETE")));
  expect(statements.filter((sql) => sql.startsWith("DELETE"))).toHaveLength(1);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 0 }]);
});

test("events of a rolled-back transaction are never published", async () => {
  await db
    .transaction(async (tx) => {
      await enqueueEvent(
        tx,
        "auth.api_key_deleted",
        ApiKeyDeletedSchema,
        create(ApiKeyDeletedSchema, { keyId: "ghost" }),
      );
      throw new Error("rollback");
    })
    .catch(() => {});
  relay.start();
  await new Promise((r) => setTimeout(r, 100));
  expect(received).toHaveLength(0);
});

test("with the bus down at commit time, every event still arrives once when it is back", async () => {
  bus.down = true;
  relay.start();
  await writeEvents(5);
  relay.kick();
  await new Promise((r) => setTimeout(r, 150));
  expect(received).toHaveLength(0);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 5 }]);

  bus.down = false;
  await until(() => received.length >= 5);
  await new Promise((r) => setTimeout(r, 100));
  const ids = received.map((m) => fromBinary(ApiKeyDeletedSchema, m.data).keyId);
  expect(ids.sort()).toEqual(["k0", "k1", "k2", "k3", "k4"]);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 0 }]);
});

test("two relays on one outbox publish each event once", async () => {
  const second = new OutboxRelay(db, bus, logger, { pollIntervalMs: 20 });
  await writeEvents(40);
  relay.start();
  second.start();
  await until(() => received.length >= 40);
  await new Promise((r) => setTimeout(r, 100));
  await second.stop();
  expect(received).toHaveLength(40);
});

test("an event the bus keeps refusing is parked after its attempts, and the events after it flow", async () => {
  const picky = new MemoryEventBus({ maxAttempts: 1, retryDelayMs: () => 1 });
  const delivered: string[] = [];
  await picky.consume("auth.>", "picky", async (msg) => {
    const { keyId } = fromBinary(ApiKeyDeletedSchema, msg.data);
    if (keyId === "k0") throw new Error("this consumer cannot take k0");
    delivered.push(keyId);
  });
  const parking = new OutboxRelay(db, picky, logger, {
    pollIntervalMs: 20,
    maxAttempts: 3,
    retryDelayMs: () => 10,
  });
  const parkedCount = async () =>
    (await backgroundJobAttempts.get()).values.find(
      (v) => v.labels.queue === "outbox" && v.labels.outcome === "parked",
    )?.value ?? 0;
  const parkedBefore = await parkedCount();
  await writeEvents(3);
  parking.start();
  try {
    await until(() => delivered.length === 2);
    expect(delivered).toEqual(["k1", "k2"]);
    const parked = await eventually(async () => {
      const { rows } = await db.query<{ attempts: number; last_error: string }>(
        "SELECT attempts, last_error FROM outbox WHERE parked_at IS NOT NULL",
      );
      return rows.length === 1 ? rows : undefined;
    });
    expect(parked).toEqual([{ attempts: 3, last_error: "this consumer cannot take k0" }]);
    expect((await db.query("SELECT 1 FROM outbox WHERE parked_at IS NULL")).rowCount).toBe(0);
    expect((await parkedCount()) - parkedBefore).toBe(1);
  } finally {
    await parking.stop();
  }
});

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
