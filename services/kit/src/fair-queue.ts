import { busyError } from "./errors.js";

/**
 * Heavy work shared fairly among the parties that ask for it (workspaces; client addresses where
 * there is no workspace): each party's waiting work in a bounded queue of its own, the queues served
 * in turn, round-robin, by a fixed number of slots. A party past its own bound is refused; another
 * party's work is still taken, so one party's flood never turns the others away. Work that must not
 * be refused (a background job, which nobody can be asked to bring back) takes its turn unbounded.
 */

export interface FairQueueOptions {
  /** How many tasks run at once, over all parties. */
  concurrency: number;
  /** How many tasks one party may have waiting (besides those running). */
  waitingPerParty: number;
  /** How many tasks may wait over all parties: the bound on what the queue holds however many ask. */
  maxWaiting: number;
  /** What a refusal tells the caller to wait before trying again, in seconds. */
  retryAfterSeconds: number;
}

/** The party (or, past `maxWaiting`, everyone) has as much waiting as it may: try again later. */
export class FairQueueFull extends Error {
  override name = "FairQueueFull";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * A refusal as the caller hears it: RESOURCE_EXHAUSTED saying `why` and when to try again (the
 * queue's retry delay); anything else passes on. For `run(...).catch(busyWhenFull(why))`.
 */
export function busyWhenFull(why: string): (err: unknown) => never {
  return (err) => {
    if (!(err instanceof FairQueueFull)) throw err;
    const seconds = err.retryAfterSeconds;
    throw busyError(`${why}; try again in ${seconds} s`, seconds);
  };
}

interface Waiting {
  start(): void;
}

/** A party with work running or waiting: forgotten once it has neither. */
interface Party {
  running: number;
  waiting: Waiting[];
  /** When it was last given a slot (a count of slots given; x.5 for a newcomer): the lowest goes next. */
  servedAt: number;
}

export class FairQueue {
  private readonly parties = new Map<string, Party>();
  private running = 0;
  private waiting = 0;
  private slotsGiven = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly options: FairQueueOptions) {}

  /**
   * Runs `task` for `party` when a slot is free and it is the party's turn. Refused at once with
   * FairQueueFull when the party has `waitingPerParty` tasks waiting (or everyone `maxWaiting`). A
   * task whose `signal` aborts while it waits is taken out of its queue and rejected with the
   * signal's reason; once started, the task itself answers to the signal.
   */
  run<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted || this.slotFree()) return this.enqueue(party, task, signal);
    const { waitingPerParty, maxWaiting, retryAfterSeconds } = this.options;
    if ((this.parties.get(party)?.waiting.length ?? 0) >= waitingPerParty)
      return Promise.reject(
        new FairQueueFull(`${waitingPerParty} of this party's tasks are waiting already`, retryAfterSeconds),
      );
    if (this.waiting >= maxWaiting)
      return Promise.reject(
        new FairQueueFull(`${this.waiting} tasks are waiting already`, retryAfterSeconds),
      );
    return this.enqueue(party, task, signal);
  }

  /**
   * Runs `task` for `party` in its turn as `run` does, but never refuses it: for work whose caller
   * cannot be asked to come back later (a background job's worker). The bounds do not hold it, so its
   * callers must: each such caller has one task in hand at a time. It counts among the waiting, so
   * the callers that may be refused see the queue as full as it is.
   */
  runUnbounded<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.enqueue(party, task, signal);
  }

  /** Resolves when nothing runs or waits. */
  drained(): Promise<void> {
    if (this.running === 0 && this.waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Whether a task asked for now starts at once: a slot is free and nobody waits for one. */
  private slotFree(): boolean {
    return this.running < this.options.concurrency && this.waiting === 0;
  }

  /** Starts `task` now if it may, or puts it at the end of its party's queue. */
  private enqueue<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.parties.get(party) ?? this.newcomer();
    this.parties.set(party, state);
    if (this.slotFree()) return this.start(party, state, task);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const at = state.waiting.indexOf(entry);
        if (at < 0) return;
        state.waiting.splice(at, 1);
        this.waiting -= 1;
        this.forgetIfDone(party, state);
        this.settleIdle();
        reject(signal?.reason);
      };
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          this.start(party, state, task).then(resolve, reject);
        },
      };
      state.waiting.push(entry);
      this.waiting += 1;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private start<T>(party: string, state: Party, task: () => Promise<T>): Promise<T> {
    this.running += 1;
    state.running += 1;
    this.slotsGiven += 1;
    state.servedAt = this.slotsGiven;
    const ran = (async () => task())();
    return ran.finally(() => {
      this.running -= 1;
      state.running -= 1;
      this.forgetIfDone(party, state);
      this.next();
      this.settleIdle();
    });
  }

  /** Fills the free slots, each with the first waiting task of the party served longest ago. */
  private next(): void {
    while (this.running < this.options.concurrency) {
      let chosen: [string, Party] | undefined;
      for (const [party, state] of this.parties) {
        if (state.waiting.length === 0) continue;
        if (!chosen || state.servedAt < chosen[1].servedAt) chosen = [party, state];
      }
      if (!chosen) return;
      const entry = chosen[1].waiting.shift() as Waiting;
      this.waiting -= 1;
      entry.start();
    }
  }

  /**
   * A party with nothing running or waiting joins the turn just ahead of the party served last and
   * behind every party served before it: ahead of all of them, two parties that ask again as soon as
   * they are answered would take turns in front of everyone else for ever, each forgotten when
   * answered and back first.
   */
  private newcomer(): Party {
    return { running: 0, waiting: [], servedAt: this.slotsGiven - 0.5 };
  }

  private forgetIfDone(party: string, state: Party): void {
    if (state.running === 0 && state.waiting.length === 0) this.parties.delete(party);
  }

  private settleIdle(): void {
    if (this.running > 0 || this.waiting > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
