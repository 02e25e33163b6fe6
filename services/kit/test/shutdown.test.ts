/**
 * Shutdown goes through its stages in order, each within its deadline: a stage that stalls is named
 * in a warning and left behind, and the stages after it still run — the database is still closed.
 */
import { Writable } from "node:stream";
import { createLogger } from "../src/logger.js";
import { shutDownInStages } from "../src/shutdown.js";

function loggedLines() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: "test", destination }) };
}

test("a stalled stage is named and skipped after its deadline; the stages after it run, and a failed one does not stop them", async () => {
  const { lines, logger } = loggedLines();
  const ran: string[] = [];
  const started = performance.now();
  const overran = await shutDownInStages(logger, [
    { name: "servers", run: async () => void ran.push("servers"), deadlineMs: 1000 },
    { name: "stalled work", run: () => new Promise(() => ran.push("stalled work")), deadlineMs: 50 },
    {
      name: "failing work",
      run: async () => {
        ran.push("failing work");
        throw new Error("gone");
      },
      deadlineMs: 1000,
    },
    { name: "database", run: async () => void ran.push("database"), deadlineMs: 1000 },
  ]);
  const elapsed = performance.now() - started;
  expect(ran).toEqual(["servers", "stalled work", "failing work", "database"]);
  expect(overran).toEqual(["stalled work"]);
  expect(elapsed).toBeLessThan(1000);
  expect(lines.find((line) => line.level === 40 && line.stage === "stalled work")?.msg).toBe(
    'shutdown stage "stalled work" did not finish in 50 ms; shutdown goes on without it',
  );
  expect(lines.filter((line) => line.msg === "shutdown stage finished").map((line) => line.stage)).toEqual([
    "servers",
    "failing work",
    "database",
  ]);
});
