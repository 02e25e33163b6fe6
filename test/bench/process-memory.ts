/**
 * Resident memory of a deployment's gateway, read from /proc: the peak during an operation, with the
 * kernel's high-water mark reset first (writing 5 to clear_refs) so that earlier peaks do not count.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import type { Deployment } from "../support/deployments.js";

async function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]);
}

async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // The command name in parentheses may hold spaces; the parent pid is the second field after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[1] ? Number(fields[1]) : undefined;
}

/** A process and every process below it (the launcher's components, a tool's helper process). */
export async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = await parentOf(pid);
    if (parent !== undefined) parents.set(parent, [...(parents.get(parent) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i] as number) ?? []));
  return tree;
}

/** The resident memory of a process and all its descendants together, in MiB. */
export async function treeRssMiB(root: number): Promise<number> {
  let kib = 0;
  for (const pid of await processTree(root)) kib += await statusKiB(pid, "VmRSS").catch(() => 0);
  return Math.round(kib / 1024);
}

/** The process serving the deployment's first gateway: the root itself in standalone mode. */
export async function gatewayPid(deployment: Deployment): Promise<number> {
  if (deployment.mode === "standalone") return deployment.pid;
  const port = new URL(deployment.gateways[0] as string).port;
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || (await parentOf(pid)) !== deployment.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
    if (
      /gateway\/(src\/server\.ts|dist\/server\.js)/.test(cmdline) &&
      environ.split("\0").includes(`PORT=${port}`)
    )
      return pid;
  }
  throw new Error(`no gateway process on port ${port} under ${deployment.pid}`);
}

export interface MemoryGrowth {
  beforeMiB: number;
  peakMiB: number;
  growthMiB: number;
}

export async function peakDuring(pid: number, operation: () => Promise<void>): Promise<MemoryGrowth> {
  await writeFile(`/proc/${pid}/clear_refs`, "5");
  const before = await statusKiB(pid, "VmRSS");
  await operation();
  const peak = await statusKiB(pid, "VmHWM");
  const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;
  return { beforeMiB: mib(before), peakMiB: mib(peak), growthMiB: mib(peak - before) };
}
