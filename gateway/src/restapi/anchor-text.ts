/**
 * Where a string is written in a PDF, for DocuSign's anchor tabs: pdf.js reads each page's text as
 * the viewer shows it (crop box and rotation applied), and every occurrence of the anchor is given
 * as the box of its characters in PDF points from the page's top-left corner, the coordinates fields
 * use. An anchor is found within one run of text; its horizontal place inside the run is estimated
 * from the run's width, character by character.
 */
import { WorkerThread } from "@countersign/kit";
import type { TextItem } from "pdfjs-dist/types/src/display/api.js";

export interface TextBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

type TextRun = Pick<TextItem, "str" | "transform" | "width" | "height">;

/** A page as the reader thread sends it: its text runs and the transform to the viewer's space. */
interface PageText {
  runs: TextRun[];
  toView: number[];
}

/** pdf.js runs in a worker thread of its own (see pdf-text-worker.mjs); it holds tens of MiB once loaded. */
const reader = new WorkerThread<Uint8Array, PageText[]>(new URL("./pdf-text-worker.mjs", import.meta.url), {
  // A document pdf.js has not read in this time (a hostile one can loop) ends the thread.
  timeoutMs: 30_000,
  idleMs: 60_000,
  maxOldGenerationSizeMb: 512,
});

/** Every page's text runs, read once per document however many anchors are looked for. */
export class PdfText {
  private constructor(private readonly pages: PageText[]) {}

  /** The document's text; undefined when pdf.js cannot read it (a PDF that pdf-lib accepted). */
  static async read(bytes: Uint8Array): Promise<PdfText | undefined> {
    try {
      // The thread gets a copy of its own, moved rather than copied again.
      const copy = new Uint8Array(bytes);
      return new PdfText(await reader.run(copy, [copy.buffer]));
    } catch {
      return undefined;
    }
  }

  /** Each place the anchor is written, page by page, top to bottom as the runs come. */
  find(anchor: string, caseSensitive: boolean): TextBox[] {
    const fold = (s: string) => (caseSensitive ? s : s.toLocaleLowerCase("en"));
    const needle = fold(anchor);
    const found: TextBox[] = [];
    this.pages.forEach(({ runs, toView }, index) => {
      for (const run of runs) {
        const haystack = fold(run.str);
        for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
          found.push({ page: index + 1, ...boxOf(run, at, needle.length, toView) });
        }
      }
    });
    return found;
  }
}

/** The box of `length` characters from `start` of a run, in the page's top-left coordinates. */
function boxOf(run: TextRun, start: number, length: number, toView: number[]) {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const perChar = run.width / run.str.length;
  const fontHeight = run.height || Math.hypot(c, d);
  // The run's baseline origin moved along its direction to the anchor's first character.
  const scale = Math.hypot(a, b) || 1;
  const along = perChar * start;
  const originX = e + (a / scale) * along;
  const originY = f + (b / scale) * along;
  const corners = [
    [originX, originY],
    [originX + (a / scale) * perChar * length, originY + (b / scale) * perChar * length],
    [originX - (b / scale) * fontHeight, originY + (a / scale) * fontHeight],
  ].map(([x = 0, y = 0]) => apply(toView, x, y));
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function apply(m: number[], x: number, y: number): [number, number] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}
