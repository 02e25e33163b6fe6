/**
 * Every piece of text on a sealed PDF is set here: typed signatures, field values and the
 * certificate. A line is split as a browser splits it — into runs of one direction (the Unicode
 * bidirectional algorithm, bidi-js), put in the order they are seen, then into runs of one face of
 * its font stack (core/font-stacks.ts) — and each run is shaped by HarfBuzz (shaping-font.ts). Texts are
 * measured and placed while a page is laid out, and drawn once the document has them all: each
 * face is then embedded as a subset made by HarfBuzz of exactly what was drawn in it, shaped again
 * in that subset (the same glyphs and advances, numbered anew) and placed glyph by glyph.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Bidi } from "bidi-js";
import {
  beginText,
  type Color,
  endText,
  type PDFDocument,
  type PDFPage,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from "pdf-lib";
import subsetFont from "subset-font";
import { drawable, type Face, faceFor, isSpace, type StackName } from "../../core/font-stacks.js";
import { embedFont, glyphCode, ShapingFont } from "./shaping-font.js";

// bidi-js is CommonJS whose types say ES module: its factory is what require() gives.
const bidi = (createRequire(import.meta.url)("bidi-js") as () => Bidi)();

interface Run {
  face: Face;
  rtl: boolean;
  text: string;
}

/**
 * Which way a line reads at its base: left to right, or as its first letter does ("auto", the
 * signing page's dir="auto" on a value typed or picked: an Arabic date reads right to left).
 */
export type BaseDirection = "ltr" | "auto";

/**
 * The direction `text` reads in as the signing page's dir="auto" resolves it: its first strong
 * letter's (rules P2 and P3 of UAX #9), left to right when it has none.
 */
export function directionOf(text: string): "ltr" | "rtl" {
  return bidi.getEmbeddingLevels(text).paragraphs[0]?.level === 1 ? "rtl" : "ltr";
}

/**
 * `text` as runs in the order they are seen, left to right: runs of one bidi level (in a
 * paragraph of the base direction), reordered by
 * rule L2 of UAX #9, each split where the face changes (in a right-to-left run, its last part
 * first). Spaces and combining marks stay in the face of the character before them.
 */
export function visualRuns(stack: StackName, text: string, base: BaseDirection = "ltr"): Run[] {
  // Left to right at the base unless asked otherwise, as the signing page shows a typed signature;
  // bidi-js takes the first strong letter's direction when given none (rules P2 and P3).
  const { levels } = bidi.getEmbeddingLevels(text, base === "ltr" ? "ltr" : undefined);
  const byLevel: { level: number; runs: Run[] }[] = [];
  let at = 0;
  for (const character of text) {
    const level = levels[at] ?? 0;
    at += character.length;
    const previous = byLevel.at(-1);
    const group = previous?.level === level ? previous : { level, runs: [] as Run[] };
    if (group !== previous) byLevel.push(group);
    const last = group.runs.at(-1);
    const keeps = last && (isSpace(character) || /\p{M}/u.test(character));
    const face = keeps ? last.face : faceFor(stack, character.codePointAt(0) as number);
    // `drawable` has replaced what no face draws; a space before any face takes the first one's.
    if (!face) {
      group.runs.push({ face: faceFor(stack, 0x20) as Face, rtl: level % 2 === 1, text: character });
    } else if (last?.face === face) last.text += character;
    else group.runs.push({ face, rtl: level % 2 === 1, text: character });
  }
  // L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above.
  const highest = Math.max(0, ...byLevel.map((g) => g.level));
  const lowestOdd = Math.min(...byLevel.map((g) => g.level).filter((l) => l % 2 === 1), highest + 1);
  let order = byLevel;
  for (let level = highest; level >= lowestOdd; level--) {
    const next: typeof order = [];
    let stretch: typeof order = [];
    for (const group of order) {
      if (group.level >= level) stretch.push(group);
      else {
        next.push(...stretch.reverse(), group);
        stretch = [];
      }
    }
    order = [...next, ...stretch.reverse()];
  }
  return order.flatMap((group) => (group.level % 2 === 1 ? [...group.runs].reverse() : group.runs));
}

