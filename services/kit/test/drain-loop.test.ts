import { Writable } from "node:stream";
import { DrainLoop, drainFailures } from "../src/drain-loop.js";
import { createLogger } from "../src/logger.js";

const quiet = { work: "test", logger: createLogger({ name: "test", level: "silent" }) };

/** A logger whose lines the test reads back. */
function capturedLog() {
  const lines: { level?: number; work?: string; msg?: string }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: "test", destination }) };
}

test("kicks during a drain are coalesced into one more drain, and drains never overlap", async () => {
  let running = 0;
  let overlapped = false;
  let drains = 0;
  let release: () => void = () => {};
  const loop = new DrainLoop(
    async () => {
      running += 1;
      overlapped ||= running > 1;
      drains += 1;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      running -= 1;
    },
    60_000,
    quiet,
  );
  loop.start();
  for (let i = 0; i < 5; i++) loop.kick();
  release();
  await new Promise((r) => setTimeout(r, 10));
  release();
  await loop.idle();
  expect([drains, overlapped]).toEqual([2, false]);
  await loop.stop();
});

test("the timer drains again without a kick, and nothing runs after stop", async () => {
  let drains = 0;
  const loop = new DrainLoop(
    async () => {
      drains += 1;
    },
    20,
    quiet,
  );
  loop.start();
  await new Promise((r) => setTimeout(r, 110));
  await loop.stop();
  const stoppedAt = drains;
  expect(stoppedAt).toBeGreaterThanOrEqual(3);
  loop.kick();
  await new Promise((r) => setTimeout(r, 60));
  expect(drains).toBe(stoppedAt);
});

test("a drain that throws is logged and counted under its work, and the loop drains again", async () => {
  const { lines, logger } = capturedLog();
  const before = (await drainFailures.get()).values.find((v) => v.labels.work === "flaky")?.value ?? 0;
  let drains = 0;
  const loop = new DrainLoop(
    async () => {
      drains += 1;
      if (drains === 1) throw new Error("a bug in the drain");
    },
    20,
    { work: "flaky", logger },
  );
  loop.start();
  await new Promise((r) => setTimeout(r, 80));
  await loop.stop();
  expect(drains).toBeGreaterThan(1);
  expect(lines.filter((line) => line.work === "flaky")).toHaveLength(1);
  const after = (await drainFailures.get()).values.find((v) => v.labels.work === "flaky")?.value;
  expect(after).toBe(before + 1);
});

test("a drain cut short by a dependency's outage (a terminated database connection) is a warning, not a failure", async () => {
  const { lines, logger } = capturedLog();
  const before = (await drainFailures.get()).values.find((v) => v.labels.work === "outage")?.value ?? 0;
  let drains = 0;
  const loop = new DrainLoop(
    async () => {
      drains += 1;
      if (drains === 1) {
        throw Object.assign(new Error("terminating connection due to administrator command"), {
          code: "57P01",
        });
      }
    },
    20,
    { work: "outage", logger },
  );
  loop.start();
  await new Promise((r) => setTimeout(r, 80));
  await loop.stop();
  expect(drains).toBeGreaterThan(1);
  expect(lines.filter((line) => line.work === "outage").map((line) => line.level)).toEqual([40]);
  const after = (await drainFailures.get()).values.find((v) => v.labels.work === "outage")?.value ?? 0;
  expect(after).toBe(before);
});

test("stopping tells a running drain to stop between items, and waits only for the item in hand", async () => {
  const handled: number[] = [];
  let firstItem: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    firstItem = resolve;
  });
  const loop = new DrainLoop(
    async (stopping) => {
      for (let item = 0; item < 1000 && !stopping.aborted; item++) {
        if (item === 0) firstItem();
        await new Promise((r) => setTimeout(r, 5));
        handled.push(item);
      }
    },
    60_000,
    quiet,
  );
  loop.start();
  await started;
  await loop.stop();
  expect(handled).toEqual([0]);
});
