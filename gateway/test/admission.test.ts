/**
 * Admission under overload: requests beyond the concurrent limit wait in arrival order, and past the
 * queue's bound or its longest wait they are refused at once with 503 and Retry-After. Probes are
 * never held back.
 */
import { createLogger } from "@countersign/kit";
import express from "express";
import { Registry } from "prom-client";
import { listen } from "../src/http-server.js";
import { AdmissionGate, type AdmissionLimits, admission } from "../src/middleware/admission.js";
import { problemHandler } from "../src/middleware/errors.js";

describe("AdmissionGate", () => {
  const limits: AdmissionLimits = { concurrent: 2, queued: 2, maxWaitMs: 10_000 };

  test("past the concurrent limit requests wait, and are let in in the order they came", () => {
    const gate = new AdmissionGate(limits);
    const order: string[] = [];
    const refused: string[] = [];
    for (const name of ["a", "b", "c", "d", "e"]) {
      gate.enter(
        () => order.push(name),
        () => refused.push(name),
      );
    }
    expect(order).toEqual(["a", "b"]);
    expect([gate.active, gate.queued]).toEqual([2, 2]);
    // The queue holds two: the fifth is refused at once.
    expect(refused).toEqual(["e"]);
    gate.leave();
    expect(order).toEqual(["a", "b", "c"]);
    gate.leave();
    gate.leave();
    gate.leave();
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a request that waited too long is refused, and one whose client left leaves the queue", async () => {
    const gate = new AdmissionGate({ concurrent: 1, queued: 5, maxWaitMs: 50 });
    const events: string[] = [];
    gate.enter(
      () => events.push("first in"),
      () => {},
    );
    gate.enter(
      () => events.push("patient in"),
      (reason) => events.push(`patient refused: ${reason}`),
    );
    const cancel = gate.enter(
      () => events.push("gone in"),
      () => events.push("gone refused"),
    );
    cancel();
    expect(gate.queued).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(events).toEqual(["first in", "patient refused: the request waited too long for a free place"]);
    gate.leave();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });
});

test("over HTTP: a full gateway answers 503 with Retry-After at once, serves probes, then the waiting in order", async () => {
  const metrics = new Registry();
  const app = express();
  const holds: (() => void)[] = [];
  app.use(admission({ concurrent: 1, queued: 1, maxWaitMs: 10_000 }, metrics));
  app.get("/work/:name", async (req, res) => {
    await new Promise<void>((resolve) => holds.push(resolve));
    res.json({ served: req.params.name });
  });
  app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
  app.use(problemHandler(createLogger({ name: "gateway", level: "silent" })));
  const server = await listen(0, "127.0.0.1");
  server.serve(app);
  try {
    const first = fetch(`${server.url}/work/first`);
    await until(() => holds.length === 1);
    const second = fetch(`${server.url}/work/second`);
    await until(
      async () =>
        (await metrics.getSingleMetric("http_server_requests_queued")?.get())?.values[0]?.value === 1,
    );

    const refused = await fetch(`${server.url}/work/third`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toMatchObject({ code: "unavailable", status: 503 });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    holds.shift()?.();
    expect(await (await first).json()).toEqual({ served: "first" });
    await until(() => holds.length === 1);
    holds.shift()?.();
    expect(await (await second).json()).toEqual({ served: "second" });
    expect(await metrics.getSingleMetricAsString("http_server_requests_shed_total")).toContain(
      "http_server_requests_shed_total 1",
    );
  } finally {
    for (const release of holds) release();
    await server.close();
  }
});

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("condition not reached");
}
