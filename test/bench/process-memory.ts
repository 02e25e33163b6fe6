/**
 * Resident memory of a deployment's gateway, read from /proc: the peak during an operation, with the
 * kernel's high-water mark reset first (writing 5 to clear_refs) so that earlier peaks do not count.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { Deployment } from "../support/deployments.js";
import { listeningProcess } from "../support/listening-process.js";
import { processTable, treeOf } from "./process-table.js";

async function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]);
}

/** The resident memory of a process and all its descendants together, in MiB. */
export async function treeRssMiB(root: number): Promise<number> {
  let kib = 0;
  for (const { pid } of treeOf(root, await processTable()))
    kib += await statusKiB(pid, "VmRSS").catch(() => 0);
  return Math.round(kib / 1024);
}

/** The process serving the deployment's first gateway: the root itself in standalone mode. */
export function gatewayPid(deployment: Deployment): number {
  const pid = listeningProcess(Number(new URL(deployment.gateways[0] as string).port));
  if (pid === undefined)
    throw new Error("the gateway's process is found through /proc, which this system lacks");
  return pid;
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
