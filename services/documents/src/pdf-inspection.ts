/**
 * Tells whether bytes are a PDF we can sign, how many pages it has and how large they are. Signing needs a document
 * every viewer opens the same way: encrypted and unreadable files are refused with a reason a
 * person understands.
 */
import { PDFDocument, type PDFPage } from "pdf-lib";

/** [width, height] in PDF points as a viewer shows the page: crop box, rotation applied. */
export type PageSize = [width: number, height: number];

export type Inspection =
  | { ok: true; pageCount: number; pageSizes: PageSize[] }
  | { ok: false; reason: "not_pdf" | "corrupt" | "encrypted" | "empty"; message: string };

const PDF_MAGIC = Buffer.from("%PDF-");

export const NOT_A_PDF = "the file is not a PDF (it does not start with %PDF-)";

/** Whether the first bytes announce a PDF (the header may follow up to 1 KiB of junk). */
export function looksLikePdf(head: Uint8Array): boolean {
  return Buffer.from(head.subarray(0, 1024)).includes(PDF_MAGIC);
}

export async function inspectPdf(bytes: Uint8Array): Promise<Inspection> {
  if (!looksLikePdf(bytes)) {
    return { ok: false, reason: "not_pdf", message: NOT_A_PDF };
  }
  let pdf: PDFDocument;
  let pageCount: number;
  let pageSizes: PageSize[];
  try {
    pdf = await PDFDocument.load(bytes, {
      updateMetadata: false,
      ignoreEncryption: true,
      throwOnInvalidObject: true,
    });
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
  return { ok: true, pageCount, pageSizes };
}

function visibleSize(page: PDFPage): PageSize {
  const { width, height } = page.getCropBox();
  const quarterTurns = Math.round(page.getRotation().angle / 90);
  return quarterTurns % 2 === 0 ? [width, height] : [height, width];
}
