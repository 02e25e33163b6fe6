import { create, fromBinary } from "@bufbuild/protobuf";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { type Database, EmbeddedPostgres } from "../src/database.js";
import type { PublishOptions } from "../src/event-bus.js";
import { MemoryEventBus } from "../src/event-bus-memory.js";
import { createLogger } from "../src/logger.js";
import { migrate, outboxTrack } from "../src/migrations.js";
import { enqueueEvent, OutboxRelay } from "../src/outbox.js";
import { eventually, sleep, uniqueName } from "./infra.js";

/** The in-process bus behind a switch that makes publishing fail, as a NATS outage would. */
class FlakyBus extends MemoryEventBus {
  down = false;
  /** Fails the publish after this many more have succeeded (then the bus is down). */
  failAfter = Number.POSITIVE_INFINITY;
  override async publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void> {
    if (this.failAfter-- <= 0) this.down = true;
    if (this.down) throw new Error("connection refused");
    return super.publish(subject, data, options);
  }
}

const logger = createLogger({ name: "outbox-test", level: "silent" });
let embedded: EmbeddedPostgres;
let db: Database;
let bus: FlakyBus;
let received: string[];
const relays: OutboxRelay[] = [];

function relay(pollIntervalMs = 20, batchSize?: number): OutboxRelay {
  const made = new OutboxRelay(db, bus, logger, { pollIntervalMs, ...(batchSize ? { batchSize } : {}) });
  relays.push(made);
  return made;
}

beforeAll(async () => {
  embedded = await EmbeddedPostgres.open();
});
afterAll(() => embedded.close());

beforeEach(async () => {
  // One schema per test: each starts with an empty outbox.
  db = embedded.database(uniqueName("outbox_"));
  await migrate(db, [outboxTrack]);
  bus = new FlakyBus({ retryDelayMs: () => 1 });
  received = [];
  await bus.consume("auth.>", "test", async (msg) => {
    received.push(fromBinary(ApiKeyDeletedSchema, msg.data).keyId);
  });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

/** Writes events k<from>..k<from+count-1> in one transaction. */
async function writeEvents(count: number, from = 0): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = from; i < from + count; i++) {
      await enqueueEvent(tx, "auth.api_key_deleted", ApiKeyDeletedSchema, create(ApiKeyDeletedSchema, { keyId: `k${i}` }));
    }
  });
}

const keys = (count: number) => Array.from({ length: count }, (_, i) => `k${i}`);
const waiting = async () => (await db.query<{ n: number }>("SELECT count(*) AS n FROM outbox")).rows[0]?.n;

test("committed events are published in the order they were written, and their rows deleted", async () => {
  await writeEvents(5);
  relay().start();
  await eventually("the outbox is empty", async () => (await waiting()) === 0);
  expect(received).toEqual(keys(5));
});

test("events of a rolled-back transaction are never published", async () => {
  await db
    .transaction(async (tx) => {
      await enqueueEvent(tx, "auth.api_key_deleted", ApiKeyDeletedSchema, create(ApiKeyDeletedSchema, { keyId: "ghost" }));
      throw new Error("rollback");
    })
    .catch(() => {});
  await writeEvents(1);
  relay().start();
  await eventually("the committed event is out", () => received.length === 1);
  await sleep(60);
  expect(received).toEqual(["k0"]);
});

test("while the bus is down events wait in the outbox; when it is back each arrives exactly once", async () => {
  bus.down = true;
  const r = relay();
  r.start();
  await writeEvents(5);
  r.kick();
  await sleep(150);
  expect(received).toEqual([]);
  expect(await waiting()).toBe(5);

  bus.down = false;
  await eventually("the outbox is empty", async () => (await waiting()) === 0);
  await sleep(60);
  expect(received.sort()).toEqual(keys(5));
});

test("when the bus fails half-way through a batch, the rest follow once it is back, none twice", async () => {
  await writeEvents(10);
  bus.failAfter = 4;
  const r = relay(20, 3);
  r.start();
  await eventually("the first events are out", () => received.length === 4);
  await sleep(100);
  expect(received).toEqual(keys(4));
  expect(await waiting()).toBe(6);

  bus.down = false;
  await eventually("the outbox is empty", async () => (await waiting()) === 0);
  await sleep(60);
  expect(received).toEqual(keys(10));
});

test("kick publishes an event at once, without waiting for the next poll", async () => {
  const r = relay(60_000);
  r.start();
  await sleep(50);
  await writeEvents(1);
  r.kick();
  await eventually("the event is out", () => received.length === 1, 2000);
});

test("the relay polls for events nobody kicked it for", async () => {
  relay(30).start();
  await sleep(50);
  await writeEvents(2);
  await eventually("the events are out", () => received.length === 2, 2000);
});

test("rows another relay has claimed wait until the claim runs out", async () => {
  await writeEvents(2);
  await db.query("UPDATE outbox SET claimed_until = now() + interval '1 hour' WHERE id = (SELECT min(id) FROM outbox)");
  relay().start();
  await eventually("the unclaimed event is out", () => received.length === 1);
  await sleep(100);
  expect(received).toEqual(["k1"]);
  await db.query("UPDATE outbox SET claimed_until = now() - interval '1 second'");
  await eventually("the formerly claimed event is out", () => received.length === 2);
  expect(received).toEqual(["k1", "k0"]);
});

test("two relays on one outbox publish each event once", async () => {
  await writeEvents(40);
  const first = relay(10, 5);
  const second = relay(10, 5);
  first.start();
  second.start();
  await eventually("the outbox is empty", async () => (await waiting()) === 0);
  await sleep(60);
  expect(received.sort()).toEqual(keys(40).sort());
});

test("a stopped relay publishes nothing more", async () => {
  const r = relay(20);
  r.start();
  await r.stop();
  await writeEvents(1);
  r.kick();
  await sleep(100);
  expect(received).toEqual([]);
  expect(await waiting()).toBe(1);
});
