import { redeliveryDelayMs, subjectMatches } from "../src/event-bus.js";
import { MemoryEventBus } from "../src/event-bus-memory.js";

const data = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

test("subjects match NATS-style: * is one token, a final > one or more", () => {
  expect(subjectMatches("auth.api_key_deleted", "auth.api_key_deleted")).toBe(true);
  expect(subjectMatches("auth.*", "auth.api_key_deleted")).toBe(true);
  expect(subjectMatches("auth.*", "auth.a.b")).toBe(false);
  expect(subjectMatches("auth.>", "auth.a.b")).toBe(true);
  expect(subjectMatches("auth.>", "auth")).toBe(false);
  expect(subjectMatches("auth.x", "auth.y")).toBe(false);
});

test("redelivery waits double each time, up to five minutes", () => {
  expect([1, 2, 3, 20].map(redeliveryDelayMs)).toEqual([1000, 2000, 4000, 300_000]);
});

test("members of one consumer share its messages; each listener gets every message", async () => {
  const bus = new MemoryEventBus();
  const memberA: string[] = [];
  const memberB: string[] = [];
  const listener: string[] = [];
  await bus.consume("x.>", "workers", async (m) => void memberA.push(text(m.data)));
  await bus.consume("x.>", "workers", async (m) => void memberB.push(text(m.data)));
  await bus.listen("x.>", (m) => listener.push(text(m.data)));
  for (const n of ["1", "2", "3", "4"]) await bus.publish("x.y", data(n));
  expect([...memberA, ...memberB].sort()).toEqual(["1", "2", "3", "4"]);
  expect(memberA.length).toBe(2);
  expect(listener).toEqual(["1", "2", "3", "4"]);
});

test("a message id seen before is dropped", async () => {
  const bus = new MemoryEventBus();
  const got: string[] = [];
  await bus.consume("x", "c", async (m) => void got.push(text(m.data)));
  await bus.publish("x", data("once"), { msgId: "m1" });
  await bus.publish("x", data("twice"), { msgId: "m1" });
  await bus.publish("x", data("other"), { msgId: "m2" });
  expect(got).toEqual(["once", "other"]);
});

const quickRetries = { retryDelayMs: () => 1 };

test("a failing handler gets the message again, with its delivery count", async () => {
  const bus = new MemoryEventBus(quickRetries);
  const counts: number[] = [];
  await bus.consume("x", "c", async (m) => {
    counts.push(m.deliveryCount);
    if (m.deliveryCount < 2) throw new Error("not yet");
  });
  await bus.publish("x", data("retry me"));
  expect(counts).toEqual([1, 2]);
});

test("publish fails while a consumer keeps failing, and the same id goes through once it recovers", async () => {
  const bus = new MemoryEventBus({ ...quickRetries, maxAttempts: 3 });
  let healthy = false;
  const handled: string[] = [];
  await bus.consume("x", "c", async (m) => {
    if (!healthy) throw new Error("always");
    handled.push(text(m.data));
  });
  await expect(bus.publish("x", data("stuck"), { msgId: "m" })).rejects.toThrow("always");
  healthy = true;
  await bus.publish("x", data("stuck"), { msgId: "m" });
  expect(handled).toEqual(["stuck"]);
});

test("a durable consumer that appears later receives what was published before it, as JetStream's would", async () => {
  const bus = new MemoryEventBus();
  await bus.publish("x.a", data("early"));
  await bus.publish("y.a", data("other subject"));
  const got: string[] = [];
  await bus.consume("x.>", "late", async (m) => void got.push(text(m.data)));
  await bus.publish("x.b", data("after"));
  await new Promise((r) => setTimeout(r, 10));
  expect(got.sort()).toEqual(["after", "early"]);
});

test("what arrives while a consumer has no member waits for the next member", async () => {
  const bus = new MemoryEventBus();
  const first: string[] = [];
  const leave = await bus.consume("x", "c", async (m) => void first.push(text(m.data)));
  await bus.publish("x", data("one"));
  await leave();
  await bus.publish("x", data("while away"));
  const second: string[] = [];
  await bus.consume("x", "c", async (m) => void second.push(text(m.data)));
  await new Promise((r) => setTimeout(r, 10));
  expect([first, second]).toEqual([["one"], ["while away"]]);
});

test("the bus keeps a bounded number of messages", async () => {
  const bus = new MemoryEventBus({ retention: { messages: 2, ms: 60_000 } });
  for (const n of ["1", "2", "3"]) await bus.publish("x", data(n));
  const got: string[] = [];
  await bus.consume("x", "late", async (m) => void got.push(text(m.data)));
  await new Promise((r) => setTimeout(r, 10));
  expect(got).toEqual(["2", "3"]);
});
