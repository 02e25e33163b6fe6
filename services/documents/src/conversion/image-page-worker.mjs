// @ts-check
/**
 * The job process that makes uploaded images into pages (see image-pages.ts): the decoded image and
 * pdf-lib's objects live in this process's heap, never the service's. The work itself is TypeScript:
 * the build's JavaScript beside this file where there is one, else the source through tsx's loader.
 *
 * Each job is an ImagePageJob, each result an ImagePageResult.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serveJobs } from "@countersign/kit/job-child.mjs";

/** @returns {Promise<typeof import("./image-pages.ts")>} */
async function jobs() {
  const compiled = new URL("./image-pages.js", import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("./image-pages.ts", import.meta.url);
}

const { runImagePageJob } = await jobs();

serveJobs(runImagePageJob);
