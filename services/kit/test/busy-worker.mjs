// @ts-check
/**
 * A job process for job-process.test.ts: each job `{ value, busyMs, fail, hog, grow }` holds the
 * process for busyMs without yielding, as a parser that never yields does, or keeps allocating
 * until the process's heap limit ends it — many small arrays (hog), or one array grown without end
 * (grow), or Buffers, which the heap limit does not count (buffers) — then it answers its value or
 * its failure (buffers stops at 1 GiB); a job with `bytes` is answered with them and their sum; a job with `flags` is
 * answered with the process's own Node flags, one with `pid` with its process id, after filling
 * `holdMb` MiB of Buffers it lets go.
 */

import { serveJobs } from "../src/job-child.mjs";

/** @type {unknown[]} */
const hoard = [];

serveJobs((job) => {
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until);
  while (job.hog) hoard.push(new Array(1024).fill(hoard.length));
  for (let i = 0; job.grow; i++) hoard.push(i);
  // A GiB at most, so that a process without a cap answers rather than fill the machine.
  for (let i = 0; job.buffers && i < 128; i++) hoard.push(Buffer.alloc(8 * 1024 * 1024, 1));
  if (job.holdMb) Array.from({ length: job.holdMb }, () => Buffer.alloc(1024 * 1024, 1));
  if (job.fail) throw new Error(job.fail);
  if (job.flags) return process.execArgv;
  if (job.pid) return process.pid;
  return job.bytes ? { bytes: job.bytes, sum: job.bytes.reduce((a, b) => a + b, 0) } : job.value;
});
