import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import type { BusMessage } from "../src/event-bus.js";
import { busConsumerRestarts, NatsEventBus } from "../src/event-bus-nats.js";

async function restartCount(): Promise<number> {
  return (await busConsumerRestarts.get()).values.reduce((sum, v) => sum + v.value, 0);
}

import { available, NATS_URL, uniqueName } from "./infra.js";

const nats = await available("NATS", NATS_URL);
const data = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

(nats ? describe : describe.skip)("NATS JetStream event bus", () => {
  let bus: NatsEventBus;

  beforeAll(async () => {
    bus = await NatsEventBus.connect({ url: NATS_URL, namespace: uniqueName("kit"), name: "kit-test" });
  });
  afterAll(() => bus.destroy());

  test("a message published twice with one id reaches the consumer once", async () => {
    const got: string[] = [];
    const stop = await bus.consume("dedup.x", "dedup", async (m) => void got.push(text(m.data)));
    await bus.publish("dedup.x", data("first"), { msgId: "same-id" });
    await bus.publish("dedup.x", data("second"), { msgId: "same-id" });
    await bus.publish("dedup.x", data("third"), { msgId: "other-id" });
    await until(() => got.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    await stop();
    expect(got).toEqual(["first", "third"]);
  });

  test("a handler that fails gets the message again", async () => {
    const deliveries: BusMessage[] = [];
    const stop = await bus.consume("retry.x", "retry", async (m) => {
      deliveries.push(m);
      if (m.deliveryCount === 1) throw new Error("try again");
    });
    await bus.publish("retry.x", data("payload"));
    await until(() => deliveries.length >= 2);
    await stop();
    expect(deliveries.map((d) => d.deliveryCount)).toEqual([1, 2]);
    expect(deliveries[1]?.subject).toBe("retry.x");
  });

  test("events published while no consumer runs wait in the stream for the durable consumer", async () => {
    const first = await bus.consume("durable.x", "durable", async () => {});
    await first();
    await bus.publish("durable.x", data("while away"));
    const got: string[] = [];
    const stop = await bus.consume("durable.x", "durable", async (m) => void got.push(text(m.data)));
    await until(() => got.length === 1);
    await stop();
    expect(got).toEqual(["while away"]);
  });

  test("a consumer whose stream ends (its durable deleted on the server) starts again and keeps receiving", async () => {
    const namespace = uniqueName("kit");
    const restarted = await NatsEventBus.connect({
      url: NATS_URL,
      namespace,
      name: "kit-restart-test",
      resubscribeDelayMs: 100,
    });
    const nc = await connect({ servers: NATS_URL });
    const manager = await jetstreamManager(nc);
    try {
      const got: string[] = [];
      const stop = await restarted.consume("restart.x", "restart", async (m) => void got.push(text(m.data)));
      await restarted.publish("restart.x", data("before"), { msgId: "before" });
      await until(() => got.includes("before"));
      const restartsBefore = await restartCount();
      const stream = `${namespace.replace(/[^A-Za-z0-9_-]/g, "_")}_events`;
      for (const consumer of await manager.consumers.list(stream).next()) {
        await manager.consumers.delete(stream, consumer.name);
      }
      await until(async () => (await restartCount()) > restartsBefore);
      await restarted.publish("restart.x", data("after"), { msgId: "after" });
      await until(() => got.includes("after"));
      await stop();
    } finally {
      await nc.close();
      await restarted.destroy();
    }
  });

  test("every listener gets every message", async () => {
    const a: string[] = [];
    const b: string[] = [];
    const stopA = await bus.listen("fanout.>", (m) => a.push(text(m.data)));
    const stopB = await bus.listen("fanout.>", (m) => b.push(text(m.data)));
    await bus.ping();
    await bus.publish("fanout.one", data("hello"));
    await until(() => a.length === 1 && b.length === 1);
    await stopA();
    await stopB();
    expect([a, b]).toEqual([["hello"], ["hello"]]);
  });
});
