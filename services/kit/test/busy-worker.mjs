// @ts-check
/**
 * A worker thread for worker-thread.test.ts: each job `{ value, busyMs, fail }` holds the thread for
 * busyMs without yielding, as a parser that never yields does, then answers its value or its failure.
 */
import { parentPort } from "node:worker_threads";

parentPort?.on("message", ({ id, job }) => {
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until);
  parentPort?.postMessage(job.fail ? { id, error: job.fail } : { id, result: job.value });
});
