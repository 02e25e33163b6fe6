/**
 * The floor completion is measured against (issue 36, decision 6): the same work done the thinnest
 * way pdf-lib allows. The same PDF loaded, every value drawn on its field in the same faces (Caveat
 * for typed names, Noto Sans for text, ZapfDingbats for ticks, each drawing embedded once), the pages
 * hashed, a certificate page listing the same facts with each signer's mark, the same seal room and
 * the same seal. What it leaves out is what makes the product's drawing right rather than fast:
 * HarfBuzz's shaping and subsetting (pdf-lib's own subsetting dropped Caveat's alternates), fallback
 * faces for other scripts, line breaking and the certificate's layout.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import subsetFont from "subset-font";
import type { StoredValue } from "../../services/requests/src/core/field-values.js";
import { faceFor } from "../../services/requests/src/core/font-stacks.js";
import type { StoredField } from "../../services/requests/src/core/store/rows.js";
import { addValidationRevision } from "../../services/requests/src/pdf/pades/long-term.js";
import { laySealRoom } from "../../services/requests/src/pdf/pades/signature-room.js";
import type { Seal } from "../../services/requests/src/pdf/seal.js";
import type { CertificateDetails } from "../../services/requests/src/pdf/sealed-document.js";

const INK = rgb(0.07, 0.13, 0.36);

/** Every character the benchmark's values and certificate use. */
const CHARACTERS = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("")}·“”’–—`;

const sfnts = new Map<string, Promise<Uint8Array>>();

/**
 * The face of `stack` for Latin as TrueType, made once: the faces are kept as WOFF2, which
 * pdf-lib's fontkit reads but cannot subset (RangeError in its TTF subset). The product turns them
 * into sfnt on every completion (subset-font); the floor is given that for free.
 */
function faceSfnt(stack: "handwriting" | "text"): Promise<Uint8Array> {
  let sfnt = sfnts.get(stack);
  if (!sfnt) {
    const face = faceFor(stack, "A".codePointAt(0) as number);
    if (!face) throw new Error(`no ${stack} face draws Latin`);
    sfnt = subsetFont(readFileSync(face.file), CHARACTERS, { targetFormat: "truetype" });
    sfnts.set(stack, sfnt);
  }
  return sfnt;
}

/** `text` in `font` as large as fits the box, at most `largest` points, from its bottom-left. */
function drawFitted(page: PDFPage, field: StoredField, text: string, font: PDFFont, largest: number): void {
  const size = Math.min(largest, field.height * 0.8, (field.width / font.widthOfTextAtSize(text, 1)) * 0.95);
  const y = page.getHeight() - field.y - field.height + (field.height - size) / 2;
  page.drawText(text, { x: field.x, y, size, font, color: INK });
}

function drawImage(page: PDFPage, field: StoredField, image: PDFImage): void {
  const scale = Math.min(field.width / image.width, field.height / image.height);
  const y = page.getHeight() - field.y - field.height;
  page.drawImage(image, { x: field.x, y, width: image.width * scale, height: image.height * scale });
}

export async function floorCompletion(
  pdf: Uint8Array,
  fields: StoredField[],
  values: Map<string, StoredValue>,
  details: CertificateDetails,
  seal: Seal,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  doc.registerFontkit(fontkit);
  const handwriting = await doc.embedFont(await faceSfnt("handwriting"), { subset: true });
  const text = await doc.embedFont(await faceSfnt("text"), { subset: true });
  const symbols = await doc.embedFont(StandardFonts.ZapfDingbats);
  const images = new Map<string, PDFImage>();
  const image = async (png: string) => {
    let embedded = images.get(png);
    if (!embedded) {
      embedded = await doc.embedPng(Buffer.from(png, "base64"));
      images.set(png, embedded);
    }
    return embedded;
  };
  for (const field of fields) {
    const value = values.get(field.id);
    if (!value) continue;
    const page = doc.getPage(field.page - 1);
    if (value.kind === "typed") drawFitted(page, field, value.text, handwriting, 48);
    else if (value.kind === "drawn") drawImage(page, field, await image(value.png));
    else if (value.kind === "text") drawFitted(page, field, value.text, text, 12);
    else if (value.kind === "checkbox" && value.checked) drawFitted(page, field, "✔", symbols, 12);
  }
  const signedPagesSha256 = createHash("sha256")
    .update(await doc.save({ useObjectStreams: false }))
    .digest("hex");

  const certificate = doc.addPage([595.28, 841.89]);
  let y = 790;
  const line = (words: string, size = 10, font = text) => {
    certificate.drawText(words, { x: 50, y, size, font });
    y -= size * 1.6;
  };
  line("Certificate of completion", 18);
  line(`${details.title} · request ${details.requestId}`);
  line(`Completed ${details.completedAt.toISOString()} · sent by ${details.sentBy}`);
  line(`Signed pages SHA-256 ${signedPagesSha256}`, 8);
  line(`Audit trail: ${details.audit.entries} entries, head ${details.audit.headHash}`, 8);
  for (const recipient of details.recipients) {
    line(`${recipient.name} <${recipient.email}> · ${recipient.role}`, 11);
    line(`viewed ${recipient.viewedAt?.toISOString()} · signed ${recipient.signedAt?.toISOString()}`, 8);
    line(`from ${recipient.ip} · ${recipient.userAgent}`, 7);
    const mark = recipient.signature;
    const box = { x: 50, y: 841.89 - y, width: 150, height: 36 } as StoredField;
    if (mark?.kind === "typed") drawFitted(certificate, box, mark.text, handwriting, 24);
    else if (mark?.kind === "drawn") drawImage(certificate, box, await image(mark.png));
    y -= 44;
  }
  doc.setProducer("Countersign");
  doc.setModificationDate(details.completedAt);
  laySealRoom(doc, {
    name: seal.room.commonName,
    reason: `Completed: ${details.title}`,
    signingTime: details.completedAt,
    contentsBytes: seal.room.contentsBytes,
    requestId: details.requestId,
    test: false,
  });
  const bytes = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return (await seal.sign(bytes, addValidationRevision)).bytes;
}
