// @ts-check
/**
 * A job process for job-process.test.ts: each job `{ value, busyMs, fail, hog, grow }` holds the
 * process for busyMs without yielding, as a parser that never yields does, or keeps allocating
 * until the process's heap limit ends it — many small arrays (hog), or one array grown without end
 * (grow) — then it answers its value or its failure.
 */

/** @type {unknown[]} */
const hoard = [];

process.on("message", ({ id, job }) => {
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until);
  while (job.hog) hoard.push(new Array(1024).fill(hoard.length));
  for (let i = 0; job.grow; i++) hoard.push(i);
  process.send?.(job.fail ? { id, error: job.fail } : { id, result: job.value });
});

process.send?.({ ready: true });
