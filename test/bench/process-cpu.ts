/**
 * Processor time of a deployment, read from /proc: every process of its tree (the launcher's
 * components, the job processes they fork) and the PostgreSQL and NATS servers it uses, user and
 * system time together, so that a figure per request counts all the work the request caused
 * wherever it ran. A process that ends during the measure takes its time with it.
 */
import { readdir, readFile } from "node:fs/promises";
import { processTree } from "./process-memory.js";

/** Clock ticks per second of /proc's times: 100 on Linux (USER_HZ). */
const TICKS_PER_SECOND = 100;

async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  if (!stat) return 0; // it ended meanwhile
  // After the command name in parentheses: utime and stime are the 12th and 13th fields.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The servers a distributed deployment uses besides its own processes: their work for a request is
 * the request's too. On the benchmark's machine nothing else uses them.
 */
const SHARED_SERVERS = new Set(["postgres", "nats-server"]);

async function sharedServerPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const name = (await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "")).trim();
    if (SHARED_SERVERS.has(name)) pids.push(pid);
  }
  return pids;
}

/** Milliseconds of processor time the tree below `root` and the shared servers have used so far. */
async function usedCpuMs(root: number): Promise<number> {
  let total = 0;
  for (const pid of new Set([...(await processTree(root)), ...(await sharedServerPids())]))
    total += await cpuMsOf(pid);
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
