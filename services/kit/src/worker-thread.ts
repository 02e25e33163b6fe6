/**
 * Work that must not hold a service's event loop — reading an untrusted PDF — done in a worker
 * thread of its own, one job at a time: started on first use, ended when unused for a while, and
 * ended when a job runs past its time limit, the one way to stop a parser that never yields. The
 * jobs waiting behind it go on in a new thread; only the job that ran out of time, or out of the
 * thread's memory, fails for it. The thread's heap is its own, so a document it reads whole is never
 * garbage in the service's. Its entry is plain JavaScript: Node 20 gives a worker none of the module
 * hooks the TypeScript loader uses. Once it listens, it says `{ ready: true }`; each message to it
 * is then `{ id, job }`, each answer `{ id, result }` or `{ id, error }`. A job's time limit starts
 * when the thread has said it is ready: starting a thread (an isolate, the parser's modules) took
 * more than 200 ms on a loaded machine, and is not the job's time.
 */
import { Worker } from "node:worker_threads";

export interface WorkerThreadOptions {
  /** How long one job may take in the thread (waiting for the jobs before it does not count). */
  timeoutMs: number;
  /** How long a thread with nothing to do is kept. */
  idleMs: number;
  /** The thread's heap limit: past it the thread ends, not the service. */
  maxOldGenerationSizeMb: number;
}

/**
 * Bytes whose whole buffer may be moved to a thread: these, or a copy of them when they are a
 * slice of a larger buffer — a small Buffer is a slice of Node's shared pool, which must never move.
 */
export function movable(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

/** The job took longer than the thread's time limit. */
export class JobTimedOut extends Error {
  override name = "JobTimedOut";
}

/** The thread ended while the job ran: out of its memory, or otherwise (a crash, a close). */
export class WorkerThreadEnded extends Error {
  override name = "WorkerThreadEnded";

  constructor(
    message: string,
    readonly outOfMemory = false,
  ) {
    super(message);
  }
}

type Answer<Result> = { ready: true } | { id: number; result: Result } | { id: number; error: string };

interface Queued<Job, Result> {
  id: number;
  job: Job;
  transfer: ArrayBuffer[];
  resolve: (result: Result) => void;
  reject: (err: Error) => void;
}

export class WorkerThread<Job, Result> {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly queue: Queued<Job, Result>[] = [];
  private running: (Queued<Job, Result> & { timer?: NodeJS.Timeout }) | undefined;
  /** Whether the current thread has said it listens. */
  private ready = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly entry: URL,
    private readonly options: WorkerThreadOptions,
  ) {}

  /** `transfer`: buffers of the job moved to the thread rather than copied. */
  run(job: Job, transfer: ArrayBuffer[] = []): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, transfer, resolve, reject });
      this.next();
    });
  }

  /** Ends the thread; the job it runs and every job waiting fail. */
  close(): void {
    const waiting = this.queue.splice(0);
    this.end(new WorkerThreadEnded("the thread was closed"));
    for (const queued of waiting) queued.reject(new WorkerThreadEnded("the thread was closed"));
  }

  private next(): void {
    if (this.running) return;
    const queued = this.queue.shift();
    if (!queued) {
      this.worker?.unref();
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.close(), this.options.idleMs);
      this.idle.unref();
      return;
    }
    clearTimeout(this.idle);
    this.running = queued;
    const worker = this.started();
    // A job keeps the process alive until it is answered, as any pending I/O does; an idle thread does not.
    worker.ref();
    worker.postMessage({ id: queued.id, job: queued.job }, queued.transfer);
    if (this.ready) this.startClock();
  }

  /** The running job's time limit, from now. */
  private startClock(): void {
    const running = this.running;
    if (!running || running.timer) return;
    running.timer = setTimeout(() => {
      this.end(new JobTimedOut(`the job took longer than ${this.options.timeoutMs} ms`));
      this.next();
    }, this.options.timeoutMs);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb },
    });
    worker.on("message", (answer: Answer<Result>) => {
      if (this.worker !== worker) return;
      if ("ready" in answer) {
        this.ready = true;
        this.startClock();
      } else this.settle(answer);
    });
    // A thread ended on purpose exits later, maybe after its successor started: only the current
    // thread's end fails the job it runs.
    const ended = (err: Error) => {
      if (this.worker !== worker) return;
      this.end(err);
      this.next();
    };
    worker.on("error", (err: Error & { code?: string }) =>
      ended(new WorkerThreadEnded(err.message, err.code === "ERR_WORKER_OUT_OF_MEMORY")),
    );
    worker.on("exit", () => ended(new WorkerThreadEnded("the thread stopped")));
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  private settle(answer: Exclude<Answer<Result>, { ready: true }>): void {
    const running = this.running;
    if (!running || running.id !== answer.id) return;
    this.running = undefined;
    clearTimeout(running.timer);
    if ("error" in answer) running.reject(new Error(answer.error));
    else running.resolve(answer.result);
    this.next();
  }

  /** Ends the thread; the job it ran fails with `err`. */
  private end(err: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.idle);
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(err);
    }
    void worker?.terminate();
  }
}
