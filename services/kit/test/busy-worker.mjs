// @ts-check
/**
 * A job process for job-process.test.ts: each job `{ value, busyMs, fail, hog, grow }` holds the
 * process for busyMs without yielding, as a parser that never yields does, or keeps allocating
 * until the process's heap limit ends it — many small arrays (hog), or one array grown without end
 * (grow) — then it answers its value or its failure; a job with `bytes` is answered with them and their sum;
 * a job with `flags` is answered with the process's own Node flags.
 */

import { serveJobs } from "../src/job-child.mjs";

/** @type {unknown[]} */
const hoard = [];

serveJobs((job) => {
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until);
  while (job.hog) hoard.push(new Array(1024).fill(hoard.length));
  for (let i = 0; job.grow; i++) hoard.push(i);
  if (job.fail) throw new Error(job.fail);
  if (job.flags) return process.execArgv;
  return job.bytes ? { bytes: job.bytes, sum: job.bytes.reduce((a, b) => a + b, 0) } : job.value;
});
