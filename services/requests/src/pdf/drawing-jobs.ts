/**
 * What the drawing process does (drawing-worker.mjs loads this module): draw a completed document
 * with the room for its seal, or a signer's copy before completion, append to a sealed one the
 * revision with its validation data and an empty document time-stamp, verify a PDF anyone sent,
 * make an image a signer attached a page, or draw an audit trail's report. Each reads or writes
 * whole files with pdf-lib, which the service's event loop must not wait on — least of all for a
 * file from a stranger.
 */
import { imagePage } from "@countersign/kit/image-page.js";
import { PDFDocument } from "pdf-lib";
import type { StoredValue } from "../core/field-values.js";
import type { StoredField } from "../core/store/rows.js";
import type { Original } from "../core/stored-documents.js";
import { type AuditReportFacts, drawAuditReport } from "./layout/audit-report.js";
import { addValidationRevision, type ValidationData } from "./pades/long-term.js";
import type { SealRoom } from "./seal.js";
import {
  type CertificateDetails,
  type DrawnDocument,
  drawCompletedDocument,
  drawSignerCopy,
} from "./sealed-document.js";
import { type VerificationReport, verifyDocument } from "./verify/verify-document.js";

export type DrawingJob =
  | {
      kind: "draw";
      originals: Original[];
      fields: StoredField[];
      /** The values as [fieldId, value] pairs: kept as pairs, as the job crosses to the process. */
      values: [string, StoredValue][];
      details: CertificateDetails;
      seal: SealRoom;
    }
  | { kind: "signer-copy"; originals: Original[]; fields: StoredField[]; values: [string, StoredValue][] }
  | { kind: "validation-revision"; pdf: Uint8Array; data: ValidationData; timestampBytes: number }
  | { kind: "verify"; pdf: Uint8Array }
  | { kind: "image-page"; image: Uint8Array; type: "image/png" | "image/jpeg" }
  | { kind: "audit-report"; facts: AuditReportFacts }
  | { kind: "pages-from"; pdf: Uint8Array; from: number };

/** A PDF (a drawing says, besides, what its signed pages hashed to), or a verification's report. */
export type DrawingResult = { bytes?: Uint8Array; report?: VerificationReport } & Partial<
  Omit<DrawnDocument, "bytes">
>;

/** The pages of `pdf` from the 0-based page `from` on, as a PDF of their own. */
async function pagesFrom(pdf: Uint8Array, from: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(pdf, { updateMetadata: false });
  const count = source.getPageCount();
  if (from < 0 || from >= count) throw new Error(`the PDF has ${count} pages, none from page ${from + 1} on`);
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(
    source,
    Array.from({ length: count - from }, (_, i) => from + i),
  ))
    out.addPage(page);
  out.setProducer("Countersign");
  return out.save();
}

export async function runDrawingJob(job: DrawingJob): Promise<DrawingResult> {
  switch (job.kind) {
    case "draw":
      return drawCompletedDocument(job.originals, job.fields, new Map(job.values), job.details, job.seal);
    case "signer-copy":
      return { bytes: await drawSignerCopy(job.originals, job.fields, new Map(job.values)) };
    case "validation-revision":
      return { bytes: await addValidationRevision(job.pdf, job.data, job.timestampBytes) };
    case "verify":
      return { report: await verifyDocument(job.pdf) };
    case "image-page":
      return { bytes: await imagePage(job.image, job.type) };
    case "audit-report":
      return { bytes: await drawAuditReport(job.facts) };
    case "pages-from":
      return { bytes: await pagesFrom(job.pdf, job.from) };
  }
}
