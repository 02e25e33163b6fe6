// @ts-check
/**
 * The job process that cuts and joins PDFs with pdf-lib for /restapi's document views (see
 * pdf-pages.ts): reading a document of thousands of pages takes pdf-lib seconds, which would
 * otherwise hold the gateway's event loop for every caller.
 *
 * Each job is `{ parts: [{ bytes, pages? }] }`: a new PDF of each part's pages in order (0-based
 * `pages`, or every page); its result is the new PDF's bytes.
 */

import { serveJobs } from "@countersign/kit/job-child.mjs";
import { ParseSpeeds, PDFDocument } from "pdf-lib";

/** @param {{ parts: { bytes: Uint8Array, pages?: number[] }[] }} job */
async function compose({ parts }) {
  const made = await PDFDocument.create();
  for (const { bytes, pages } of parts) {
    // This process has nothing to yield to: pdf-lib's default pauses every 100 objects only slow it.
    const source = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    for (const page of await made.copyPages(source, pages ?? source.getPageIndices())) made.addPage(page);
  }
  return made.save();
}

serveJobs(compose);
