/**
 * Draws what the signers filled in onto the pages. Field boxes are in points from the top-left of
 * the page as a viewer shows it (crop box, rotation applied), so each box is mapped back into the
 * page's own coordinates and its content rotated with the page, to stand upright on screen.
 */
import { degrees, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import type { StoredValue } from "../../core/field-values.js";
import type { StackName } from "../../core/font-stacks.js";
import type { StoredField } from "../../core/store/rows.js";
import { SEALED_DAYS } from "./sealed-days.js";
import { type BaseDirection, directionOf, type Typesetter } from "./typesetter.js";

export interface StampFonts {
  /** Sets typed signatures and text values (drawn once the typesetter finishes). */
  typesetter: Typesetter;
  /** ZapfDingbats, for the tick of a checked box. */
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

/**
 * Where a value starts in its box: at the left edge, or at the edge its own direction starts from
 * (the signing page's dir="auto" input: an Arabic or Hebrew value stands at the right).
 */
type Alignment = "left" | "own";

/**
 * Draws `text` in the box, vertically centred, shrunk to fit its width, from the edge `align` says;
 * reading at its base as `base` says (a value typed or picked reads as its first letter does, as on
 * the page).
 */
async function drawInBox(
  page: PDFPage,
  field: StoredField,
  text: string,
  stack: StackName,
  maxSize: number,
  typesetter: Typesetter,
  { base = "auto", align = "left" }: { base?: BaseDirection; align?: Alignment } = {},
): Promise<void> {
  const lineText = text.replace(/\s*\n\s*/g, " ");
  const atOne = await typesetter.width(stack, lineText, 1, base);
  const largest = Math.min(maxSize, field.height * 0.8);
  const size = Math.max(4, Math.min(largest, atOne > 0 ? (field.width - 4) / atOne : largest));
  const baseline = field.y + field.height / 2 + size * 0.35;
  const fromRight = align === "own" && base === "auto" && directionOf(lineText) === "rtl";
  const left = fromRight ? field.x + field.width - 2 - atOne * size : field.x + 2;
  const at = userPoint(page, left, baseline);
  typesetter.draw(page, stack, lineText, {
    x: at.x,
    y: at.y,
    size,
    color: INK,
    rotate: page.getRotation().angle,
    base,
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

/** The tick of a checked box, centred in it. */
function drawCheck(page: PDFPage, field: StoredField, symbols: PDFFont): void {
  const size = Math.min(field.height, field.width) * 0.8;
  const width = symbols.widthOfTextAtSize("✔", size);
  const at = userPoint(page, field.x + (field.width - width) / 2, field.y + field.height / 2 + size * 0.35);
  page.drawText("✔", {
    x: at.x,
    y: at.y,
    size,
    font: symbols,
    color: INK,
    rotate: degrees(page.getRotation().angle),
  });
}

/** The dot of a chosen radio button, centred in it, as the page draws one. */
function drawChosen(page: PDFPage, field: StoredField): void {
  const size = Math.min(field.height, field.width) * 0.25;
  const at = userPoint(page, field.x + field.width / 2, field.y + field.height / 2);
  page.drawCircle({ x: at.x, y: at.y, size, color: INK });
}

const PAPER = rgb(1, 1, 1);

/** Paints white the text tag a field was placed on (its cover), under whatever is drawn there. */
function coverTag(page: PDFPage, cover: NonNullable<StoredField["cover"]>): void {
  const from = userPoint(page, cover.x, cover.y);
  const to = userPoint(page, cover.x + cover.width, cover.y + cover.height);
  page.drawRectangle({
    x: Math.min(from.x, to.x),
    y: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y),
    color: PAPER,
  });
}

/**
 * Draws every value on its field, over the text tags fields were placed on, which are covered first. `firstPage` gives, per document id, the index in `doc` of that
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
  // Every tag, filled in or not (an optional field left empty, one its condition hid), before any value.
  for (const field of fields) {
    const start = firstPage.get(field.documentId);
    if (field.cover && start !== undefined) coverTag(doc.getPage(start + field.page - 1), field.cover);
  }
  for (const field of fields) {
    const value = values.get(field.id);
    const start = firstPage.get(field.documentId);
    if (!value || start === undefined) continue;
    const page = doc.getPage(start + field.page - 1);
    switch (value.kind) {
      case "typed":
        await drawInBox(page, field, value.text, "handwriting", 48, fonts.typesetter, { base: "ltr" });
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
        // As the page's inputs and dropdowns show them; a date signed stands at the left, as there.
        await drawInBox(page, field, value.text, "text", 12, fonts.typesetter, {
          align: field.type === "date_signed" ? "left" : "own",
        });
        break;
      case "date":
        // One form for the whole document, not the signer's language (sealed-days.ts).
        await drawInBox(page, field, SEALED_DAYS.write(value.date), "text", 12, fonts.typesetter);
        break;
      case "attachment":
        await drawInBox(page, field, value.filename, "text", 12, fonts.typesetter);
        break;
      case "checkbox":
        if (!value.checked) break;
        if (field.type === "radio") drawChosen(page, field);
        else drawCheck(page, field, fonts.symbols);
        break;
    }
  }
}
