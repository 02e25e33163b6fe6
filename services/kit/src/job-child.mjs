// @ts-check
/**
 * The child's side of a JobProcess (job-process.ts): `serveJobs(run)` says the child is ready, then
 * answers each `{ id, job, folder }` with `{ id, result }` or `{ id, error }`, bytes crossing as
 * job-files.mjs says. The parent sends a job only once the one before it is answered, so jobs never
 * overlap in a child.
 */
import { bytesToFiles, filesToBytes } from "./job-files.mjs";

/**
 * @param {(job: any) => unknown} run
 */
export function serveJobs(run) {
  process.on("message", (/** @type {{ id: number, job: unknown, folder: string }} */ { id, job, folder }) => {
    const answered = (async () => {
      const result = await run(await filesToBytes(job));
      return bytesToFiles(result, folder, []);
    })();
    answered.then(
      (result) => process.send?.({ id, result }),
      (err) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.send?.({ ready: true });
}
