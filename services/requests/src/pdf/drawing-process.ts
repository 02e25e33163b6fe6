/**
 * Where completed PDFs are drawn: a job process of their own (drawing-worker.mjs), one document
 * at a time, with a time and a memory limit. Drawing runs pdf-lib over every page of the
 * originals and decodes every drawn signature; on the service's own event loop a large document
 * held every call it served, and a hostile one could hold it for good. A drawing that runs out of
 * time or memory fails its completion, which is retried and, after its last attempt, reported.
 *
 * The one process is shared per workspace (the kit's FairQueue): every drawing names the workspace
 * it is for, and the workspaces take turns, so one asking for a hundred audit reports at once waits
 * behind its own, not in front of everyone else's.
 */
import { busyWhenFull, FairQueue, JobProcess, JobProcessEnded, JobTimedOut } from "@countersign/kit";
import type { StoredValue } from "../core/field-values.js";
import type { StoredField } from "../core/store/rows.js";
import type { Original } from "../core/stored-documents.js";
import type { DrawingJob, DrawingResult } from "./drawing-jobs.js";
import type { AuditReportFacts } from "./layout/audit-report.js";
import type { ValidationData } from "./pades/long-term.js";
import type { SealRoom } from "./seal.js";
import type { CertificateDetails, DrawnDocument } from "./sealed-document.js";
import type { VerificationReport } from "./verify/verify-document.js";

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

/**
 * One drawing at a time, the workspaces in turn. Someone waits for each drawing a caller asks for (a
 * signer's copy, an audit report, an attached image made a page, a file to verify), and all but a
 * copy hold what they are drawn from while they wait: a workspace may have 4 waiting, everyone
 * together 16, and the next is asked to come back in 5 s.
 */
const TURNS = { concurrency: 1, waitingPerParty: 4, maxWaiting: 16, retryAfterSeconds: 5 };

/**
 * Each kind of drawing: what it is in words, and whether it is background work. Background work
 * (a completion, the retention sweep's certificate pages) is never refused: nobody could be asked to
 * come back for it, and a refused completion would only spend one of its attempts. It takes its
 * workspace's turn like any other drawing, unbounded (FairQueue `runUnbounded`): its workers hold
 * it to one drawing at a time each, so it adds at most one per worker to what waits.
 */
const KINDS: Record<DrawingJob["kind"], { what: string; background: boolean }> = {
  draw: { what: "drawing the completed PDF", background: true },
  "validation-revision": { what: "drawing the completed PDF", background: true },
  "pages-from": { what: "taking the certificate's pages", background: true },
  verify: { what: "verifying the file", background: false },
  "signer-copy": { what: "drawing the signer's copy", background: false },
  "image-page": { what: "making the image a page", background: false },
  "audit-report": { what: "drawing the audit trail's report", background: false },
};

/** What a signer's copy is drawn from. */
export interface SignerCopyParts {
  originals: Original[];
  fields: StoredField[];
  values: Map<string, StoredValue>;
}

/**
 * Each method takes the workspace the drawing is for (`party`: whose turn it takes); a drawing a
 * caller waits for also takes the caller's `signal`, and gives its place up when the caller goes away.
 */
export class DrawingProcess {
  private readonly process: JobProcess<DrawingJob, DrawingResult>;
  private readonly turns = new FairQueue(TURNS);
  private closed = false;

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
    party: string,
    originals: Original[],
    fields: StoredField[],
    values: Map<string, StoredValue>,
    details: CertificateDetails,
    seal: SealRoom,
  ): Promise<DrawnDocument> {
    const job: DrawingJob = { kind: "draw", originals, fields, values: [...values], details, seal };
    const { bytes, signedPagesSha256 } = await this.run(party, job);
    return { bytes: bytes ?? new Uint8Array(), signedPagesSha256: signedPagesSha256 ?? "" };
  }

  /** The sealed `pdf` with a revision holding `data` and an empty document time-stamp of `timestampBytes`. */
  async addValidationRevision(
    party: string,
    pdf: Uint8Array,
    data: ValidationData,
    timestampBytes: number,
  ): Promise<Uint8Array> {
    const { bytes } = await this.run(party, { kind: "validation-revision", pdf, data, timestampBytes });
    return bytes ?? new Uint8Array();
  }

  /**
   * A signer's copy before completion: the originals with what is signed so far. What it is drawn
   * from is read (`read`) when its turn comes, so a copy waiting holds no document.
   */
  async drawSignerCopy(
    party: string,
    read: () => Promise<SignerCopyParts>,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const { bytes } = await this.asked(
      party,
      async () => {
        const { originals, fields, values } = await read();
        return this.drawn({ kind: "signer-copy", originals, fields, values: [...values] });
      },
      signal,
    );
    return bytes ?? new Uint8Array();
  }

  /** What `pdf` (anyone's file) proves. */
  async verify(party: string, pdf: Uint8Array, signal?: AbortSignal): Promise<VerificationReport> {
    const { report } = await this.run(party, { kind: "verify", pdf }, signal);
    if (!report) throw new Error("the drawing process answered a verification without a report");
    return report;
  }

  /** An image a signer attached, as a one-page PDF. */
  async imagePage(
    party: string,
    image: Uint8Array,
    type: "image/png" | "image/jpeg",
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const { bytes } = await this.run(party, { kind: "image-page", image, type }, signal);
    return bytes ?? new Uint8Array();
  }

  /** A sealed PDF's certificate of completion on its own: its pages from `from` (0-based) on. */
  async pagesFrom(party: string, pdf: Uint8Array, from: number): Promise<Uint8Array> {
    const { bytes } = await this.run(party, { kind: "pages-from", pdf, from });
    return bytes ?? new Uint8Array();
  }

  /** A request's audit trail as a PDF report. */
  async auditReport(party: string, facts: AuditReportFacts, signal?: AbortSignal): Promise<Uint8Array> {
    const { bytes } = await this.run(party, { kind: "audit-report", facts }, signal);
    return bytes ?? new Uint8Array();
  }

  /** `job` drawn in `party`'s turn: background work waits for it, a caller may be asked to come back. */
  private run(party: string, job: DrawingJob, signal?: AbortSignal): Promise<DrawingResult> {
    const task = () => this.drawn(job);
    return KINDS[job.kind].background
      ? this.turns.runUnbounded(party, task)
      : this.asked(party, task, signal);
  }

  /** `task` in `party`'s turn for a caller who waits for it: refused when too many wait already. */
  private asked<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.turns
      .run(party, task, signal)
      .catch(
        busyWhenFull(
          "the drawing process has as many drawings waiting as it takes (of this workspace's, or of everyone's)",
        ),
      );
  }

  private async drawn(job: DrawingJob): Promise<DrawingResult> {
    const { what } = KINDS[job.kind];
    // Closed while it waited: the service is stopping, and no child is started again for it.
    if (this.closed) throw new JobProcessEnded("the drawing process was closed");
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

  /** Ends the process: the drawing it runs and every one waiting fail. */
  close(): void {
    this.closed = true;
    this.process.close();
  }
}
