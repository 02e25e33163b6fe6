/**
 * Tells whether an upload is a PDF we can sign, how many pages it has and how large they are, and
 * its SHA-256; and, for an original, makes it safe to sign (pdf-sanitizer.mjs). Signing needs a document every viewer opens the same way: encrypted and unreadable
 * files are refused with a reason a person understands. pdf-lib reads the file in a job process
 * (pdf-inspection-worker.mjs): a legal PDF of 300,000 small objects (21 MiB) took it 6–7 s, all of
 * it on the service's event loop, and every file read whole was garbage in the service's heap. A
 * file it has not read in time, or in its memory, is refused; the service goes on whatever the file.
 * The one process is shared per workspace (the kit's FairQueue): a workspace whose files each take
 * the whole time limit waits behind its own, not in front of everyone else's.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { JobProcess, JobProcessEnded, JobTimedOut } from "@countersign/kit";
import { PdfTurns } from "./pdf-turns.js";

/** [width, height] in PDF points as a viewer shows the page: crop box, rotation applied. */
export type PageSize = [width: number, height: number];

export type Inspection =
  | { ok: true; pageCount: number; pageSizes: PageSize[] }
  | {
      ok: false;
      reason: "not_pdf" | "corrupt" | "encrypted" | "empty" | "too_complex" | "too_many_pages" | "unsafe";
      message: string;
    };

/**
 * The upload made safe to sign (pdf-sanitizer.mjs): the file the job process wrote it to, its size
 * and SHA-256, and what went. It never crosses to the service as bytes: a 25 MiB file did, and grew
 * the service by 25 MiB for every such upload until a rare collection.
 */
export interface SanitizedFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** In words: "JavaScript", "earlier revisions", "form fields (flattened into the pages as they look)". */
  removed: string[];
}

export interface InspectedFile {
  /** The bytes' SHA-256 in hex, when it was asked for. */
  sha256?: string;
  inspection: Inspection;
  /** Present when sanitizing was asked for and the file needed it. */
  sanitized?: SanitizedFile;
}

type Job = ({ path: string } | { bytes: Uint8Array }) & {
  hash: boolean;
  maxPages: number;
  /** Where to write the file made safe to sign, when it is asked for and the file needs it. */
  sanitizeTo?: string;
};

export interface PdfInspectorOptions {
  /** How long pdf-lib may take over one document. */
  timeoutMs?: number;
  /** The most pages a document may have. */
  maxPages?: number;
}

/** A contract of a thousand pages is long; every page costs the signing page and the completion. */
export const DEFAULT_MAX_DOCUMENT_PAGES = 1000;

/** Legitimate PDFs of 25 MiB read in well under a second; a hostile one is stopped here. */
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * pdf-lib holds about 1 KiB a PDF object: 309 MiB for a legal 21 MiB PDF of 300,000 objects. The
 * documents pod is limited to 768 MiB (deploy/base/documents): the process ends before the pod does.
 */
const HEAP_LIMIT_MB = 512;

export class PdfInspector {
  private readonly process: JobProcess<Job, InspectedFile>;
  private readonly turns = new PdfTurns("the PDF reader");
  private readonly timeoutMs: number;
  private readonly maxPages: number;

  constructor({
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxPages = DEFAULT_MAX_DOCUMENT_PAGES,
  }: PdfInspectorOptions = {}) {
    this.timeoutMs = timeoutMs;
    this.maxPages = maxPages;
    this.process = new JobProcess(new URL("./pdf-inspection-worker.mjs", import.meta.url), {
      timeoutMs,
      idleMs: 60_000,
      maxHeapMb: HEAP_LIMIT_MB,
    });
  }

  /**
   * The file at `path`, read whole by the process; the caller keeps it there until this settles.
   * With `sanitizeTo`, a file that needs making safe is written there, for the caller to take.
   */
  file(
    path: string,
    {
      hash,
      sanitizeTo,
      party,
      signal,
    }: { hash: boolean; sanitizeTo?: string; party: string; signal?: AbortSignal },
  ): Promise<InspectedFile> {
    return this.inTurn(party, { path, hash, maxPages: this.maxPages, sanitizeTo }, signal);
  }

  /** Bytes held here (a stored document of `party`'s), copied to the process. */
  async bytes(bytes: Uint8Array, party: string): Promise<Inspection> {
    return (await this.inTurn(party, { bytes, hash: false, maxPages: this.maxPages })).inspection;
  }

  close(): void {
    this.process.close();
  }

  /** `job` in `party`'s turn (PdfTurns). */
  private inTurn(party: string, job: Job, signal?: AbortSignal): Promise<InspectedFile> {
    return this.turns.run(party, () => this.run(job), signal);
  }

  private async run(job: Job): Promise<InspectedFile> {
    try {
      return await this.process.run(job);
    } catch (err) {
      if (err instanceof JobTimedOut)
        return tooComplex(`the PDF could not be read in ${this.timeoutMs / 1000} s`);
      if (err instanceof JobProcessEnded && err.outOfMemory)
        return tooComplex(`the PDF needs more than ${HEAP_LIMIT_MB} MiB to be read`);
      // The process crashed or the service is stopping: not this file's fault.
      if (err instanceof JobProcessEnded)
        throw new ConnectError("the PDF reader stopped; try the upload again", Code.Unavailable);
      throw err;
    }
  }
}

function tooComplex(why: string): InspectedFile {
  return {
    inspection: {
      ok: false,
      reason: "too_complex",
      message: `${why}; export it again (print to PDF) and retry`,
    },
  };
}
