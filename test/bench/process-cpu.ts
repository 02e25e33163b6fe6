/**
 * Processor time of a deployment, read from /proc: every process of its tree (the launcher's
 * components, the job processes they fork) and the PostgreSQL and NATS servers it uses, user and
 * system time together, so that a figure per request counts all the work the request caused
 * wherever it ran, even in a process that ended meanwhile.
 */
import { processTable, treeOf } from "./process-table.js";

/**
 * The servers a distributed deployment uses besides its own processes: their work for a request is
 * the request's too. On the benchmark's machine nothing else uses them.
 */
const SHARED_SERVERS = new Set(["postgres", "nats-server"]);

/**
 * Milliseconds of processor time the tree below `root` and the shared servers have used so far. A
 * process that ended counts through its parent: a PostgreSQL backend whose connection a pool closed
 * as idle took the time of every statement it ran away from the figure, and the distributed
 * deployment's idle use came out at −900 ms a second.
 */
async function usedCpuMs(root: number): Promise<number> {
  const table = await processTable();
  const counted = new Set([
    ...treeOf(root, table),
    ...table.filter((entry) => SHARED_SERVERS.has(entry.name)),
  ]);
  let total = 0;
  for (const entry of counted) total += entry.cpuMs + entry.endedChildrenCpuMs;
  return total;
}

/**
 * `operation`'s result and the processor time used meanwhile, in milliseconds, by the deployment
 * below `root` and by PostgreSQL and NATS (their backends included).
 */
export async function cpuDuring<T>(
  root: number,
  operation: () => Promise<T>,
): Promise<{ result: T; cpuMs: number }> {
  const before = await usedCpuMs(root);
  const result = await operation();
  return { result, cpuMs: (await usedCpuMs(root)) - before };
}

/** Below this share of one processor, a deployment has finished what earlier loads left it to do. */
const SETTLED_SHARE = 0.05;

/**
 * Waits until the deployment works through what earlier loads queued (e-mails, outbox events,
 * webhook deliveries of thousands of requests), at most `limitMs`; then its processor time per
 * second while idle, the share of a fixed-rate figure that no request caused.
 */
export async function settledIdleCpuMsPerSecond(root: number, limitMs = 120_000): Promise<number> {
  const second = () => new Promise((resolve) => setTimeout(resolve, 1_000));
  const deadline = Date.now() + limitMs;
  for (;;) {
    const { cpuMs } = await cpuDuring(root, second);
    if (cpuMs < 1_000 * SETTLED_SHARE || Date.now() > deadline) break;
  }
  const { cpuMs } = await cpuDuring(root, async () => {
    for (let i = 0; i < 5; i++) await second();
  });
  return Math.round(cpuMs / 5);
}
