/**
 * Where completed PDFs are drawn: a job process of their own (drawing-worker.mjs), one document
 * at a time, with a time and a memory limit. Drawing runs pdf-lib over every page of the
 * originals and decodes every drawn signature; on the service's own event loop a large document
 * held every call it served, and a hostile one could hold it for good. A drawing that runs out of
 * time or memory fails its completion, which is retried and, after its last attempt, reported.
 */
import { JobProcess, JobProcessEnded, JobTimedOut } from "@countersign/kit";
import type { StoredValue } from "../field-values.js";
import type { StoredField } from "../store.js";
import type { VerificationReport } from "../verification/verify-document.js";
import type { AuditReportFacts } from "./audit-report.js";
import type { DrawingJob, DrawingResult } from "./drawing-jobs.js";
import type { ValidationData } from "./pades/long-term.js";
import type { SealRoom } from "./seal.js";
import type { CertificateDetails, DrawnDocument, Original } from "./sealed-document.js";

export interface DrawingLimits {
  /** How long one document may take; documents of 2,000 pages draw in well under a minute. */
  timeoutMs: number;
  /** The process's heap: pdf-lib holds about 1 KiB per PDF object, decoded drawings 4 bytes a pixel. */
  heapMb: number;
}

export const DEFAULT_DRAWING_LIMITS: DrawingLimits = { timeoutMs: 120_000, heapMb: 512 };

/** The documents could not be drawn on: their own fault or their size, which a retry will not change. */
export class DrawingFailed extends Error {
  override name = "DrawingFailed";
}

export class DrawingProcess {
  private readonly process: JobProcess<DrawingJob, DrawingResult>;

  constructor(private readonly limits: DrawingLimits = DEFAULT_DRAWING_LIMITS) {
    this.process = new JobProcess(new URL("./drawing-worker.mjs", import.meta.url), {
      timeoutMs: limits.timeoutMs,
      // Fonts are parsed once per process: one is kept a while between completions.
      idleMs: 5 * 60_000,
      maxHeapMb: limits.heapMb,
    });
  }

  /** The completed document, drawn with the room for its seal. */
  async draw(
    originals: Original[],
    fields: StoredField[],
    values: Map<string, StoredValue>,
    details: CertificateDetails,
    seal: SealRoom,
  ): Promise<DrawnDocument> {
    const job: DrawingJob = { kind: "draw", originals, fields, values: [...values], details, seal };
    const { bytes, signedPagesSha256 } = await this.run(job);
    return { bytes: bytes ?? new Uint8Array(), signedPagesSha256: signedPagesSha256 ?? "" };
  }

  /** The sealed `pdf` with a revision holding `data` and an empty document time-stamp of `timestampBytes`. */
  async addValidationRevision(
    pdf: Uint8Array,
    data: ValidationData,
    timestampBytes: number,
  ): Promise<Uint8Array> {
    const { bytes } = await this.run({ kind: "validation-revision", pdf, data, timestampBytes });
    return bytes ?? new Uint8Array();
  }

  /** A signer's copy before completion: the originals with what is signed so far. */
  async drawSignerCopy(
    originals: Original[],
    fields: StoredField[],
    values: Map<string, StoredValue>,
  ): Promise<Uint8Array> {
    const { bytes } = await this.run({ kind: "signer-copy", originals, fields, values: [...values] });
    return bytes ?? new Uint8Array();
  }

  /** What `pdf` (anyone's file) proves. */
  async verify(pdf: Uint8Array): Promise<VerificationReport> {
    const { report } = await this.run({ kind: "verify", pdf });
    if (!report) throw new Error("the drawing process answered a verification without a report");
    return report;
  }

  /** An image a signer attached, as a one-page PDF. */
  async imagePage(image: Uint8Array, type: "image/png" | "image/jpeg"): Promise<Uint8Array> {
    const { bytes } = await this.run({ kind: "image-page", image, type });
    return bytes ?? new Uint8Array();
  }

  /** A sealed PDF's certificate of completion on its own: its pages from `from` (0-based) on. */
  async pagesFrom(pdf: Uint8Array, from: number): Promise<Uint8Array> {
    const { bytes } = await this.run({ kind: "pages-from", pdf, from });
    return bytes ?? new Uint8Array();
  }

  /** A request's audit trail as a PDF report. */
  async auditReport(facts: AuditReportFacts): Promise<Uint8Array> {
    const { bytes } = await this.run({ kind: "audit-report", facts });
    return bytes ?? new Uint8Array();
  }

  private async run(job: DrawingJob): Promise<DrawingResult> {
    const what = {
      verify: "verifying the file",
      "signer-copy": "drawing the signer's copy",
      "image-page": "making the image a page",
      "audit-report": "drawing the audit trail's report",
      "pages-from": "taking the certificate's pages",
      draw: "drawing the completed PDF",
      "validation-revision": "drawing the completed PDF",
    }[job.kind];
    try {
      return await this.process.run(job);
    } catch (err) {
      if (err instanceof JobTimedOut)
        throw new DrawingFailed(`${what} took longer than ${this.limits.timeoutMs / 1000} s`);
      if (err instanceof JobProcessEnded && err.outOfMemory)
        throw new DrawingFailed(`${what} needed more than ${this.limits.heapMb} MiB`);
      // The process crashed or the service is stopping: not the documents' fault.
      if (err instanceof JobProcessEnded) throw err;
      // pdf-lib's own words are about its internals ("reading 'Pages'"); the log keeps them as the cause.
      throw new DrawingFailed("one of the documents could not be read to draw the signatures on it", {
        cause: err,
      });
    }
  }

  close(): void {
    this.process.close();
  }
}
