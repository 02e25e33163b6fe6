/**
 * Work that must not hold a service's event loop, nor put its process at risk — reading an
 * untrusted PDF, drawing one, hashing a password — done in a child process of its own, one job at
 * a time: started on first use, ended when unused for a while, and killed when a job runs past its
 * time limit, the one way to stop a parser that never yields. The jobs waiting behind it go on in a
 * new child; only the job that ran out of time, or out of the child's memory, fails for it.
 *
 * A process rather than a worker thread: V8 enforces a worker's heap limit on a best-effort basis,
 * and some allocation shapes (one array grown without end) abort the whole process instead of the
 * thread (nodejs/node#47224, #65019); a child's limit (--max-old-space-size) ends the child alone,
 * whatever the shape. The entry is plain JavaScript that calls job-child.mjs's `serveJobs`;
 * messages cross the IPC channel with structured-clone serialization, documents as files
 * (job-files.mjs). A job's time limit starts when the child has said it is ready and the job is
 * sent: starting one (a process, the parser's modules) took more than 200 ms on a loaded machine,
 * and is not the job's time.
 *
 * The heap limit leaves out Buffers and WebAssembly memory, so the child also runs under a cap on all
 * its memory, which it sets itself when ready (job-child.mjs): past it the child ends as out of
 * memory; a job that took it past half that cap has it replaced once answered; where the cap cannot
 * be set (no prlimit), the service says so once and goes on with the heap limit alone.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtemp, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MEMORY_BUDGET_ENV } from "./job-child.mjs";
import { bytesToFiles, filesToBytes } from "./job-files.mjs";
import { NODE_FLAGS } from "./node-flags.js";

export interface JobProcessOptions {
  /** How long one job may take in the child (waiting for the jobs before it does not count). */
  timeoutMs: number;
  /** How long a child with nothing to do is kept. */
  idleMs: number;
  /**
   * The child's heap limit: past it the child ends, not the service. All it may add to what it holds
   * when ready — heap, Buffers, WebAssembly memory — is held to twice that.
   */
  maxHeapMb: number;
  /** Where the folder that documents cross in is made (job-files.mjs); the system's temporary folder by default. */
  filesIn?: string;
}

/** The job took longer than the child's time limit. */
export class JobTimedOut extends Error {
  override name = "JobTimedOut";
}

/** The child ended while the job ran: out of its memory, or otherwise (a crash, a close). */
export class JobProcessEnded extends Error {
  override name = "JobProcessEnded";

  constructor(
    message: string,
    readonly outOfMemory = false,
  ) {
    super(message);
  }
}

type Answer<Result> =
  /** `uncapped` says why the child runs without its memory cap. */
  | { ready: true; uncapped?: string }
  /** `retire`: the job left the child large, and it is replaced. */
  | { id: number; result: Result; retire?: boolean }
  | { id: number; error: string };

interface Queued<Job, Result> {
  id: number;
  job: Job;
  resolve: (result: Result) => void;
  reject: (err: Error) => void;
  /** The files its bytes went in, deleted once it is answered (the child may have died before reading them). */
  files: string[];
  /** Whether it was handed to the child (its time limit runs from then). */
  sent?: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * The parent's package conditions (`--conditions=compiled` where it runs the build): the child
 * imports workspace packages as the parent does, their built JavaScript rather than their sources.
 */
const RESOLUTION_FLAGS = process.execArgv.filter((arg) => arg.startsWith("--conditions="));

/** What V8 writes when a heap limit is reached, or job-child.mjs when an allocation failed, before the process ends. */
const OUT_OF_MEMORY = /out of memory|Reached heap limit|Allocation failed/;

/** Whether this process already said that its job processes run without a memory cap. */
let saidUncapped = false;

export class JobProcess<Job, Result> {
  private child: ChildProcess | undefined;
  private nextId = 0;
  private readonly queue: Queued<Job, Result>[] = [];
  private running: Queued<Job, Result> | undefined;
  /** Where documents cross to and from the child (job-files.mjs): made on first use, removed on close. */
  private folder: Promise<string> | undefined;
  /** Whether the current child has said it listens. */
  private ready = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly entry: URL,
    private readonly options: JobProcessOptions,
  ) {}

