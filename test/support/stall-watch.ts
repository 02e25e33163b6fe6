/**
 * Watches a service's liveness while hostile work runs: a probe every few milliseconds, keeping the
 * longest answer time. An event loop held by one request shows here first, as every tenant's calls
 * would wait as long.
 *
 * A probe's time is the service's only. Two waits that are not the service's are taken off, or the
 * watch would blame it for them: how long this process's own loop was held meanwhile (a collection
 * of the test runner's heap took over a second), and how long the service's main thread was ready
 * but waited for a processor the machine gave to others (under CI's load, up to 40 times the time
 * it ran: a probe of 136 ms was 11 ms on a processor and 122 ms in the run queue). Time the service
 * ran, or was blocked on its own I/O, counts.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { listeningProcess, runQueueWaitMs } from "./listening-process.js";

export class StallWatch {
  private longestMs = 0;
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
        const queuedBefore = runQueueWaitMs(service);
        const ok = await fetch(url, { signal: AbortSignal.timeout(30_000) }).then(
          async (res) => {
            await res.arrayBuffer();
            return res.ok;
          },
          () => false,
        );
        if (!ok) this.failures++;
        // The histogram's max is the longest this loop was late (in ns), its 10 ms resolution included.
        const ownPauseMs = Math.max(0, ownDelay.max / 1e6 - 10);
        const queuedMs = runQueueWaitMs(service) - queuedBefore;
        this.longestMs = Math.max(this.longestMs, performance.now() - started - ownPauseMs - queuedMs);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
      ownDelay.disable();
    })();
  }

  /** Stops probing: the longest answer in milliseconds, and how many probes failed. */
  async stop(): Promise<{ longestMs: number; failures: number }> {
    this.running = false;
    await this.loop;
    return { longestMs: this.longestMs, failures: this.failures };
  }
}

/** Runs `work` while watching `url`: its result, and how the service answered meanwhile. */
export async function watched<T>(
  url: string,
  work: () => Promise<T>,
): Promise<{ result: T; longestMs: number; failures: number }> {
  const watch = new StallWatch(url);
  try {
    const result = await work();
    return { result, ...(await watch.stop()) };
  } catch (err) {
    await watch.stop();
    throw err;
  }
}
