// @ts-check
/**
 * The worker thread that draws completed requests' PDFs (see drawing-thread.ts): pdf-lib, fontkit
 * and the fonts live in this thread's heap, and a document that takes seconds, or more memory than
 * the thread may have, costs this thread alone, never the service's event loop. The drawing itself
 * is TypeScript (drawing-jobs.ts): the build's JavaScript beside this file where there is one
 * (`npm start`, the image), else the source through tsx's loader (tests, `npm run cli`) — Node 20
 * gives a worker none of the module hooks of the thread that started it.
 *
 * Each message is `{ id, job }`, a DrawingJob; each answer `{ id, result }`, a DrawingResult (a
 * PDF's bytes moved, not copied), or `{ id, error }`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";

/** @returns {Promise<typeof import("./drawing-jobs.ts")>} */
async function jobs() {
  const compiled = new URL("./drawing-jobs.js", import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("./drawing-jobs.ts", import.meta.url);
}

const { runDrawingJob } = await jobs();

parentPort?.on("message", ({ id, job }) => {
  runDrawingJob(job).then(
    (result) => {
      const { bytes } = result;
      if (!bytes) return parentPort?.postMessage({ id, result });
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const moved = own ? bytes : new Uint8Array(bytes);
      parentPort?.postMessage({ id, result: { ...result, bytes: moved } }, [moved.buffer]);
    },
    (err) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

parentPort?.postMessage({ ready: true });
