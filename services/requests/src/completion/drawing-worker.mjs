// @ts-check
/**
 * The worker thread that draws completed requests' PDFs (see drawing-thread.ts): pdf-lib, fontkit
 * and the fonts live in this thread's heap, and a document that takes seconds, or more memory than
 * the thread may have, costs this thread alone, never the service's event loop. The drawing itself
 * is TypeScript (sealed-document.ts): the build's JavaScript beside this file where there is one
 * (`npm start`, the image), else the source through tsx's loader (tests, `npm run cli`) — Node 20
 * gives a worker none of the module hooks of the thread that started it.
 *
 * Each message is `{ id, job }`, the job `{ originals, fields, values, details, seal }` (values as
 * [fieldId, value] pairs); each answer `{ id, result }`, the result `{ bytes, signedPagesSha256 }`,
 * or `{ id, error }`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";

/** @returns {Promise<typeof import("./sealed-document.ts")>} */
async function drawing() {
  const compiled = new URL("./sealed-document.js", import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("./sealed-document.ts", import.meta.url);
}

const { drawCompletedDocument } = await drawing();

parentPort?.on("message", ({ id, job }) => {
  drawCompletedDocument(job.originals, job.fields, new Map(job.values), job.details, job.seal).then(
    (result) => {
      const { bytes } = result;
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const moved = own ? bytes : new Uint8Array(bytes);
      parentPort?.postMessage({ id, result: { ...result, bytes: moved } }, [moved.buffer]);
    },
    (err) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

parentPort?.postMessage({ ready: true });
