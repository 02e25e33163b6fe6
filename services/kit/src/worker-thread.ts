/**
 * Work that must not hold a service's event loop — reading an untrusted PDF — done in a worker
 * thread of its own: started on first use, ended when unused for a while, and ended when a job
 * runs past its time limit, the one way to stop a parser that never yields or loops; the next job
 * starts a new thread. The thread's memory is its own, so a document it reads whole is never
 * garbage in the service's heap. Its entry is plain JavaScript: Node 20 gives a worker none of the
 * module hooks the TypeScript loader uses. Each message to it is `{ id, job }`, each answer
 * `{ id, result }` or `{ id, error }`.
 */
import { Worker } from "node:worker_threads";

export interface WorkerThreadOptions {
  /** How long one job may take, from when it is handed to the thread. */
  timeoutMs: number;
  /** How long a thread with nothing to do is kept. */
  idleMs: number;
  /** The thread's heap limit: past it the thread ends, not the service. */
  maxOldGenerationSizeMb: number;
}

/** The job took longer than the thread's time limit. */
export class JobTimedOut extends Error {
  override name = "JobTimedOut";
}

/** The thread ended (out of memory, a crash, another job's time limit) before the job was done. */
export class WorkerThreadEnded extends Error {
  override name = "WorkerThreadEnded";
}

type Answer<Result> = { id: number; result: Result } | { id: number; error: string };

interface Waiting<Result> {
  resolve: (result: Result) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class WorkerThread<Job, Result> {
  private worker: Worker | undefined;
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;
  private readonly pending = new Map<number, Waiting<Result>>();

  constructor(
    private readonly entry: URL,
    private readonly options: WorkerThreadOptions,
  ) {}

  /** `transfer`: buffers of the job moved to the thread rather than copied. */
  run(job: Job, transfer: ArrayBuffer[] = []): Promise<Result> {
    const worker = this.started();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new JobTimedOut(`the job took longer than ${this.options.timeoutMs} ms`));
        this.end(new WorkerThreadEnded("another job ran out of time and ended the thread"));
      }, this.options.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, job }, transfer);
    });
  }

  /** Ends the thread; what was waiting on it fails. */
  close(): void {
    this.end(new WorkerThreadEnded("the thread was closed"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb },
    });
    worker.on("message", (answer: Answer<Result>) => this.settle(answer));
    // A thread ended on purpose exits later, maybe after its successor started: only the current
    // thread's end fails what is waiting.
    const ended = (err: Error) => {
      if (this.worker === worker) this.end(err);
    };
    worker.on("error", (err) => ended(new WorkerThreadEnded(err.message)));
    worker.on("exit", () => ended(new WorkerThreadEnded("the thread stopped")));
    // A thread never keeps the service from exiting (after the listeners, which ref it).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(answer: Answer<Result>): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    clearTimeout(waiting.timer);
    if ("error" in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.result);
    if (this.pending.size === 0) {
      this.idle = setTimeout(() => this.close(), this.options.idleMs);
      this.idle.unref();
    }
  }

  private end(err: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.idle);
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(err);
    }
    this.pending.clear();
    void worker?.terminate();
  }
}
