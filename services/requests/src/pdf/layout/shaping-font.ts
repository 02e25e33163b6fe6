/**
 * A font as HarfBuzz shapes text with it — the engine Chromium shapes with, so contextual
 * alternates, ligatures, Arabic joining and right-to-left order come out as the signing page showed
 * them — and the same font embedded in a PDF whole: a Type0 font with Identity-H encoding whose
 * codes are the font's glyph ids, a width for every glyph, and a ToUnicode map so that the text can
 * be searched and copied. The fonts embedded are HarfBuzz's own subsets, which keep every glyph the
 * layout rules can reach. (pdf-lib's subsetting dropped the alternates Caveat uses, which drew
 * "Ada Lovelace" as "Ad", and its layout gave alternates no widths.)
 */
import { deflateSync } from "node:zlib";
import * as hb from "harfbuzzjs";
import { type PDFDocument, PDFHexString, type PDFRef, PDFString } from "pdf-lib";

/** One glyph of shaped text, in font units, in the order it is drawn (left to right). */
export interface PlacedGlyph {
  id: number;
  /** The index in the text of the first character the glyph stands for. */
  cluster: number;
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

const uint16 = (table: Uint8Array, at: number) => ((table[at] ?? 0) << 8) | (table[at + 1] ?? 0);
const int16 = (table: Uint8Array, at: number) => {
  const value = uint16(table, at);
  return value > 0x7fff ? value - 0x10000 : value;
};

export class ShapingFont {
  readonly unitsPerEm: number;
  // HarfBuzz objects are freed when collected: the blob and face live as long as the font.
  private readonly blob: hb.Blob;
  readonly face: hb.Face;
  readonly font: hb.Font;

  /** TrueType or CFF-flavoured OpenType. */
  constructor(readonly bytes: Uint8Array) {
    this.blob = new hb.Blob(bytes);
    this.face = new hb.Face(this.blob);
    this.font = new hb.Font(this.face);
    this.unitsPerEm = uint16(this.table("head"), 18) || 1000;
  }

  table(tag: string): Uint8Array {
    return this.face.referenceTable(tag) ?? new Uint8Array(64);
  }

  /** The glyphs of `text`, shaped in one direction, left to right as they are drawn. */
  shape(text: string, rtl: boolean): PlacedGlyph[] {
    const buffer = new hb.Buffer();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
    hb.shape(this.font, buffer);
    const positions = buffer.getGlyphPositions();
    return buffer.getGlyphInfos().map((info, i) => ({
      id: info.codepoint,
      cluster: info.cluster,
      xAdvance: positions[i]?.xAdvance ?? 0,
      xOffset: positions[i]?.xOffset ?? 0,
      yOffset: positions[i]?.yOffset ?? 0,
    }));
  }
}

/** A glyph's text as ToUnicode writes it: UTF-16BE in hex. */
function utf16Hex(text: string): string {
  let hex = "";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return hex;
}

const hex4 = (n: number) => n.toString(16).padStart(4, "0");

/** A glyph id as the content stream shows it. */
export function glyphCode(id: number): PDFHexString {
  return PDFHexString.of(hex4(id));
}

function toUnicodeCMap(texts: Map<number, string>): string {
  const entries = [...texts]
    .sort(([a], [b]) => a - b)
    .map(([id, text]) => `<${hex4(id)}> <${utf16Hex(text)}>`);
  const blocks: string[] = [];
  // A bfchar block holds at most 100 entries.
  for (let at = 0; at < entries.length; at += 100) {
    const block = entries.slice(at, at + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join("\n")}\nendbfchar`);
  }
  return [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <FFFF>",
    "endcodespacerange",
    ...blocks,
    "endcmap",
    "CMapName currentdict /CMap defineresource pop",
    "end",
    "end",
  ].join("\n");
}

/** The text each glyph stands for: the character map's, then what shaping `runs` made of theirs. */
function glyphTexts(font: ShapingFont, runs: { text: string; rtl: boolean }[]): Map<number, string> {
  const found = new Map<number, string>();
  for (const point of font.face.collectUnicodes()) {
    const id = font.font.nominalGlyph(point);
    if (id !== undefined && !found.has(id)) found.set(id, String.fromCodePoint(point));
  }
  for (const { text, rtl } of runs) {
    const glyphs = font.shape(text, rtl);
    const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((a, b) => a - b);
    for (const glyph of glyphs) {
      if (found.has(glyph.id)) continue;
      const end = starts.find((s) => s > glyph.cluster) ?? text.length;
      found.set(glyph.id, text.slice(glyph.cluster, end));
    }
  }
  return found;
}

/** A subset font's name starts with a tag of six capitals, unique in the file. */
function subsetTag(n: number): string {
  let tag = "";
  for (let rest = n, i = 0; i < 6; i++, rest = Math.floor(rest / 26))
    tag = String.fromCharCode(65 + (rest % 26)) + tag;
  return tag;
}

let embedded = 0;

/**
 * Embeds `font` in `doc` whole, named after its `family` (as `ABCDEF+ArefRuqaa`, so that a PDF
 * reader's font list says which face drew what); `runs`, the text drawn with it, name its glyphs for
 * ToUnicode.
 */
export function embedFont(
  doc: PDFDocument,
  font: ShapingFont,
  runs: { text: string; rtl: boolean }[],
  family: string,
): PDFRef {
  const head = font.table("head");
  const glyphCount = uint16(font.table("maxp"), 4);
  const cff = font.face.referenceTable("CFF ") !== undefined;
  const scale = (units: number) => Math.round((units * 1000) / font.unitsPerEm);
  const extents = font.font.hExtents();
  const name = `${subsetTag(embedded++)}+${family.replace(/[^A-Za-z0-9]/g, "")}`;
  const context = doc.context;
  // Compressed by Node's zlib: pdf-lib's own (pako, in JavaScript) took a tenth of a completion.
  const flate = (bytes: Uint8Array, dict: Record<string, string | number> = {}) =>
    context.stream(deflateSync(bytes), { ...dict, Filter: "FlateDecode" });
  const file = flate(font.bytes, cff ? { Subtype: "OpenType" } : { Length1: font.bytes.length });
  const descriptor = context.obj({
    Type: "FontDescriptor",
    FontName: name,
    // Symbolic: the glyphs are reached by id, not through a standard encoding.
    Flags: 4,
    FontBBox: [int16(head, 36), int16(head, 38), int16(head, 40), int16(head, 42)].map(scale),
    ItalicAngle: 0,
    Ascent: scale(extents.ascender),
    Descent: scale(extents.descender),
    CapHeight: scale(extents.ascender * 0.7),
    StemV: 80,
    [cff ? "FontFile3" : "FontFile2"]: context.register(file),
  });
  const widths = Array.from({ length: glyphCount }, (_, id) => scale(font.font.glyphHAdvance(id)));
  const descendant = context.obj({
    Type: "Font",
    Subtype: cff ? "CIDFontType0" : "CIDFontType2",
    BaseFont: name,
    CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
    FontDescriptor: context.register(descriptor),
    W: [0, widths],
    ...(cff ? {} : { CIDToGIDMap: "Identity" }),
  });
  const toUnicode = flate(Buffer.from(toUnicodeCMap(glyphTexts(font, runs)), "latin1"));
  return context.register(
    context.obj({
      Type: "Font",
      Subtype: "Type0",
      BaseFont: name,
      Encoding: "Identity-H",
      DescendantFonts: [context.register(descendant)],
      ToUnicode: context.register(toUnicode),
    }),
  );
}
