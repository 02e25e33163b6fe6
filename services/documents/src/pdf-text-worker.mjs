// @ts-check
/**
 * The job process that finds text in stored PDFs with pdf.js (see pdf-text.ts): anchor strings
 * (DocuSign's anchor tabs) and text tags (`{{signature:Client}}`). pdf.js's Node build carries
 * core-js, which replaces globals of the realm it loads in (Array.prototype.push, JSON.parse and
 * JSON.stringify among them) with slower JavaScript versions; here they stay out of the service's
 * own process. The search runs here too, page by page, and stops for an anchor once it has been found
 * `limit` times: a short anchor ("x") in a long document has millions of places, and neither
 * finding nor sending them may cost more than the caller can use. A document from outside is
 * hostile: one that says it has more than `maxPages` pages, or holds more than `maxCharacters`
 * characters of text before the search is done, is refused rather than read on.
 *
 * A job `{ path, maxPages, maxCharacters, limit, anchors: [{ text, caseSensitive }] }` answers
 * `{ anchors }`, one list of boxes per anchor (each box `{ page, x, y, width, height }` in PDF
 * points from the top-left of the page as a viewer shows it); a job `{ path, maxPages,
 * maxCharacters, limit, tags: true }` answers `{ tags }`: every `{{…}}` written in one run of text,
 * and every `{{` left open in its run, each `{ text, page, x, y, width, height }`, at most `limit`.
 * A document refused answers `{ refused }`, saying why in words; one pdf.js cannot read fails.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { serveJobs } from "@countersign/kit/job-child.mjs";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** pdf.js reads the metrics of the 14 standard fonts from these files rather than guess them. */
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/**
 * @typedef {{ str: string, transform: number[], width: number, height: number }} TextRun
 * @typedef {{ page: number, x: number, y: number, width: number, height: number }} TextBox
 * @typedef {{ text: string, caseSensitive: boolean }} Anchor
 * @typedef {{ path: string, maxPages: number, maxCharacters: number, limit: number }} Reading
 */

/** Why a document is not read on: it is larger than a reader may take. */
class Refused extends Error {}

/** @param {number[]} m @param {number} x @param {number} y @returns {[number, number]} */
function apply(m, x, y) {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}

/**
 * The box of `length` characters from `start` of a run, in the page's top-left coordinates: an
 * anchor is found within one run of text, and its place inside the run estimated from the run's
 * width, character by character.
 * @param {TextRun} run @param {number} start @param {number} length @param {number[]} toView
 */
function boxOf(run, start, length, toView) {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const perChar = run.width / run.str.length;
  const fontHeight = run.height || Math.hypot(c, d);
  // The run's baseline origin moved along its direction to the anchor's first character.
  const scale = Math.hypot(a, b) || 1;
  const along = perChar * start;
  const originX = e + (a / scale) * along;
  const originY = f + (b / scale) * along;
  const corners = [
    apply(toView, originX, originY),
    apply(toView, originX + (a / scale) * perChar * length, originY + (b / scale) * perChar * length),
    apply(toView, originX - (b / scale) * fontHeight, originY + (a / scale) * fontHeight),
  ];
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** @param {string} s */
const fold = (s) => s.toLocaleLowerCase("en");

/** A tag, or what starts one and is not closed in its run: `{{` then up to 320 characters (a type, a 100-character role, a 200-character label). */
const TAG = /\{\{(?:[^{}]{0,320}\}\}|[^{}]{0,320})/g;

/**
 * Every page's runs of text, with the page's transform to the viewer's coordinates; `visit` says
 * whether to go on to the next page. Throws Refused past the reading's pages or characters.
 * @param {Reading} reading
 * @param {(page: number, runs: TextRun[], toView: number[]) => boolean} visit
 */
async function eachPage({ path, maxPages, maxCharacters }, visit) {
  const file = await readFile(path);
  const loading = getDocument({
    // pdf.js takes a plain Uint8Array, not a Buffer.
    data: new Uint8Array(file.buffer, file.byteOffset, file.byteLength),
    standardFontDataUrl: STANDARD_FONTS,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const pdf = await loading.promise;
    if (pdf.numPages > maxPages) throw new Refused(`it has more than ${maxPages} pages`);
    let characters = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const toView = page.getViewport({ scale: 1 }).transform;
      const content = await page.getTextContent();
      /** @type {TextRun[]} */
      const runs = [];
      for (const item of content.items) {
        if (!("str" in item) || item.str.length === 0) continue;
        characters += item.str.length;
        if (characters > maxCharacters)
          throw new Refused(`it holds more than ${maxCharacters} characters of text`);
        runs.push({ str: item.str, transform: item.transform, width: item.width, height: item.height });
      }
      page.cleanup();
      if (!visit(number, runs, toView)) return;
    }
  } finally {
    await loading.destroy();
  }
}

/** @param {Reading} reading */
async function findTags(reading) {
  const { limit } = reading;
  /** @type {(TextBox & { text: string })[]} */
  const found = [];
  await eachPage(reading, (number, runs, toView) => {
    for (const run of runs) {
      for (const match of run.str.matchAll(TAG)) {
        if (found.length >= limit) return false;
        found.push({
          text: match[0],
          page: number,
          ...boxOf(run, match.index ?? 0, match[0].length, toView),
        });
      }
    }
    return found.length < limit;
  });
  return found;
}

/** @param {Reading & { anchors: Anchor[] }} reading */
async function findAnchors(reading) {
  const { anchors, limit } = reading;
  /** @type {TextBox[][]} */
  const found = anchors.map(() => []);
  const needles = anchors.map((anchor) => (anchor.caseSensitive ? anchor.text : fold(anchor.text)));
  const searching = () => found.some((boxes) => boxes.length < limit);
  await eachPage(reading, (number, runs, toView) => {
    for (const run of runs) {
      const folded = fold(run.str);
      needles.forEach((needle, i) => {
        const boxes = /** @type {TextBox[]} */ (found[i]);
        const haystack = anchors[i]?.caseSensitive ? run.str : folded;
        for (
          let at = haystack.indexOf(needle);
          at >= 0 && boxes.length < limit;
          at = haystack.indexOf(needle, at + needle.length)
        ) {
          boxes.push({ page: number, ...boxOf(run, at, needle.length, toView) });
        }
      });
    }
    return searching();
  });
  return found;
}

/** @param {Reading & { anchors?: Anchor[], tags?: boolean }} job */
async function find(job) {
  try {
    return job.tags
      ? { tags: await findTags(job) }
      : { anchors: await findAnchors({ ...job, anchors: job.anchors ?? [] }) };
  } catch (err) {
    if (err instanceof Refused) return { refused: err.message };
    throw err;
  }
}

serveJobs(find);
