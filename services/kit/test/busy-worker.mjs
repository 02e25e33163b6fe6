// @ts-check
/**
 * A worker thread for worker-thread.test.ts: each job `{ value, busyMs, fail, hog }` holds the
 * thread for busyMs without yielding, as a parser that never yields does, or (hog) keeps allocating
 * until the thread's heap limit ends it; then it answers its value or its failure.
 */
import { parentPort } from "node:worker_threads";

/** @type {unknown[]} */
const hoard = [];

parentPort?.on("message", ({ id, job }) => {
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until);
  while (job.hog) hoard.push(new Array(1024).fill(hoard.length));
  parentPort?.postMessage(job.fail ? { id, error: job.fail } : { id, result: job.value });
});

parentPort?.postMessage({ ready: true });
