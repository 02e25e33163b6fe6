/**
 * The machine's processes as /proc/<pid>/stat tells them, read once: each one's parent, command
 * name and processor time. The benchmark's memory and CPU figures both walk a deployment's tree.
 */
import { readdir, readFile } from "node:fs/promises";

export interface ProcessEntry {
  pid: number;
  parent: number;
  /** The command name (at most 15 characters, as the kernel keeps it). */
  name: string;
  /** User and system time so far, in milliseconds. */
  cpuMs: number;
  /**
   * The same of its children that have ended and been waited for: summed over a tree with cpuMs, a
   * process that ends during a measure keeps its time in the figure instead of taking it away.
   */
  endedChildrenCpuMs: number;
}

/** Clock ticks per second of /proc's times: 100 on Linux (USER_HZ). */
const TICKS_PER_SECOND = 100;

async function entryOf(pid: number): Promise<ProcessEntry | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  if (!stat) return undefined; // it ended meanwhile
  // The name in parentheses may hold spaces and parentheses: the fields follow the last ")".
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    pid,
    name: stat.slice(stat.indexOf("(") + 1, close),
    parent: Number(fields[1]),
    // utime and stime, then cutime and cstime: the 14th to the 17th fields of the line.
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
    endedChildrenCpuMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND,
  };
}

export async function processTable(): Promise<ProcessEntry[]> {
  const entries = await Promise.all(
    (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map((name) => entryOf(Number(name))),
  );
  return entries.filter((entry) => entry !== undefined);
}

/** A process and every process below it (the launcher's components, a tool's helper process). */
export function treeOf(root: number, table: readonly ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  const tree = table.filter((entry) => entry.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get((tree[i] as ProcessEntry).pid) ?? []));
  return tree;
}
