/**
 * Office documents and images made for the tests, the smallest each format's reader opens: a Word
 * document (DOCX), an OpenDocument text (ODT) and RTF of given paragraphs, and a JPEG (drawn by
 * poppler from a PDF). Each paragraph may be a page of its own, an ODT may link an image by URL, and an
 * RTF may take in other files (INCLUDEPICTURE, INCLUDETEXT) or hold a picture of many pixels.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { strToU8, zipSync } from "fflate";
import { PNG } from "pngjs";
import { makePdf } from "./pdfs.js";
import { makePng } from "./pngs.js";

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export interface OfficeText {
  paragraphs: string[];
  /** Each paragraph on a page of its own. */
  pageBreaks?: boolean;
}

export function makeDocx({ paragraphs, pageBreaks = false }: OfficeText): Uint8Array {
  const body = paragraphs
    .map(
      (text, i) =>
        `<w:p>${pageBreaks && i > 0 ? '<w:r><w:br w:type="page"/></w:r>' : ""}<w:r><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/></w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`,
    )
    .join("");
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

export function makeOdt({
  paragraphs,
  linkedImageUrl,
}: OfficeText & { linkedImageUrl?: string }): Uint8Array {
  const image = linkedImageUrl
    ? `<text:p><draw:frame draw:name="linked" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${escapeXml(linkedImageUrl)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`
    : "";
  const text = paragraphs.map((p) => `<text:p>${escapeXml(p)}</text:p>`).join("");
  return zipSync({
    // The first entry, stored: how an OpenDocument file says what it is.
    mimetype: [strToU8("application/vnd.oasis.opendocument.text"), { level: 0 }],
    "META-INF/manifest.xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ),
    "content.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"><office:body><office:text>${text}${image}</office:text></office:body></office:document-content>`,
    ),
  });
}

export function makeRtf({
  paragraphs,
  pageBreaks = false,
  includes = [],
  picture,
}: OfficeText & {
  /** Fields that take in other files, after the paragraphs: INCLUDEPICTURE or INCLUDETEXT of a URL. */
  includes?: { field: "INCLUDEPICTURE" | "INCLUDETEXT"; url: string }[];
  /** A black picture of this many pixels, embedded (a few kilobytes of PNG hold millions of pixels). */
  picture?: { width: number; height: number };
}): Uint8Array {
  const escaped = (text: string) => text.replace(/[\\{}]/g, (c) => `\\${c}`);
  const body = paragraphs.map((p) => `${escaped(p)}\\par`).join(pageBreaks ? "\\page " : " ");
  const fields = includes
    .map(({ field, url }) => `{\\field{\\*\\fldinst ${field} "${escaped(url)}"}{\\fldrslt }}\\par `)
    .join("");
  const pict = picture
    ? `{\\pict\\pngblip\\picw${picture.width}\\pich${picture.height}\\picwgoal8000\\pichgoal8000 ${makePng({ ...picture, depth: 1, colour: 0 }).toString("hex")}}\\par `
    : "";
  return Buffer.from(
    `{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Arial;}\\f0\\fs24 ${body}${fields}${pict}}`,
    "latin1",
  );
}

/** A `width` × `height` PNG of one colour. */
export function makeColourPng(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
): Uint8Array {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = r;
    png.data[i + 1] = g;
    png.data[i + 2] = b;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** A JPEG of a one-page PDF, drawn by poppler's pdftoppm. */
export async function makeJpeg(): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "jpeg-"));
  try {
    await writeFile(join(dir, "page.pdf"), await makePdf(1));
    await promisify(execFile)("pdftoppm", [
      "-jpeg",
      "-r",
      "30",
      "-singlefile",
      join(dir, "page.pdf"),
      join(dir, "page"),
    ]);
    return await readFile(join(dir, "page.jpg"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
