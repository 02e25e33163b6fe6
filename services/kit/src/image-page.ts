/**
 * An image as a page of its own, for the services that keep every document as a PDF: an image a
 * signer attached (requests) and an image uploaded to be signed (documents' converter). pdf-lib
 * decodes a PNG whole: callers run this in a job process, after checking the image's size. A JPEG
 * is embedded as it is coded, so its metadata is taken out first; a PNG's pixels are re-encoded,
 * which leaves its text chunks behind.
 */
import { PDFDocument } from "pdf-lib";
import { withoutJpegMetadata } from "./jpeg-metadata.js";

/** The page an image is shown on, at most A4's size, in points. */
const A4 = { width: 595.28, height: 841.89 };

/** An image on a page of its own, shrunk to fit A4 and never enlarged. */
export async function imagePage(content: Uint8Array, type: "image/png" | "image/jpeg"): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image =
    type === "image/png" ? await pdf.embedPng(content) : await pdf.embedJpg(withoutJpegMetadata(content));
  const scale = Math.min(1, A4.width / image.width, A4.height / image.height);
  const page = pdf.addPage([image.width * scale, image.height * scale]);
  page.drawImage(image, { x: 0, y: 0, width: image.width * scale, height: image.height * scale });
  pdf.setProducer("Countersign");
  return pdf.save();
}
