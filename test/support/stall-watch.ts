/**
 * Watches a service's liveness while hostile work runs: a probe every few milliseconds, keeping the
 * longest time the service's event loop made a probe wait. An event loop held by one request shows
 * here first, as every tenant's calls would wait as long.
 *
 * A probe's time is what the service's main thread spent running while the probe waited: the
 * computation that holds a loop (a handler, a parser, a regular expression, a collection of its
 * heap). What a busy machine adds is not the service's and is left out: time its main thread was
 * ready but waited for a processor given to others (under CI's load up to 40 times the time it ran),
 * time a hypervisor ran other machines, and the disk's delays (a probe of 503 ms, with another suite
 * writing, was 3 ms on a processor and 2 ms in the run queue). Where the scheduler's account cannot
 * be read (not Linux), the probe's wall time less this process's own pauses stands in.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { listeningProcess, schedulerTimes } from "./listening-process.js";

/** One probe, as the service's main thread and this process saw it (milliseconds). */
export interface Probe {
  /** What the watch counts against the service. */
  heldMs: number;
  wallMs: number;
  ranMs?: number;
  queuedMs?: number;
}

export interface StallReport {
  longestMs: number;
  failures: number;
  /** The probe that waited longest, for the failure message. */
  longest?: Probe;
}

export class StallWatch {
  private longest?: Probe;
  private failures = 0;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(url: string, everyMs = 50) {
    const service = listeningProcess(Number(new URL(url).port));
    const ownDelay = monitorEventLoopDelay({ resolution: 10 });
    ownDelay.enable();
    this.loop = (async () => {
      while (this.running) {
        ownDelay.reset();
        const started = performance.now();
        const before = schedulerTimes(service);
        const ok = await fetch(url, { signal: AbortSignal.timeout(30_000) }).then(
          async (res) => {
            await res.arrayBuffer();
            return res.ok;
          },
          () => false,
        );
        if (!ok) this.failures++;
        const probe = measured(performance.now() - started, before, schedulerTimes(service), ownDelay.max);
        if (probe.heldMs > (this.longest?.heldMs ?? -1)) this.longest = probe;
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
      ownDelay.disable();
    })();
  }

  /** Stops probing: the longest hold in milliseconds, how many probes failed, and that probe. */
  async stop(): Promise<StallReport> {
    this.running = false;
    await this.loop;
    return { longestMs: this.longest?.heldMs ?? 0, failures: this.failures, longest: this.longest };
  }
}

function measured(
  wallMs: number,
  before: ReturnType<typeof schedulerTimes>,
  after: ReturnType<typeof schedulerTimes>,
  ownDelayNs: number,
): Probe {
  if (before && after) {
    const ranMs = after.ranMs - before.ranMs;
    const queuedMs = after.queuedMs - before.queuedMs;
    return { heldMs: Math.min(ranMs, wallMs), wallMs, ranMs, queuedMs };
  }
  // The histogram's max is the longest this loop was late (in ns), its 10 ms resolution included.
  return { heldMs: wallMs - Math.max(0, ownDelayNs / 1e6 - 10), wallMs };
}

/** Runs `work` while watching `url`: its result, and how the service answered meanwhile. */
export async function watched<T>(url: string, work: () => Promise<T>): Promise<{ result: T } & StallReport> {
  const watch = new StallWatch(url);
  try {
    const result = await work();
    return { result, ...(await watch.stop()) };
  } catch (err) {
    await watch.stop();
    throw err;
  }
}
