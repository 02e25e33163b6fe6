/**
 * Background work that drains a queue: run when kicked (right after a commit that added work) and
 * on a timer (for work a crashed replica left behind). Kicks while a drain runs are coalesced into
 * one more drain, so no work is missed and no two drains of one loop overlap. A drain that works
 * through many items checks the signal it is given between them: stopping waits for the item in
 * hand, not for the whole queue (thousands of e-mails would hold a shutdown for seconds).
 */
import { AsyncResource } from "node:async_hooks";
import { Counter } from "prom-client";
import type { Logger } from "./logger.js";
import { isDependencyOutage } from "./outage.js";

/**
 * Drains that threw instead of handling their own failure, by work; each is a bug to fix. A
 * dependency's outage (isDependencyOutage) is not counted: it is logged as a warning.
 */
export const drainFailures = new Counter({
  name: "background_work_failures_total",
  help: "Background drains (outbox relay, e-mail, completion, deliveries, sweeps) that threw; each runs again at its next poll.",
  labelNames: ["work"],
  registers: [],
});

export interface DrainGuard {
  /** What the loop does, for the log line and the metric: "outbox relay", "e-mail". */
  work: string;
  logger: Logger;
}

export class DrainLoop {
  /**
   * The context the loop was made in (at start-up, outside any call): a drain kicked by a call
   * runs in it, not in the call's, so the call's deadline and cancellation do not end the work.
   */
  private readonly detached = new AsyncResource("DrainLoop");
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private stopping = new AbortController();

  /**
   * `drain` handles and reports its own failures; one that escapes is logged and counted under
   * `guard.work`, and the loop goes on: its queue is in the database, so the next drain sees it.
   */
  constructor(
    private readonly drain: (stopping: AbortSignal) => Promise<void>,
    private readonly pollIntervalMs: number,
    private readonly guard: DrainGuard,
  ) {}

  start(): void {
    this.stopped = false;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.tick();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.detached
      .runInAsyncScope(() => this.drain(this.stopping.signal))
      .catch((err: unknown) => {
        // A database or service that stopped answering mid-drain is not a bug of the drain's: the
        // queue is where it was, and the next poll finds it.
        if (isDependencyOutage(err)) {
          this.guard.logger.warn(
            { err, work: this.guard.work },
            "background work met a dependency that did not answer; it runs again at its next poll",
          );
          return;
        }
        drainFailures.inc({ work: this.guard.work });
        this.guard.logger.error(
          { err, work: this.guard.work },
          "background work failed unexpectedly; it runs again at its next poll",
        );
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no drain is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.idle();
  }

  private tick(): void {
    this.kick();
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), this.pollIntervalMs);
    this.timer.unref();
  }
}