export interface DrawOptions {
  x: number;
  /** The baseline. */
  y: number;
  size: number;
  color: Color;
  /** Degrees, counter-clockwise about (x, y). */
  rotate?: number;
}

/** Each face's whole font, read once per process: what text is measured with before it is drawn. */
const wholeFonts = new Map<string, Promise<ShapingFont>>();

function wholeFont(face: Face): Promise<ShapingFont> {
  let font = wholeFonts.get(face.file);
  if (!font) {
    font = subsetFont(readFileSync(face.file), undefined, {
      keepAllGlyphs: true,
      targetFormat: "truetype",
    }).then((bytes) => new ShapingFont(bytes));
    wholeFonts.set(face.file, font);
  }
  return font;
}

interface Drawing {
  page: PDFPage;
  runs: Run[];
  options: DrawOptions;
}

export class Typesetter {
  private readonly drawings: Drawing[] = [];

  /** The width of `text` set at `size` points, as it will be drawn. */
  async width(stack: StackName, text: string, size: number, base: BaseDirection = "ltr"): Promise<number> {
    let units = 0;
    for (const run of visualRuns(stack, drawable(stack, text), base)) {
      const font = await wholeFont(run.face);
      const advance = font.shape(run.text, run.rtl).reduce((sum, glyph) => sum + glyph.xAdvance, 0);
      units += (advance * size) / font.unitsPerEm;
    }
    return units;
  }

  /** Draws `text` with its baseline starting at (x, y) once `finish` runs. */
  draw(page: PDFPage, stack: StackName, text: string, options: DrawOptions & { base?: BaseDirection }): void {
    this.drawings.push({ page, runs: visualRuns(stack, drawable(stack, text), options.base), options });
  }

  /** Embeds each face used, subset to what was drawn in it, and draws every text. */
  async finish(doc: PDFDocument): Promise<void> {
    const runsOf = new Map<Face, Run[]>();
    for (const { runs } of this.drawings) {
      for (const run of runs) runsOf.set(run.face, [...(runsOf.get(run.face) ?? []), run]);
    }
    const fonts = new Map<Face, { font: ShapingFont; ref: ReturnType<typeof embedFont> }>();
    for (const [face, runs] of runsOf) {
      // Subset from the whole font already inflated, rather than the WOFF2 file inflated again.
      const whole = await wholeFont(face);
      const bytes = await subsetFont(whole.bytes, runs.map((r) => r.text).join(""), {
        targetFormat: "truetype",
      });
      const font = new ShapingFont(bytes);
      fonts.set(face, { font, ref: embedFont(doc, font, runs, face.family) });
    }
    const resources = new Map<PDFPage, Map<Face, ReturnType<PDFPage["node"]["newFontDictionary"]>>>();
    for (const { page, runs, options } of this.drawings) {
      const names = resources.get(page) ?? new Map();
      resources.set(page, names);
      const { x, y, size, color, rotate = 0 } = options;
      const cos = Math.cos((rotate * Math.PI) / 180);
      const sin = Math.sin((rotate * Math.PI) / 180);
      const operators = [beginText(), setFillingColor(color)];
      let pen = 0;
      for (const run of runs) {
        const { font, ref } = fonts.get(run.face) as { font: ShapingFont; ref: ReturnType<typeof embedFont> };
        let name = names.get(run.face);
        if (!name) {
          name = page.node.newFontDictionary("CS", ref);
          names.set(run.face, name);
        }
        operators.push(setFontAndSize(name, size));
        const scale = size / font.unitsPerEm;
        for (const glyph of font.shape(run.text, run.rtl)) {
          const along = pen + glyph.xOffset * scale;
          const rise = glyph.yOffset * scale;
          operators.push(
            setTextMatrix(cos, sin, -sin, cos, x + cos * along - sin * rise, y + sin * along + cos * rise),
            showText(glyphCode(glyph.id)),
          );
          pen += glyph.xAdvance * scale;
        }
      }
      operators.push(endText());
      page.pushOperators(...operators);
    }
    this.drawings.length = 0;
  }
}
