/** PDFs made for the tests, never checked in as binaries. */
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";

export async function makePdf(pages: number, text = "Countersign test document"): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${text} — page ${i + 1}`, { x: 50, y: 780, size: 14, font });
  }
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
