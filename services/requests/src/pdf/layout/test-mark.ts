/**
 * The mark a test key's output carries on every page, the certificate's included: a band across the
 * top and a word across the middle that no reader can miss, drawn before the seal so that the seal
 * covers it and nobody can take it off unseen.
 *
 * A page is marked before the document is first saved with it: pdf-lib keeps a page's content
 * stream as it was at its first save, and would drop what is drawn on it after.
 */
import { degrees, type PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";

export const TEST_MARK = "TEST — NOT LEGALLY BINDING";

const RED = rgb(0.78, 0.1, 0.12);

/** What marks pages of `doc` (its font embedded once, for all of them). */
export async function testMarker(doc: PDFDocument): Promise<(pages: PDFPage[]) => void> {
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  return (pages) => {
    for (const page of pages) mark(page, font);
  };
}

function mark(page: PDFPage, font: PDFFont): void {
  // The visible box, which a page may crop smaller than its media.
  const { x, y, width, height } = page.getCropBox();
  const band = Math.max(14, Math.min(width, height) * 0.035);
  page.drawRectangle({ x, y: y + height - band, width, height: band, color: RED, opacity: 0.9 });
  drawCentred(page, font, band * 0.6, { x: x + width / 2, y: y + height - band * 0.72 }, 0, {
    color: rgb(1, 1, 1),
    opacity: 1,
  });
  const angle = Math.atan2(height, width);
  const size = (Math.hypot(width, height) * 0.7) / (font.widthOfTextAtSize(TEST_MARK, 1) || 1);
  drawCentred(page, font, size, { x: x + width / 2, y: y + height / 2 }, angle, {
    color: RED,
    opacity: 0.18,
  });
}

/** Draws the mark centred on `centre`, turned by `angle` (radians) about it. */
function drawCentred(
  page: PDFPage,
  font: PDFFont,
  size: number,
  centre: { x: number; y: number },
  angle: number,
  look: { color: ReturnType<typeof rgb>; opacity: number },
): void {
  const halfWidth = font.widthOfTextAtSize(TEST_MARK, size) / 2;
  const halfHeight = font.heightAtSize(size, { descender: false }) / 2;
  // The text's start: back along its own line, and down across it, from the centre.
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  page.drawText(TEST_MARK, {
    x: centre.x - halfWidth * cos + halfHeight * sin,
    y: centre.y - halfWidth * sin - halfHeight * cos,
    size,
    font,
    rotate: degrees((angle * 180) / Math.PI),
    color: look.color,
    opacity: look.opacity,
  });
}
