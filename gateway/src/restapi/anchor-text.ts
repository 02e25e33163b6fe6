/**
 * Where a string is written in a PDF, for DocuSign's anchor tabs: pdf.js reads each page's text as
 * the viewer shows it (crop box and rotation applied), and every occurrence of the anchor is given
 * as the box of its characters in PDF points from the page's top-left corner, the coordinates fields
 * use. An anchor is found within one run of text; its horizontal place inside the run is estimated
 * from the run's width, character by character.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem } from "pdfjs-dist/types/src/display/api.js";

export interface TextBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

type TextRun = Pick<TextItem, "str" | "transform" | "width" | "height">;

/** pdf.js reads the metrics of the 14 standard fonts from these files rather than guess them. */
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/** Every page's text runs, read once per document however many anchors are looked for. */
export class PdfText {
  private constructor(private readonly pages: { runs: TextRun[]; toView: number[] }[]) {}

  /** The document's text; undefined when pdf.js cannot read it (a PDF that pdf-lib accepted). */
  static async read(bytes: Uint8Array): Promise<PdfText | undefined> {
    try {
      return await PdfText.readOrThrow(bytes);
    } catch {
      return undefined;
    }
  }

  private static async readOrThrow(bytes: Uint8Array): Promise<PdfText> {
    const pdf = await getDocument({
      // pdf.js takes ownership of the buffer it is given.
      data: new Uint8Array(bytes),
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
        const runs = content.items.filter((item): item is TextItem => "str" in item && item.str.length > 0);
        pages.push({ runs, toView: page.getViewport({ scale: 1 }).transform });
      }
      return new PdfText(pages);
    } finally {
      await pdf.destroy();
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
