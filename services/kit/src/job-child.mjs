// @ts-check
/**
 * The child's side of a JobProcess (job-process.ts): `serveJobs(run)` caps the child's memory, says
 * it is ready, then answers each `{ id, job, folder }` with `{ id, result }` or `{ id, error }`,
 * bytes crossing as job-files.mjs says. The parent sends a job only once the one before it is
 * answered, so jobs never overlap in a child.
 *
 * The cap counts all the child's memory, not only V8's heap: Buffers, WebAssembly memory and
 * native allocations live outside it, and a hostile PDF once took a child with a 512 MiB heap to
 * 3 GB in Buffers. It is RLIMIT_DATA (private writable mappings, Linux 4.7 on), set by util-linux's
 * `prlimit` on this process once its modules are loaded, at what it then holds plus its budget
 * (V8 reserves some 500 MiB of code space at start, which that limit counts). RLIMIT_AS is not used:
 * V8's address-space reservations and WebAssembly's guard regions would count against it.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { bytesToFiles, filesToBytes } from "./job-files.mjs";

/** Where the parent says how many MiB the child may add to what it holds when ready. */
export const MEMORY_BUDGET_ENV = "COUNTERSIGN_JOB_MEMORY_MB";

/** What the child writes before it ends for a failed allocation; job-process.ts reads it as out of memory. */
const OUT_OF_MEMORY_WORDS = "job process out of memory";

/**
 * @param {(job: any) => unknown} run
 */
export function serveJobs(run) {
  const budgetMb = Number(process.env[MEMORY_BUDGET_ENV]);
  const uncapped = budgetMb > 0 ? capMemory(budgetMb) : undefined;
  const readyRss = process.memoryUsage.rss();
  /**
   * Whether the child now holds more than `mb` beyond what it held when ready: what a job left it
   * holding, not a peak (module loading peaks above what it leaves, and a peak a collection already
   * gave back costs nothing).
   */
  const grewPast = (/** @type {number} */ mb) =>
    mb > 0 && process.memoryUsage.rss() - readyRss > mb * 1024 * 1024;
  process.on("message", (/** @type {{ id: number, job: unknown, folder: string }} */ { id, job, folder }) => {
    const answered = (async () => {
      const result = await run(await filesToBytes(job));
      return bytesToFiles(result, folder, []);
    })();
    answered.then(
      // A job that left the child holding more than half its budget (what the allocator keeps): the
      // parent replaces it rather than keep that until it is idle.
      (result) => process.send?.({ id, result, ...(grewPast(budgetMb / 2) ? { retire: true } : {}) }),
      (err) => {
        // A failed allocation is the cap reached: the child ends as V8 ends it at its heap limit.
        if (err instanceof RangeError && /allocat|memory/i.test(err.message)) {
          process.stderr.write(`${OUT_OF_MEMORY_WORDS}: ${err.message}\n`);
          process.exit(1);
        }
        process.send?.({ id, error: err instanceof Error ? err.message : String(err) });
      },
    );
  });
  process.send?.({ ready: true, ...(uncapped ? { uncapped } : {}) });
}

/**
 * Sets the child's data limit to what it holds plus `budgetMb`; answers why not, when it cannot.
 * @param {number} budgetMb
 * @returns {string | undefined}
 */
function capMemory(budgetMb) {
  let heldKib;
  try {
    heldKib = Number(/^VmData:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
  } catch {
    return "this system has no /proc to read a process's memory from";
  }
  const limit = heldKib * 1024 + budgetMb * 1024 * 1024;
  const set = spawnSync("prlimit", [`--pid=${process.pid}`, `--data=${limit}`], { encoding: "utf8" });
  if (set.error) return `prlimit could not be run (${set.error.message}); install util-linux`;
  if (set.status !== 0) return `prlimit failed: ${set.stderr.trim()}`;
  return undefined;
}