  run(job: Job): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject, files: [] });
      this.next();
    });
  }

  /** Ends the child; the job it runs and every job waiting fail. */
  close(): void {
    const waiting = this.queue.splice(0);
    this.end(new JobProcessEnded("the job process was closed"));
    for (const queued of waiting) queued.reject(new JobProcessEnded("the job process was closed"));
    const folder = this.folder;
    this.folder = undefined;
    folder?.then((path) => rm(path, { recursive: true, force: true })).catch(() => {});
  }

  private next(): void {
    if (this.running) return;
    const queued = this.queue.shift();
    if (!queued) {
      if (this.child) holdsProcess(this.child, false);
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.close(), this.options.idleMs);
      this.idle.unref();
      return;
    }
    clearTimeout(this.idle);
    this.running = queued;
    const child = this.started();
    // A job keeps the service's process alive until it is answered, as any pending I/O does; an idle child does not.
    holdsProcess(child, true);
    this.send(child, queued).catch((err: Error) => {
      if (this.running !== queued) return;
      this.running = undefined;
      queued.reject(err);
      this.next();
    });
  }

  private async send(child: ChildProcess, queued: Queued<Job, Result>): Promise<void> {
    this.folder ??= mkdtemp(join(this.options.filesIn ?? tmpdir(), "countersign-jobs-"));
    const folder = await this.folder;
    const job = await bytesToFiles(queued.job, folder, queued.files);
    if (this.child !== child || this.running !== queued) return forget(queued.files);
    child.send({ id: queued.id, job, folder }, (err) => {
      if (err && this.child === child)
        this.ended(child, new JobProcessEnded(`the job could not be sent: ${err.message}`));
    });
    queued.sent = true;
    this.startClock();
  }

  /** The running job's time limit, from now, once the child is ready and the job sent. */
  private startClock(): void {
    const running = this.running;
    if (!running?.sent || !this.ready || running.timer) return;
    running.timer = setTimeout(() => {
      this.end(new JobTimedOut(`the job took longer than ${this.options.timeoutMs} ms`));
      this.next();
    }, this.options.timeoutMs);
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(fileURLToPath(this.entry), [], {
      execArgv: [...NODE_FLAGS, ...RESOLUTION_FLAGS, `--max-old-space-size=${this.options.maxHeapMb}`],
      env: { ...process.env, [MEMORY_BUDGET_ENV]: String(2 * this.options.maxHeapMb) },
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    // The last words of a child that ran out of memory say so; nothing else it writes is kept.
    let lastWords = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      lastWords = (lastWords + chunk.toString("utf8")).slice(-2048);
    });
    child.on("message", (answer: Answer<Result>) => {
      if (this.child !== child) return;
      if ("ready" in answer) {
        if (answer.uncapped && !saidUncapped) {
          saidUncapped = true;
          process.emitWarning(
            `job processes run without a cap on their whole memory, only on their heap: ${answer.uncapped}`,
          );
        }
        this.ready = true;
        this.startClock();
      } else this.settle(answer);
    });
    child.on("error", (err) => this.ended(child, new JobProcessEnded(err.message)));
    child.on("exit", (code, signal) => {
      const outOfMemory = OUT_OF_MEMORY.test(lastWords);
      const how = outOfMemory ? "ran out of memory" : `stopped (${signal ?? `exit code ${code}`})`;
      this.ended(child, new JobProcessEnded(`the job process ${how}`, outOfMemory));
    });
    this.child = child;
    this.ready = false;
    return child;
  }

  /**
   * A child ended on purpose exits later, maybe after its successor started: only the current
   * child's end fails the job it runs.
   */
  private ended(child: ChildProcess, err: Error): void {
    if (this.child !== child) return;
    this.end(err);
    this.next();
  }

  private settle(answer: Exclude<Answer<Result>, { ready: true }>): void {
    const running = this.running;
    if (!running || running.id !== answer.id) return;
    this.running = undefined;
    clearTimeout(running.timer);
    forget(running.files);
    if ("error" in answer) running.reject(new Error(answer.error));
    else
      filesToBytes(answer.result).then(
        (result) => running.resolve(result as Result),
        (err: Error) => running.reject(new Error(`the job's result could not be read: ${err.message}`)),
      );
    if ("retire" in answer && answer.retire) this.end(new JobProcessEnded("the job process was replaced"));
    this.next();
  }

  /** Ends the child; the job it ran fails with `err`. */
  private end(err: Error): void {
    const child = this.child;
    this.child = undefined;
    clearTimeout(this.idle);
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      forget(running.files);
      running.reject(err);
    }
    child?.kill("SIGKILL");
  }
}

/** Deletes the files a job's bytes went in that the child did not read. */
function forget(files: string[]): void {
  for (const path of files) unlink(path).catch(() => {});
}

/** Whether the child (its process, its IPC channel, its stderr pipe) keeps the service's process alive. */
function holdsProcess(child: ChildProcess, hold: boolean): void {
  const handles = [child, child.channel, child.stderr] as (
    | { ref(): void; unref(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}
