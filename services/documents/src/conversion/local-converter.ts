/**
 * Conversions made on this machine, one at a time: office documents by LibreOffice (when there is
 * one), images by pdf-lib in a job process. A conversion past the time limit is stopped and refused
 * as the file's fault. Each workspace's files wait in a short queue of its own, the queues taken in
 * turn (the kit's FairQueue): a workspace with more waiting is turned away at once, and one
 * workspace's flood never turns another's file away.
 */
import { link, mkdir, mkdtemp, rename, rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { DEFAULT_CONVERSION_TIMEOUT_MS } from "@countersign/domain";
import { SourceFormat } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import {
  busyError,
  currentCallContext,
  FairQueue,
  FairQueueFull,
  JobProcess,
  JobProcessEnded,
  JobTimedOut,
  problemError,
  sweepFolders,
  validationError,
} from "@countersign/kit";
import { Histogram } from "prom-client";
import type { ConversionCall, DocumentConverter } from "./document-converter.js";
import type { ImagePageJob, ImagePageResult } from "./image-pages.js";
import { ConversionFailed, ConversionStopped, ConversionTimedOut, LibreOffice } from "./libreoffice.js";
import { type SandboxMode, sandboxUnavailable } from "./office-sandbox.js";
import { isOfficeFormat, type KnownSourceFormat, SOURCE_FORMATS } from "./source-formats.js";

/** Conversions made in this process, by format and how each ended, with how long each took. */
export const conversionSeconds = new Histogram({
  name: "document_conversion_seconds",
  help: "Conversions of uploads to PDF made in this process, by format and outcome: converted, refused (the file's fault) or failed.",
  labelNames: ["format", "outcome"],
  buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
  registers: [],
});

export interface LocalConverterOptions {
  /** The soffice to run (findLibreOffice); without one, office documents are refused with how to enable it. */
  libreOffice?: string;
  /** A folder of this converter's own, on the filesystem of the files it is given. */
  workDir: string;
  /** How long one conversion may take; 60 s unless given. */
  timeoutMs?: number;
  /** How many files one workspace may have waiting for their turn; 3 unless given. */
  waitingPerParty?: number;
  /** How many files may wait for their turn over all workspaces; 16 unless given. */
  maxWaiting?: number;
  /** How soffice is confined; `bwrap` unless given (`off` only where an operator chose it). */
  sandbox?: SandboxMode;
  /** The address space one soffice may map, in MiB; DEFAULT_CONVERSION_MEMORY_MB unless given. */
  memoryMb?: number;
}

/**
 * soffice maps some 500 MiB to open the smallest document and 1 GiB for a page with a 20,000 ×
 * 20,000-pixel image; a 400 KB document can ask for 3 GiB.
 */
export const DEFAULT_CONVERSION_MEMORY_MB = 1024;

/** What a converter's folder is called in the spool: `converter-<uuid>`, one per process. */
export const CONVERTER_FOLDER_PREFIX = "converter-";

/**
 * Removes the folders of converters that stopped without removing theirs (a killed process): those
 * untouched for an hour — a converter marks its folder at every conversion, which takes a minute at
 * most. A folder taken from a converter that is only idle is made again (the profile is checked
 * before every conversion).
 */
export function sweepConverterFolders(spoolDir: string, olderThanMs = 3_600_000): Promise<number> {
  return sweepFolders(spoolDir, CONVERTER_FOLDER_PREFIX, olderThanMs);
}

/** Phone cameras take up to 50 megapixels; a PNG is decoded whole to be put in a PDF. */
const MAX_IMAGE_PIXELS = 50_000_000;

/** Of an upload's deadline, what the checks and storing after its conversion are left. */
const AFTER_CONVERSION_MS = 10_000;
/** The least time a conversion that waited is started with: most documents take a few seconds. */
const MIN_TIME_LEFT_MS = 15_000;

/** A 50-megapixel PNG decodes to some 200 MB of pixels, which pdf-lib then compresses. */
const IMAGE_HEAP_MB = 1024;

export class LocalConverter implements DocumentConverter {
  private readonly libreOffice: LibreOffice | undefined;
  private readonly images: JobProcess<ImagePageJob, ImagePageResult>;
  private readonly timeoutMs: number;
  /** Conversions in turn, one at a time, each workspace's in a queue of its own (round-robin). */
  private readonly turns: FairQueue;
  /** What a refusal of a busy converter says to wait: half a conversion's time limit. */
  private readonly retryAfterSeconds: number;
  /** Why soffice cannot be confined here, asked once; undefined when it can (or the box is off). */
  private sandboxProblem: Promise<string | undefined> | undefined;
  private closed = false;

  constructor(private readonly options: LocalConverterOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS;
    this.retryAfterSeconds = Math.ceil(this.timeoutMs / 2000);
    // One soffice at a time: a document may take a whole CPU and a gigabyte while it is read.
    this.turns = new FairQueue({
      concurrency: 1,
      waitingPerParty: options.waitingPerParty ?? 3,
      maxWaiting: options.maxWaiting ?? 16,
      retryAfterSeconds: this.retryAfterSeconds,
    });
    this.libreOffice = options.libreOffice
      ? new LibreOffice({
          binary: options.libreOffice,
          workDir: options.workDir,
          sandbox: options.sandbox ?? "bwrap",
          memoryMb: options.memoryMb ?? DEFAULT_CONVERSION_MEMORY_MB,
        })
      : undefined;
    this.images = new JobProcess(new URL("./image-page-worker.mjs", import.meta.url), {
      timeoutMs: this.timeoutMs,
      idleMs: 60_000,
      maxHeapMb: IMAGE_HEAP_MB,
    });
  }

  async convert(
    input: string,
    format: KnownSourceFormat,
    output: string,
    maxPages: number,
    { party, signal }: ConversionCall,
  ): Promise<void> {
    if (this.closed) throw stopping();
    if (isOfficeFormat(format) && !this.libreOffice) throw withoutLibreOffice(format);
    // Read now: the turn may come in another call's context.
    const deadline = currentCallContext()?.deadline;
    const converting = () => this.convertInTurn(input, format, output, maxPages, deadline, signal);
    await this.turns.run(party, converting, signal).catch((err: unknown) => {
      if (err instanceof FairQueueFull)
        throw busy(
          `the converter has as many of this workspace's files waiting as it takes`,
          err.retryAfterSeconds,
        );
      if (signal?.aborted && !(err instanceof ConnectError)) throw calledOff();
      throw err;
    });
  }

  /**
   * A conversion whose turn came: not started when its caller went away while it waited. It has the
   * whole time limit when the caller's deadline holds it (and the checks and storing after it);
   * when waiting took some of that, what is left, at least MIN_TIME_LEFT_MS — most documents convert
   * in seconds, and refusing every file that waited behind a slow one would turn its workspace away.
   * One that runs out of the shortened time is refused as busy, not as a file that cannot be converted.
   */
  private async convertInTurn(
    input: string,
    format: KnownSourceFormat,
    output: string,
    maxPages: number,
    deadline: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (this.closed) throw stopping();
    if (signal?.aborted) throw calledOff();
    const left = deadline === undefined ? this.timeoutMs : deadline - Date.now() - AFTER_CONVERSION_MS;
    const tooLate = () =>
      busy(
        "the converter was busy with other files until too little of this upload's time was left to convert it",
        this.retryAfterSeconds,
      );
    if (left < MIN_TIME_LEFT_MS) throw tooLate();
    const limitMs = Math.min(this.timeoutMs, left);
    const timer = conversionSeconds.startTimer({ format: SOURCE_FORMATS[format].extension });
    try {
      await this.convertNow(input, format, output, maxPages, limitMs, signal).catch((err: unknown) => {
        throw err instanceof ShortenedTimeRanOut ? tooLate() : err;
      });
      timer({ outcome: "converted" });
    } catch (err) {
      timer({
        outcome: err instanceof ConnectError && err.code === Code.InvalidArgument ? "refused" : "failed",
      });
      throw err;
    }
  }

  /**
   * Why office documents cannot be converted here though LibreOffice is installed (it cannot be
   * confined: bwrap missing, or user namespaces not allowed; or prlimit, which caps its memory, is
   * missing), in a sentence for the operator;
   * undefined when they can. Asked once; a converter that cannot confine soffice never runs it.
   */
  unconfinable(): Promise<string | undefined> {
    if (!this.libreOffice) return Promise.resolve(undefined);
    // With the box off, the memory cap still runs soffice: prlimit must be there too.
    this.sandboxProblem ??= sandboxUnavailable(this.options.sandbox ?? "bwrap");
    return this.sandboxProblem;
  }

  /** Kills the conversion running, refuses those waiting and any later one, and removes the folder. */
  async close(): Promise<void> {
    this.closed = true;
    this.libreOffice?.stop();
    this.images.close();
    await this.turns.drained();
    await rm(this.options.workDir, { recursive: true, force: true });
  }

  private async convertNow(
    input: string,
    format: KnownSourceFormat,
    output: string,
    maxPages: number,
    limitMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const facts = SOURCE_FORMATS[format];
    if (!isOfficeFormat(format)) return this.imagePage(input, format, output);
    const libreOffice = this.libreOffice;
    if (!libreOffice) throw withoutLibreOffice(format);
    const problem = await this.unconfinable();
    if (problem) throw withoutSandbox(format, problem);
    // LibreOffice names its output after its input, in a folder it writes nothing else to. The
    // converter's own folder is marked in use, for the sweep of stopped converters' folders.
    await mkdir(this.options.workDir, { recursive: true, mode: 0o700 });
    const now = new Date();
    await utimes(this.options.workDir, now, now);
    const dir = await mkdtemp(join(this.options.workDir, "conversion-"));
    try {
      const source = join(dir, `source.${facts.extension}`);
      await link(input, source);
      // The only folder soffice may write to, apart from its profile.
      const outDir = join(dir, "pdf");
      await mkdir(outDir);
      const pdf = await libreOffice
        .convert(source, format, outDir, {
          timeoutMs: limitMs,
          maxPages: maxPages > 0 ? maxPages + 1 : 0,
          signal,
        })
        .catch((err: unknown) => {
          if (err instanceof ConversionTimedOut && limitMs < this.timeoutMs) throw new ShortenedTimeRanOut();
          if (err instanceof ConversionFailed) throw unconverted(facts.name, err.message);
          if (err instanceof ConversionStopped) throw this.closed ? stopping() : calledOff();
          throw err;
        });
      await rename(pdf, output);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async imagePage(input: string, format: KnownSourceFormat, output: string): Promise<void> {
    const type = format === SourceFormat.PNG ? "image/png" : "image/jpeg";
    const result = await this.images
      .run({ input, type, output, maxPixels: MAX_IMAGE_PIXELS })
      .catch((err: unknown) => {
        if (err instanceof JobTimedOut)
          throw unconverted(
            SOURCE_FORMATS[format].name,
            `it was not converted within ${this.timeoutMs / 1000} s`,
          );
        if (err instanceof JobProcessEnded && err.outOfMemory)
          throw unconverted(
            SOURCE_FORMATS[format].name,
            `it needs more than ${IMAGE_HEAP_MB} MiB to be read`,
          );
        throw err;
      });
    if (!result.ok) throw validationError([{ path: "file", message: result.message }], result.message);
  }
}

/** The file's fault: a 422 saying what it was taken for and why it could not be made a PDF. */
function unconverted(name: string, why: string): ConnectError {
  const message = `the file was taken for ${name}, but ${why}; save it as PDF and upload that`;
  return validationError([{ path: "file", message }], message);
}

/** The process is stopping: not the file's fault, and another replica (or a restart) takes it. */
function stopping(): ConnectError {
  return new ConnectError("the converter is stopping; upload the file again", Code.Unavailable);
}

/** Not the file's fault: the workspace has as many files waiting as it may (or everyone has), or its turn came too late. */
/** A conversion given less than the whole limit, because it waited, ran out of it: not the file's fault. */
class ShortenedTimeRanOut extends Error {
  override name = "ShortenedTimeRanOut";
}

function busy(why: string, retryAfterSeconds: number): ConnectError {
  return busyError(`${why}; try again in ${retryAfterSeconds} s`, retryAfterSeconds);
}

function calledOff(): ConnectError {
  return new ConnectError("the upload was called off by its caller", Code.Canceled);
}

function withoutSandbox(format: KnownSourceFormat, problem: string): ConnectError {
  return problemError(
    "unsupported_media_type",
    `converting ${SOURCE_FORMATS[format].name} to PDF is off on this server: LibreOffice cannot be ` +
      `confined here (${problem}); upload the document as a PDF`,
    Code.InvalidArgument,
  );
}

function withoutLibreOffice(format: KnownSourceFormat): ConnectError {
  return problemError(
    "unsupported_media_type",
    `converting ${SOURCE_FORMATS[format].name} to PDF needs LibreOffice, which this server does not have: ` +
      "install it (Debian, Ubuntu: apt-get install libreoffice-writer-nogui bubblewrap) and restart, or point " +
      "CONVERTER_ADDR at a converter; or upload the document as a PDF",
    Code.InvalidArgument,
  );
}
