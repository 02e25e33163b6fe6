/**
 * The stall watch that the fuzz and hostile-document suites rely on: it finds the process behind a
 * URL and still sees a service that holds its own event loop, after taking off the time the
 * machine did not run it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { listeningProcess, runQueueWaitMs } from "./support/listening-process.js";
import { watched } from "./support/stall-watch.js";

const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  if (req.url === "/hold") {
    // 1.5 s of its own processor time, however long a busy machine makes that in wall time.
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 1.5e6);
  }
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

test("the process behind a port is the one listening on it, and its run-queue wait only grows", () => {
  expect(listeningProcess(Number(new URL(base).port))).toBe(child.pid);
  const before = runQueueWaitMs(child.pid);
  expect(before).toBeGreaterThanOrEqual(0);
  expect(runQueueWaitMs(child.pid)).toBeGreaterThanOrEqual(before);
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
    return (await fetch(`${base}/hold`)).status;
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
