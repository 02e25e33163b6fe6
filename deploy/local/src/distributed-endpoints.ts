/** Where a running local distributed deployment can be reached; written by the launcher (mode 0600). */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export const DISTRIBUTED_FILE = "distributed.json";

export interface DistributedEndpoints {
  gateways: string[];
  services: Record<string, string[]>;
  /** The operator's token (the CLI's): every service answers it, every method. */
  operatorToken: string;
  /** The launcher's process id. */
  pid: number;
  /** The process id of each replica now running, by name (`requests-0`, `gateway-1`). */
  pids: Record<string, number>;
}

export async function readDistributedEndpoints(dataDir: string): Promise<DistributedEndpoints | undefined> {
  const text = await readFile(join(dataDir, DISTRIBUTED_FILE), "utf8").catch(() => undefined);
  return text ? (JSON.parse(text) as DistributedEndpoints) : undefined;
}
