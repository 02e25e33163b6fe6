/**
 * The process behind a local port, and how long its main thread waited for a processor: what a
 * latency test needs to tell a service that held its event loop from one the machine did not run.
 * Linux only (it reads /proc); elsewhere there is no answer and nothing is taken off.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const LISTEN = "0A";

/** Inodes of the sockets listening on `port`, from the kernel's IPv4 and IPv6 tables. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      const [localAddress, state, inode] = [columns[1], columns[3], columns[9]];
      if (!localAddress || state !== LISTEN || !inode) continue;
      if (Number.parseInt(localAddress.split(":").at(-1) ?? "", 16) === port) inodes.add(inode);
    }
  }
  return inodes;
}

function descriptorsOf(pid: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
  } catch {
    return []; // the process ended while we looked
  }
}

/**
 * The id of the process listening on `port` on this machine; undefined where /proc does not tell
 * (not Linux). On Linux a port nobody listens on is an error: the caller would measure nothing.
 */
export function listeningProcess(port: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  const sockets = new Set([...listeningInodes(port)].map((inode) => `socket:[${inode}]`));
  if (sockets.size > 0) {
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      if (descriptorsOf(pid).some((target) => sockets.has(target))) return Number(pid);
    }
  }
  throw new Error(`no process of this machine listens on port ${port}`);
}

/** How long a thread has run on a processor, and waited ready for one, since it started. */
export interface SchedulerTimes {
  ranMs: number;
  queuedMs: number;
}

/**
 * The scheduler's account of the main thread of `pid` (the first two fields of its schedstat, in
 * ns): undefined where it cannot be read (not Linux, or the process ended). Time on a processor
 * leaves out what a hypervisor took for other machines (steal), so it is the thread's own work.
 */
export function schedulerTimes(pid: number | undefined): SchedulerTimes | undefined {
  if (pid === undefined) return undefined;
  try {
    const [ranNs, queuedNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8")
      .split(" ")
      .map(Number);
    if (!Number.isFinite(ranNs) || !Number.isFinite(queuedNs)) return undefined;
    return { ranMs: (ranNs as number) / 1e6, queuedMs: (queuedNs as number) / 1e6 };
  } catch {
    return undefined;
  }
}
