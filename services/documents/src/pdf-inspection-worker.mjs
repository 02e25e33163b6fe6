// @ts-check
/**
 * The job process that inspects PDFs for the documents service (see pdf-inspection.ts): it reads an
 * upload whole from the path it is handed, hashes it and parses it with pdf-lib. The file and
 * pdf-lib's objects live in this process's heap, never in the service's, and a document that takes
 * pdf-lib seconds to read (a few hundred thousand objects fit in 25 MiB), or more memory than the
 * process may have, costs this process alone.
 *
 * Each job is `{ path, hash, maxPages, sanitizeTo }` (a file the service keeps in place until it is
 * answered) or `{ bytes, hash, maxPages }`; its result `{ sha256, inspection, sanitized }` (sha256
 * only when asked for; sanitized when `sanitizeTo` asked for it and the file needed it: the safe file
 * is written there, and the result says its size, its SHA-256 and what was removed).
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from "node:fs";
import { serveJobs } from "@countersign/kit/job-child.mjs";
import { ParseSpeeds, PDFDocument, PDFPageTree } from "pdf-lib";
import { sanitize } from "./pdf-sanitizer.mjs";

const PDF_MAGIC = Buffer.from("%PDF-");

/**
 * Where files are read: one buffer for every job, grown to the largest file yet, rather than a new
 * one per upload that this thread's heap, which allocates little else, would hold until a rare
 * collection (three 25 MiB uploads in a row grew the process by 68 MiB). Nothing of a job's
 * document outlives its answer, and a job process runs one job at a time.
 */
let fileBuffer = Buffer.alloc(0);

/** The whole file at `path`. */
function readWhole(/** @type {string} */ path) {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (fileBuffer.length < size) fileBuffer = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const read = readSync(fd, fileBuffer, at, size - at, at);
      if (read === 0) break;
      at += read;
    }
    return fileBuffer.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** [width, height] in PDF points as a viewer shows the page: crop box, rotation applied. */
function visibleSize(/** @type {import("pdf-lib").PDFPage} */ page) {
  const { width, height } = page.getCropBox();
  const quarterTurns = Math.round(page.getRotation().angle / 90);
  return quarterTurns % 2 === 0 ? [width, height] : [height, width];
}

/**
 * The pages of the document's page tree, counted without following it past `maxPages` pages: a
 * 12 MB file can name one page two million times, and every later reader (the signing page, the
 * completion) would pay for each. Undefined when there are more. Nodes that are neither pages nor
 * page trees count too, so a tree of empty branches or a cycle is bounded as well.
 * @param {PDFDocument} pdf @param {number} maxPages
 */
function pagesWithin(pdf, maxPages) {
  /** @type {PDFPageTree[]} */
  const branches = [pdf.catalog.Pages()];
  let pages = 0;
  let nodes = 0;
  for (let branch = branches.pop(); branch; branch = branches.pop()) {
    const kids = branch.Kids();
    for (let i = 0; i < kids.size(); i++) {
      if (++nodes > 4 * maxPages) return undefined;
      const kid = pdf.context.lookup(kids.get(i));
      if (kid instanceof PDFPageTree) branches.push(kid);
      else if (++pages > maxPages) return undefined;
    }
  }
  return pages;
}

/**
 * What the upload is, and, with `sanitizing`, the file made safe to sign when it needed it.
 * @param {Uint8Array} bytes @param {number} maxPages @param {boolean} sanitizing
 */
async function inspect(bytes, maxPages, sanitizing) {
  // The header may follow up to 1 KiB of junk.
  if (!Buffer.from(bytes.subarray(0, 1024)).includes(PDF_MAGIC)) {
    return {
      ok: false,
      reason: "not_pdf",
      message: "the file is not a PDF (it does not start with %PDF-)",
    };
  }
  let pdf;
  let pageCount;
  let pageSizes;
  try {
    pdf = await PDFDocument.load(bytes, {
      // This thread has nothing to yield to: by default pdf-lib waits a timer (a millisecond) every
      // 100 objects, which made 100,000 objects take 2.0 s instead of 0.8.
      parseSpeed: ParseSpeeds.Fastest,
      updateMetadata: false,
      ignoreEncryption: true,
      throwOnInvalidObject: true,
    });
    if (pagesWithin(pdf, maxPages) === undefined) {
      return {
        ok: false,
        reason: "too_many_pages",
        message: `the PDF has more than ${maxPages} pages, the most a document may have; split it and upload the parts`,
      };
    }
    pageCount = pdf.getPageCount();
    pageSizes = pdf.getPages().map(visibleSize);
  } catch {
    return {
      ok: false,
      reason: "corrupt",
      message: "the PDF is damaged and cannot be read; export it again and retry",
    };
  }
  if (pdf.isEncrypted) {
    return {
      ok: false,
      reason: "encrypted",
      message: "the PDF is encrypted or password-protected; remove the protection and upload it again",
    };
  }
  if (pageCount === 0) return { ok: false, reason: "empty", message: "the PDF has no pages" };
  if (!sanitizing) return { ok: true, pageCount, pageSizes };
  let removed;
  try {
    removed = sanitize(pdf, bytes);
  } catch (err) {
    return {
      ok: false,
      reason: "unsafe",
      message: `the PDF cannot be made safe to sign: ${/** @type {Error} */ (err).message}`,
    };
  }
  if (removed.length === 0) return { ok: true, pageCount, pageSizes };
  const safe = await pdf.save();
  return { ok: true, pageCount, pageSizes, sanitized: { bytes: safe, removed } };
}

async function run(
  /** @type {({ path: string } | { bytes: Uint8Array }) & { hash: boolean, maxPages: number, sanitizeTo?: string }} */ job,
) {
  const bytes = "path" in job ? readWhole(job.path) : job.bytes;
  const sha256 = job.hash ? createHash("sha256").update(bytes).digest("hex") : undefined;
  const { sanitized, ...inspection } = await inspect(bytes, job.maxPages, job.sanitizeTo !== undefined);
  if (!sanitized || job.sanitizeTo === undefined) return { sha256, inspection };
  const safe = sanitized.bytes;
  writeFileSync(job.sanitizeTo, safe);
  return {
    sha256,
    inspection,
    sanitized: {
      path: job.sanitizeTo,
      sizeBytes: safe.length,
      removed: sanitized.removed,
      sha256: createHash("sha256").update(safe).digest("hex"),
    },
  };
}

serveJobs(run);
