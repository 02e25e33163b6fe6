/**
 * Where text is written in a PDF: DocuSign's anchor strings, and text tags (`{{signature:Client}}`).
 * pdf.js reads each page's text as the viewer shows it (crop box and rotation applied), and each
 * place is given as the box of its characters in PDF points from the page's top-left corner, the
 * coordinates fields use. Reading and searching both run in a job process (pdf-text-worker.mjs),
 * which reads the file from a path: a hostile document, or a one-letter anchor found millions of
 * times, costs that process, never the service. One file is read at a time, the workspaces in turn
 * (PdfTurns), as the inspector reads uploads.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { JobProcess, JobProcessEnded, JobTimedOut } from "@countersign/kit";
import { PdfTurns } from "./pdf-turns.js";

export interface TextBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Anchor {
  text: string;
  caseSensitive: boolean;
}

/** A `{{…}}` written in a run of text, or a `{{` left open in its run. */
export interface WrittenTag extends TextBox {
  text: string;
}

export type TextSearch = { tags: true } | { anchors: Anchor[] };

type Job = { path: string; maxPages: number; maxCharacters: number; limit: number } & TextSearch;

type Answer = { tags: WrittenTag[] } | { anchors: TextBox[][] } | { refused: string };

/** Why a document's text cannot be read: FAILED_PRECONDITION, which callers tell from every other error. */
export function unreadableText(why: string): ConnectError {
  return new ConnectError(`the document's text cannot be read: ${why}`, Code.FailedPrecondition);
}

export interface PdfTextReaderOptions {
  /** How long pdf.js may take over one document. */
  timeoutMs?: number;
  /** The most pages a document read may say it has. */
  maxPages: number;
  /** The most characters of text read from one document before its search is done. */
  maxCharacters?: number;
}

/** A legitimate document is read in a second or two; a hostile one (pdf.js can loop) is stopped here. */
const DEFAULT_TIMEOUT_MS = 20_000;

/** A thousand dense pages (a page of small print holds some 5,000 characters) and more. */
const DEFAULT_MAX_CHARACTERS = 10_000_000;

/** pdf.js holds tens of MiB once loaded; past this the process ends, not the service. */
const HEAP_LIMIT_MB = 512;

export class PdfTextReader {
  private readonly process: JobProcess<Job, Answer>;
  private readonly turns = new PdfTurns("the PDF text reader");
  private readonly timeoutMs: number;
  private readonly maxPages: number;
  private readonly maxCharacters: number;

  constructor({
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxPages,
    maxCharacters = DEFAULT_MAX_CHARACTERS,
  }: PdfTextReaderOptions) {
    this.timeoutMs = timeoutMs;
    this.maxPages = maxPages;
    this.maxCharacters = maxCharacters;
    this.process = new JobProcess(new URL("./pdf-text-worker.mjs", import.meta.url), {
      timeoutMs,
      idleMs: 60_000,
      maxHeapMb: HEAP_LIMIT_MB,
    });
  }

  /** Every text tag written in the file at `path`, in page order, at most `limit`. */
  async tags(path: string, limit: number, party: string, signal?: AbortSignal): Promise<WrittenTag[]> {
    const answer = await this.inTurn(party, { path, limit, tags: true }, signal);
    if (!("tags" in answer)) throw new Error("the PDF text process answered a tag search without tags");
    return answer.tags;
  }

  /**
   * Each place every anchor is written in the file at `path`, page by page, top to bottom as the
   * runs come, at most `limit` places per anchor.
   */
  async anchors(
    path: string,
    anchors: Anchor[],
    limit: number,
    party: string,
    signal?: AbortSignal,
  ): Promise<TextBox[][]> {
    const answer = await this.inTurn(party, { path, limit, anchors }, signal);
    if (!("anchors" in answer))
      throw new Error("the PDF text process answered an anchor search without anchors");
    return answer.anchors;
  }

  close(): void {
    this.process.close();
  }

  /** The search in `party`'s turn; a document refused or not read is FAILED_PRECONDITION. */
  private async inTurn(
    party: string,
    search: { path: string; limit: number } & TextSearch,
    signal?: AbortSignal,
  ): Promise<Answer> {
    const job: Job = { ...search, maxPages: this.maxPages, maxCharacters: this.maxCharacters };
    const answer = await this.turns.run(party, () => this.run(job), signal);
    if ("refused" in answer) throw unreadableText(answer.refused);
    return answer;
  }

  private async run(job: Job): Promise<Answer> {
    try {
      return await this.process.run(job);
    } catch (err) {
      // The process crashed or the service is stopping: not this file's fault.
      if (err instanceof JobProcessEnded && !err.outOfMemory)
        throw new ConnectError("the PDF text reader stopped; try again", Code.Unavailable);
      if (err instanceof JobProcessEnded)
        throw unreadableText(`it needs more than ${HEAP_LIMIT_MB} MiB to be read`);
      // Not read in time, or pdf.js could not read it (one that pdf-lib accepted).
      throw unreadableText(
        err instanceof JobTimedOut
          ? `it could not be read in ${this.timeoutMs / 1000} s`
          : "pdf.js cannot read it",
      );
    }
  }
}
