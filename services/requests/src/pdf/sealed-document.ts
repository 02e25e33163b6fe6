/**
 * Draws a completed request's PDF: the originals joined in order, every value drawn on its field,
 * the certificate of completion appended, and the room for the one seal over the whole. Pure:
 * bytes in, bytes out, so the drawing process (drawing-process.ts) and the benchmark run the same
 * code; the seal itself is signed where the key is (Seal.sign). A signer's copy before completion
 * is the same pages, drawn alike, without certificate or seal.
 */
import { createHash } from "node:crypto";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { StoredValue } from "../core/field-values.js";
import type { StoredField } from "../core/store/rows.js";
import type { Original } from "../core/stored-documents.js";
import { appendCertificate, type CertificateFacts } from "./layout/certificate-page.js";
import { stampFields } from "./layout/field-stamps.js";
import { TEST_MARK, testMarker } from "./layout/test-mark.js";
import { Typesetter } from "./layout/typesetter.js";
import { laySealRoom } from "./pades/signature-room.js";
import type { SealRoom } from "./seal.js";

export interface DrawnDocument {
  /** The PDF with its seal's room, not yet signed. */
  bytes: Uint8Array;
  signedPagesSha256: string;
}

export type CertificateDetails = Omit<
  CertificateFacts,
  "documents" | "signedPagesSha256" | "sealedBy" | "evidence"
>;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The originals joined in order, every value drawn on its field in the faces the signing page shows. */
async function drawFilledPages(
  originals: Original[],
  fields: StoredField[],
  values: Map<string, StoredValue>,
): Promise<{ doc: PDFDocument; typesetter: Typesetter; pageCounts: number[] }> {
  const [first, ...rest] = originals;
  if (!first) throw new Error("a request without documents cannot be completed");
  // The first original is kept as it is, with its outline and metadata; the others join it.
  const doc = await PDFDocument.load(first.bytes, { updateMetadata: false });
  const firstPage = new Map([[first.id, 0]]);
  const pageCounts = [doc.getPageCount()];
  for (const original of rest) {
    const source = await PDFDocument.load(original.bytes);
    firstPage.set(original.id, doc.getPageCount());
    const pages = await doc.copyPages(source, source.getPageIndices());
    for (const page of pages) doc.addPage(page);
    pageCounts.push(source.getPageCount());
  }
  const typesetter = new Typesetter();
  await stampFields(doc, firstPage, fields, values, {
    typesetter,
    symbols: await doc.embedFont(StandardFonts.ZapfDingbats),
  });
  await typesetter.finish(doc);
  return { doc, typesetter, pageCounts };
}

/** A signer's copy before the request completes: what is signed so far, on the originals' pages. */
export async function drawSignerCopy(
  originals: Original[],
  fields: StoredField[],
  values: Map<string, StoredValue>,
): Promise<Uint8Array> {
  const { doc } = await drawFilledPages(originals, fields, values);
  doc.setProducer("Countersign");
  return doc.save();
}

export async function drawCompletedDocument(
  originals: Original[],
  fields: StoredField[],
  values: Map<string, StoredValue>,
  details: CertificateDetails,
  seal: SealRoom,
): Promise<DrawnDocument> {
  const { doc, typesetter, pageCounts } = await drawFilledPages(originals, fields, values);
  // A test's signed pages are marked before their hash is taken; the certificate's once drawn.
  const markTest = details.test ? await testMarker(doc) : undefined;
  markTest?.(doc.getPages());
  const signedPagesSha256 = sha256(await doc.save({ useObjectStreams: false }));
  const signedPages = doc.getPageCount();
  const facts: CertificateFacts = {
    ...details,
    documents: originals.map((o, i) => ({
      filename: o.filename,
      pageCount: pageCounts[i] ?? 0,
      sha256: o.sha256,
    })),
    signedPagesSha256,
    sealedBy: seal.commonName,
    evidence: { level: seal.level, timestampAuthority: seal.timestampAuthority },
  };
  await appendCertificate(doc, facts, typesetter);
  await typesetter.finish(doc);
  markTest?.(doc.getPages().slice(signedPages));
  doc.setProducer("Countersign");
  doc.setModificationDate(details.completedAt);
  laySealRoom(doc, {
    name: seal.commonName,
    reason: `${details.test ? `${TEST_MARK}. ` : ""}Completed: ${details.title}`.slice(0, 200),
    signingTime: details.completedAt,
    contentsBytes: seal.contentsBytes,
    requestId: details.requestId,
    test: details.test,
  });
  // The room's byte range is found by scanning: object streams would compress it away.
  const bytes = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return { bytes, signedPagesSha256 };
}
