/**
 * How long a deployment takes to answer and what it holds idle: a first start on a new data
 * directory (standalone: from the install's cluster template; distributed: creating each service's
 * database and migrating it), the resident memory of all its processes once settled, and for
 * standalone a restart on the same data. Each deployment is left running for the load that follows.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Deployment,
  type StartOptions,
  startDistributed,
  startStandalone,
} from "../support/deployments.js";
import type { Infra } from "../support/infra.js";
import { treeRssMiB } from "./process-memory.js";

export interface StartupFigures {
  firstStartS: number;
  idleRssMiB: number;
  restartS?: number;
  idleRssAfterRestartMiB?: number;
}

/** Long enough for start-up work (template copies, first outbox polls, JIT) to end. */
const SETTLE_MS = 5_000;

async function timed<T>(start: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await start();
  return [value, Math.round((performance.now() - started) / 100) / 10];
}

async function settledRss(deployment: Deployment): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return treeRssMiB(deployment.pid);
}

export async function standaloneStartup(
  options: StartOptions,
): Promise<{ deployment: Deployment; figures: StartupFigures }> {
  const dataDir = await mkdtemp(join(tmpdir(), "countersign-bench-standalone-"));
  const [first, firstStartS] = await timed(() => startStandalone(dataDir, options));
  const idleRssMiB = await settledRss(first);
  await first.stop();
  // A log of its own: the ready line the start waits for must be the restart's.
  const logFile = options.logFile?.replace(/(\.log)?$/, "-restart.log");
  const [deployment, restartS] = await timed(() => startStandalone(dataDir, { ...options, logFile }));
  const idleRssAfterRestartMiB = await settledRss(deployment);
  return { deployment, figures: { firstStartS, idleRssMiB, restartS, idleRssAfterRestartMiB } };
}

export async function distributedStartup(
  infra: Infra,
  options: StartOptions,
): Promise<{ deployment: Deployment; figures: StartupFigures }> {
  const [deployment, firstStartS] = await timed(() => startDistributed(infra, options));
  return { deployment, figures: { firstStartS, idleRssMiB: await settledRss(deployment) } };
}
