// @ts-check
/**
 * The job process that draws completed requests' PDFs (see drawing-process.ts): pdf-lib, fontkit
 * and the fonts live in this process's heap, and a document that takes seconds, or more memory than
 * the process may have, costs this process alone, never the service's. The drawing itself is
 * TypeScript (drawing-jobs.ts): the build's JavaScript beside this file where there is one
 * (`npm start`, the image), else the source through tsx's loader (tests, `npm run cli`).
 *
 * Each job is a DrawingJob, each result a DrawingResult.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serveJobs } from "@countersign/kit/job-child.mjs";

/** @returns {Promise<typeof import("./drawing-jobs.ts")>} */
async function jobs() {
  const compiled = new URL("./drawing-jobs.js", import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("./drawing-jobs.ts", import.meta.url);
}

const { runDrawingJob } = await jobs();

serveJobs(runDrawingJob);
