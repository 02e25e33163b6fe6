/**
 * The typefaces text is drawn in on a sealed PDF, as stacks of fallbacks read from the @fontsource
 * style sheets the signing page itself loads (gateway/web/shared/fonts.css), in the same order. A
 * character is drawn in the first face — stack order, then @font-face order — whose unicode-range
 * holds it and whose font has a glyph for it: the browser's own rule, so that what the signer saw
 * is what is sealed. A character no face can draw is named, never dropped: a signer's value holding
 * one is refused when it is submitted.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fontkit from "@pdf-lib/fontkit";

const require = createRequire(import.meta.url);

/** Typed signatures and initials; the text of fields and of the certificate; its headings. */
export type StackName = "handwriting" | "text" | "bold";

const SANS = [
  "@fontsource/noto-sans",
  "@fontsource/noto-sans-arabic",
  "@fontsource/noto-sans-hebrew",
  "@fontsource/noto-sans-sc",
];

/**
 * A handwriting face for each script a name can be written in, then the text faces for what none of
 * them has (polytonic Greek, a Persian letter Ruqaa lacks): Caveat for Latin and Cyrillic, Playpen
 * Sans for Greek and Vietnamese, Kalam for Devanagari, Aref Ruqaa (the everyday Arabic hand) for
 * Arabic, Long Cang for Chinese, Klee One for Japanese kana and the kanji Long Cang lacks. Of the
 * others only a script's subset is taken, so that none makes an emoji writable; Chinese and Japanese
 * are whole sheets, as only those split a script into the hundred unicode-range chunks of which the
 * page fetches just what a name needs (a subset's sheet is one file of megabytes).
 */
const HANDWRITING = [
  "@fontsource/caveat/400.css",
  "@fontsource/playpen-sans/greek-400.css",
  "@fontsource/playpen-sans/vietnamese-400.css",
  "@fontsource/kalam/devanagari-400.css",
  "@fontsource/aref-ruqaa/arabic-400.css",
  "@fontsource/long-cang/400.css",
  "@fontsource/klee-one/400.css",
];

/**
 * The style sheets of each stack, in order. The signing page loads the same sheets
 * (gateway/web/signing/face-rules.ts) and names the same families in the same order
 * (gateway/web/shared/base.css); test/sealed-faces.test.ts holds the three equal.
 */
export const STACK_SHEETS: Record<StackName, readonly string[]> = {
  handwriting: [...HANDWRITING, ...SANS.map((family) => `${family}/400.css`)],
  text: SANS.map((family) => `${family}/400.css`),
  bold: SANS.map((family) => `${family}/700.css`),
};

/** One @font-face: a font file and the code points the style sheet gives it. */
export class Face {
  private font: ReturnType<typeof fontkit.create> | undefined;

  constructor(
    /** The WOFF2 file. */
    readonly file: string,
    private readonly ranges: [number, number][],
    /** The family the style sheet names it ("Aref Ruqaa"), which the sealed PDF names its font after. */
    readonly family: string,
  ) {}

  /** Whether this face is the one for `codePoint`, if no face before it is. */
  covers(codePoint: number): boolean {
    if (!this.ranges.some(([first, last]) => codePoint >= first && codePoint <= last)) return false;
    // Only a face whose range holds the character is read, as a browser downloads only those.
    this.font ??= fontkit.create(readFileSync(this.file));
    return this.font.hasGlyphForCodePoint(codePoint);
  }
}

/** `U+0460-052F,U+20B4` as inclusive ranges of code points. */
function rangesOf(unicodeRange: string): [number, number][] {
  return unicodeRange.split(",").map((range) => {
    const [first = "0", last = first] = range.trim().replace(/^U\+/i, "").split("-");
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });
}

/** The faces of a style sheet, in its order: each @font-face's WOFF2 file, unicode-range and family. */
export function facesOf(sheet: string): Face[] {
  const path = require.resolve(sheet);
  const css = readFileSync(path, "utf8");
  return [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].map(([, body = ""]) => {
    const file = /url\(\.\/([^)]+\.woff2)\)/.exec(body)?.[1];
    if (!file) throw new Error(`${sheet}: an @font-face without a WOFF2 source`);
    const range = /unicode-range:\s*([^;]+);/.exec(body)?.[1];
    const family = /font-family:\s*['"]?([^;'"]+)/.exec(body)?.[1];
    if (!family) throw new Error(`${sheet}: an @font-face without a font-family`);
    return new Face(join(dirname(path), file), range ? rangesOf(range) : [[0, 0x10ffff]], family);
  });
}

const stacks = new Map<StackName, Face[]>();

function stack(name: StackName): Face[] {
  let faces = stacks.get(name);
  if (!faces) {
    faces = STACK_SHEETS[name].flatMap(facesOf);
    stacks.set(name, faces);
  }
  return faces;
}

/** The face `codePoint` is drawn in, or undefined when no face of the stack has it. */
export function faceFor(name: StackName, codePoint: number): Face | undefined {
  return stack(name).find((face) => face.covers(codePoint));
}

/** Spaces take the face of the text around them; every face draws them. */
const SPACE = /^\s$/u;

/** The characters of `text` no face of the stack can draw, each once, in the order they come. */
export function unwritable(name: StackName, text: string): string[] {
  const missing = new Set<string>();
  for (const character of text) {
    if (!SPACE.test(character) && !faceFor(name, character.codePointAt(0) as number)) missing.add(character);
  }
  return [...missing];
}

/** Why `text` cannot be drawn as it is, naming each character no face has; undefined when it can. */
export function unwritableProblem(name: StackName, text: string): string | undefined {
  const missing = unwritable(name, text);
  if (missing.length === 0) return undefined;
  const named = missing.map((c) => `"${c}" (${codePointName(c)})`).join(", ");
  return `holds ${missing.length === 1 ? "a character" : "characters"} the sealed document cannot show: ${named}`;
}

/** How a character no face can draw is written instead, visibly: `U+1F600`. */
export function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `text` with every character no face can draw written as its code point, so nothing is lost unseen. */
export function drawable(name: StackName, text: string): string {
  const missing = new Set(unwritable(name, text));
  if (missing.size === 0) return text;
  return [...text].map((c) => (missing.has(c) ? `[${codePointName(c)}]` : c)).join("");
}

export function isSpace(character: string): boolean {
  return SPACE.test(character);
}
