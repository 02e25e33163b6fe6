/** PDFs made for the tests, never checked in as binaries. */
import { randomBytes } from "node:crypto";
import { degrees, PDFDocument, PDFName, StandardFonts } from "pdf-lib";

export async function makePdf(pages: number, text = "Countersign test document"): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${text} — page ${i + 1}`, { x: 50, y: 780, size: 14, font });
  }
  return pdf.save({ useObjectStreams: false });
}

/** A PDF of about `bytes` bytes: one page and an attachment of random (incompressible) data. */
export async function makeLargePdf(bytes: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]);
  await pdf.attach(randomBytes(Math.max(0, bytes - 4096)), "payload.bin", {
    mimeType: "application/octet-stream",
  });
  return pdf.save({ useObjectStreams: false });
}

/**
 * A one-page PDF of about `bytes`, the bulk in an image its page's resources hold (random, so
 * nothing compresses it): unlike an attachment, it stays when the page is copied into a new PDF,
 * as completion copies the originals' pages.
 */
export async function makeHeavyPagePdf(bytes: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const side = Math.floor(Math.sqrt(Math.max(1, bytes - 4096) / 3));
  const image = pdf.context.register(
    pdf.context.stream(randomBytes(side * side * 3), {
      Type: "XObject",
      Subtype: "Image",
      Width: side,
      Height: side,
      ColorSpace: "DeviceRGB",
      BitsPerComponent: 8,
    }),
  );
  page.node.setXObject(PDFName.of("Im0"), image);
  return pdf.save({ useObjectStreams: false });
}

/** A PDF with pages of the given [width, height, rotation°] — landscape, rotated, cropped pages. */
export async function makePdfWithPages(
  pages: { size: [number, number]; rotation?: number; cropBox?: [number, number, number, number] }[],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const { size, rotation, cropBox } of pages) {
    const page = pdf.addPage(size);
    if (rotation) page.setRotation(degrees(rotation));
    if (cropBox) page.setCropBox(...cropBox);
  }
  return pdf.save({ useObjectStreams: false });
}

/** A PDF whose trailer says it is encrypted, as a password-protected export does. */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const text = Buffer.from(await makePdf(1)).toString("latin1");
  return Buffer.from(
    text.replace(/trailer\s*<</, "trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 >>"),
    "latin1",
  );
}

/** A PDF cut in half, as a broken download leaves it. */
export async function makeTruncatedPdf(): Promise<Uint8Array> {
  const bytes = await makePdf(2);
  return bytes.subarray(0, Math.floor(bytes.length / 3));
}

/** A PDF written by hand from its numbered objects' bodies (object 1 the catalog), with its cross-reference table. */
function handWrittenPdf(objects: Iterable<string>): Uint8Array {
  const parts = ["%PDF-1.7\n"];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  for (const body of objects) {
    const object = `${offsets.length + 1} 0 obj\n${body}\nendobj\n`;
    offsets.push(length);
    parts.push(object);
    length += Buffer.byteLength(object, "latin1");
  }
  const size = offsets.length + 1;
  const table = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(
    `xref\n0 ${size}\n0000000000 65535 f \n${table}`,
    `trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  );
  return Buffer.from(parts.join(""), "latin1");
}

/**
 * A valid one-page PDF that also holds `objects` small dictionaries: legal, a few MiB, and what
 * takes pdf-lib seconds to read (200,000 objects, 14 MiB: 1.6 s on a 2-core machine).
 */
export function makeManyObjectPdf(objects: number): Uint8Array {
  return handWrittenPdf(
    (function* () {
      yield "<< /Type /Catalog /Pages 2 0 R >>";
      yield "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
      yield "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>";
      for (let n = 0; n < objects; n++) yield "<< /A [1 2 3 4 5 6 7 8] /B (x) >>";
    })(),
  );
}

/**
 * A page-count bomb: a small file whose page tree names its one page `times` times, so that every
 * reader counts `times` pages (2,000,000 in 12 MB).
 */
export function makePageCountBomb(times: number): Uint8Array {
  return handWrittenPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${"3 0 R ".repeat(times)}] /Count ${times} >>`,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
  ]);
}

const CLAUSE =
  "The Provider shall perform the Services described in Schedule A with reasonable skill and care, " +
  "in accordance with good industry practice, and shall comply with all applicable laws. The Client " +
  "shall pay each undisputed invoice within thirty days of receipt. Either party may terminate this " +
  "Agreement on ninety days' written notice to the other party.";

/**
 * A contract as a word processor exports one: every page full of justified-looking text in an
 * embedded, subset TrueType font, with compressed content streams — what a benchmark should sign.
 */
export async function makeContractPdf(pages: number): Promise<Uint8Array> {
  const { default: fontkit } = await import("@pdf-lib/fontkit");
  const { readFile } = await import("node:fs/promises");
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const serif = await pdf.embedFont(await readFile(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSerif.ttf")), {
    subset: true,
  });
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const words = CLAUSE.split(" ");
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${p + 1}. Terms and conditions, part ${p + 1}`, { x: 56, y: 780, size: 13, font: bold });
    let line = "";
    let y = 750;
    let w = p;
    while (y > 80) {
      const word = words[w++ % words.length] as string;
      if (serif.widthOfTextAtSize(`${line} ${word}`, 10.5) > 483) {
        page.drawText(line, { x: 56, y, size: 10.5, font: serif });
        line = word;
        y -= 14;
      } else line = line ? `${line} ${word}` : word;
    }
  }
  return pdf.save();
}

/**
 * A scanned contract: every page one greyscale image at 150 dpi (lines of "text" as dark bars, a
 * little noise), as a scanner or a fax-to-PDF service makes one.
 */
export async function makeScannedPdf(pages: number): Promise<Uint8Array> {
  const { PNG } = await import("pngjs");
  const pdf = await PDFDocument.create();
  const width = 1240;
  const height = 1754;
  for (let p = 0; p < pages; p++) {
    const png = new PNG({ width, height, colorType: 0, inputColorType: 0, bitDepth: 8 });
    for (let y = 0; y < height; y++) {
      const line = y > 150 && y < height - 150 && y % 36 < 14;
      for (let x = 0; x < width; x++) {
        const ink = line && x > 120 && x < width - 120 && (x * 7 + y * 13 + p) % 23 > 4;
        png.data[y * width + x] = ink ? 40 : 245 - ((x * 31 + y * 17) % 7);
      }
    }
    const image = await pdf.embedPng(PNG.sync.write(png, { colorType: 0, inputColorType: 0 }));
    pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return pdf.save();
}
