/**
 * The stall watch that the fuzz and hostile-document suites rely on: it finds the process behind a
 * URL and still sees a service that holds its own event loop, but not the time a busy machine ran
 * others instead of it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { listeningProcess, schedulerTimes } from "./support/listening-process.js";
import { watched } from "./support/stall-watch.js";

const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  // Held for this many ms of its own processor time, however long a busy machine makes that.
  const holdMs = Number(new URL(req.url, "http://x").searchParams.get("ms") ?? 0);
  const start = process.cpuUsage();
  for (let used = process.cpuUsage(start); used.user + used.system < holdMs * 1000; used = process.cpuUsage(start));
  res.end("ok");
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let child: ChildProcess;
let base: string;

beforeAll(async () => {
  child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  base = `http://127.0.0.1:${chunk.toString().trim()}`;
});
afterAll(() => child.kill());

test("the process behind a port is the one listening on it, and the scheduler's account of it only grows", () => {
  expect(listeningProcess(Number(new URL(base).port))).toBe(child.pid);
  const before = schedulerTimes(child.pid);
  expect(before).toEqual({ ranMs: expect.any(Number), queuedMs: expect.any(Number) });
  const after = schedulerTimes(child.pid);
  expect(after?.ranMs).toBeGreaterThanOrEqual(before?.ranMs ?? Infinity);
  expect(after?.queuedMs).toBeGreaterThanOrEqual(before?.queuedMs ?? Infinity);
});

test("a port nobody listens on is an error, not a watch that measures nothing", async () => {
  const probe = spawn(process.execPath, [
    "-e",
    "require('net').createServer().listen(0,'127.0.0.1',function(){console.log(this.address().port);this.close()})",
  ]);
  const [chunk] = (await once(probe.stdout, "data")) as [Buffer];
  await once(probe, "exit");
  expect(() => listeningProcess(Number(chunk.toString().trim()))).toThrow(
    /no process of this machine listens/,
  );
});

test("a request that holds the service's loop for 1.5 s is seen as a stall of over a second", async () => {
  const { result, longestMs, failures } = await watched(`${base}/healthz`, async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return (await fetch(`${base}/hold?ms=1500`)).status;
  });
  expect({ result, failures, stalled: longestMs >= 1000 }).toEqual({
    result: 200,
    failures: 0,
    stalled: true,
  });
});

test("a service that answers at once is not blamed for a stall", async () => {
  const { longestMs } = await watched(
    `${base}/healthz`,
    () => new Promise((resolve) => setTimeout(resolve, 1000)),
  );
  expect(longestMs).toBeLessThan(1000);
});

test("a hold of 300 ms on a processor shared with three busy loops counts as 300 ms, not the wall time it took", async () => {
  // The service and the loops on one processor: each runs a quarter of the time, as under CI's load.
  const cpu = String(Math.max(0, (await import("node:os")).availableParallelism() - 1));
  execFileSync("taskset", ["-a", "-p", "-c", cpu, String(child.pid)], { stdio: "ignore" });
  const loops = [1, 2, 3].map(() => spawn("taskset", ["-c", cpu, process.execPath, "-e", "for(;;);"]));
  try {
    const started = performance.now();
    const { longestMs, longest } = await watched(`${base}/healthz`, async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (await fetch(`${base}/hold?ms=300`)).status;
    });
    expect(performance.now() - started).toBeGreaterThan(600);
    expect(longest?.wallMs).toBeGreaterThan(600);
    expect(longestMs).toBeGreaterThanOrEqual(250);
    expect(longestMs).toBeLessThan(600);
  } finally {
    for (const loop of loops) loop.kill();
  }
});
