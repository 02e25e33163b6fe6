// @ts-check
/**
 * The worker thread that reads PDFs with pdf.js, for anchor tabs. pdf.js's Node build carries
 * core-js, which replaces globals of the realm it loads in (Array.prototype.push, JSON.parse and
 * JSON.stringify among them) with slower JavaScript versions; here they stay out of the gateway's
 * own realm, and parsing a long document no longer holds the gateway's event loop. JavaScript, not
 * TypeScript: Node 20 does not give a worker the module hooks the TypeScript loader uses.
 *
 * Each message is `{ id, job }`, the job a PDF's bytes; each answer `{ id, result }`, the result its
 * pages, a page being its text runs and the transform from PDF space to the viewer's, or
 * `{ id, error }`.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parentPort } from "node:worker_threads";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** pdf.js reads the metrics of the 14 standard fonts from these files rather than guess them. */
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/** @param {Uint8Array} data */
async function readPages(data) {
  const pdf = await getDocument({
    data,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pages = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const runs = [];
      for (const item of content.items) {
        if (!("str" in item) || item.str.length === 0) continue;
        runs.push({ str: item.str, transform: item.transform, width: item.width, height: item.height });
      }
      pages.push({ runs, toView: page.getViewport({ scale: 1 }).transform });
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

parentPort?.on("message", (/** @type {{ id: number, job: Uint8Array }} */ { id, job }) => {
  readPages(job).then(
    (pages) => parentPort?.postMessage({ id, result: pages }),
    (err) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

parentPort?.postMessage({ ready: true });
