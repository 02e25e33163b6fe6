/**
 * Draws what the signers filled in onto the pages. Field boxes are in points from the top-left of
 * the page as a viewer shows it (crop box, rotation applied), so each box is mapped back into the
 * page's own coordinates and its content rotated with the page, to stand upright on screen.
 */
import { degrees, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import type { StoredValue } from "../field-values.js";
import type { StoredField } from "../store.js";
import { writes } from "./fonts.js";

export interface StampFonts {
  /** Caveat when a typed signature needs it. */
  handwriting?: PDFFont;
  /** What text values are written in; a typed signature Caveat cannot write, too. */
  regular: PDFFont;
  symbols: PDFFont;
}

const INK = rgb(0.07, 0.13, 0.36);

/** A point of the visible page (from its top-left) in the page's user space. */
function userPoint(page: PDFPage, vx: number, vy: number): { x: number; y: number } {
  const box = page.getCropBox();
  switch (((page.getRotation().angle % 360) + 360) % 360) {
    case 90:
      return { x: box.x + vy, y: box.y + vx };
    case 180:
      return { x: box.x + box.width - vx, y: box.y + vy };
    case 270:
      return { x: box.x + box.width - vy, y: box.y + box.height - vx };
    default:
      return { x: box.x + vx, y: box.y + box.height - vy };
  }
}

/** The largest size, up to `max`, at which `text` fits `width`. */
function fittingSize(font: PDFFont, text: string, width: number, max: number): number {
  const atOne = font.widthOfTextAtSize(text, 1);
  return Math.max(4, Math.min(max, atOne > 0 ? width / atOne : max));
}

/** Draws `text` in the box, left-aligned and vertically centred, shrunk to fit. */
function drawInBox(page: PDFPage, field: StoredField, text: string, font: PDFFont, maxSize: number): void {
  const lineText = text.replace(/\s*\n\s*/g, " ");
  const size = fittingSize(font, lineText, field.width - 4, Math.min(maxSize, field.height * 0.8));
  const baseline = field.y + field.height / 2 + size * 0.35;
  const at = userPoint(page, field.x + 2, baseline);
  page.drawText(lineText, {
    x: at.x,
    y: at.y,
    size,
    font,
    color: INK,
    rotate: degrees(page.getRotation().angle),
  });
}

function drawImage(page: PDFPage, field: StoredField, image: PDFImage): void {
  const scale = Math.min(field.width / image.width, field.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  // Bottom-left of the image on the visible page, centred in the box.
  const at = userPoint(page, field.x + (field.width - width) / 2, field.y + (field.height + height) / 2);
  page.drawImage(image, { x: at.x, y: at.y, width, height, rotate: degrees(page.getRotation().angle) });
}

function drawCheck(page: PDFPage, field: StoredField, fonts: StampFonts): void {
  drawInBox(page, field, "✔", fonts.symbols, field.height);
}

/**
 * Draws every value on its field. `firstPage` gives, per document id, the index in `doc` of that
 * document's first page (documents are joined in order).
 */
export async function stampFields(
  doc: PDFDocument,
  firstPage: Map<string, number>,
  fields: StoredField[],
  values: Map<string, StoredValue>,
  fonts: StampFonts,
): Promise<void> {
  const images = new Map<string, PDFImage>();
  for (const field of fields) {
    const value = values.get(field.id);
    const start = firstPage.get(field.documentId);
    if (!value || start === undefined) continue;
    const page = doc.getPage(start + field.page - 1);
    switch (value.kind) {
      case "typed":
        drawInBox(
          page,
          field,
          value.text,
          fonts.handwriting && writes(fonts.handwriting, [value.text]) ? fonts.handwriting : fonts.regular,
          48,
        );
        break;
      case "drawn": {
        // One image per drawing: a signer's signature on ten pages is embedded once.
        let image = images.get(value.png);
        if (!image) {
          image = await doc.embedPng(Buffer.from(value.png, "base64"));
          images.set(value.png, image);
        }
        drawImage(page, field, image);
        break;
      }
      case "text":
        drawInBox(page, field, value.text, fonts.regular, 12);
        break;
      case "checkbox":
        if (value.checked) drawCheck(page, field, fonts);
        break;
    }
  }
}
