// @ts-check
/**
 * The job process that draws completed requests' PDFs (see drawing-process.ts): pdf-lib, fontkit
 * and the fonts live in this process's heap, and a document that takes seconds, or more memory than
 * the process may have, costs this process alone, never the service's. The drawing itself is
 * TypeScript (drawing-jobs.ts): the build's JavaScript beside this file where there is one
 * (`npm start`, the image), else the source through tsx's loader (tests, `npm run cli`).
 *
 * Each message is `{ id, job }`, a DrawingJob; each answer `{ id, result }`, a DrawingResult, or
 * `{ id, error }`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** @returns {Promise<typeof import("./drawing-jobs.ts")>} */
async function jobs() {
  const compiled = new URL("./drawing-jobs.js", import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("./drawing-jobs.ts", import.meta.url);
}

const { runDrawingJob } = await jobs();

process.on("message", ({ id, job }) => {
  runDrawingJob(job).then(
    (result) => {
      const { bytes } = result;
      if (!bytes) return process.send?.({ id, result });
      // A view is sent with the whole buffer under it: a slice of a larger one goes as a copy of its own.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      process.send?.({ id, result: { ...result, bytes: whole ? bytes : new Uint8Array(bytes) } });
    },
    (err) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

process.send?.({ ready: true });
