/**
 * `npm run bench`: GET /v1/ping through the gateway in both modes against bare Express and bare
 * Node in the same run; prints the figures and writes docs/benchmarks.md.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Deployment,
  OwnedProcess,
  REPO,
  startDistributed,
  startStandalone,
} from "../support/deployments.js";
import { distributedInfra } from "../support/infra.js";
import { type LoadOptions, measure } from "./measure.js";
import { type ModeResult, printResults, writeReport } from "./report.js";

const options: LoadOptions = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  durationSeconds: Number(process.env.BENCH_DURATION_SECONDS ?? 10),
  warmUpSeconds: 2,
  headers: {},
};

/** Production logging, and a limit so high that the limiter only keeps its books. */
const GATEWAY_ENV = {
  LOG_LEVEL: "info",
  COUNTERSIGN_RATE_LIMIT_PER_SECOND: "1000000",
  COUNTERSIGN_RATE_LIMIT_BURST: "1000000",
};

async function baseline(entry: string, logs: string): Promise<{ url: string; proc: OwnedProcess }> {
  const proc = OwnedProcess.start(entry, { PORT: "0" }, join(logs, `${entry.split("/").pop()}.log`));
  const [, port] = await proc.waitFor(/"listening":(\d+)/);
  return { url: `http://127.0.0.1:${port}/v1/ping`, proc };
}

async function keyFor(deployment: Deployment): Promise<string> {
  const { stdout, stderr, code } = await deployment.cli("keys", "create", "--name", "bench");
  if (code !== 0) throw new Error(`could not create a key: ${stderr}`);
  return (JSON.parse(stdout) as { secret: string }).secret;
}

async function benchMode(
  mode: ModeResult["mode"],
  deployment: Deployment,
  baselines: { node: string; express: string },
): Promise<ModeResult> {
  options.headers = { authorization: `Bearer ${await keyFor(deployment)}` };
  console.log(`${mode}: measuring the gateway, bare Express, bare Node (${options.durationSeconds} s each)`);
  const gateway = await measure("gateway", `${deployment.gateways[0]}/v1/ping`, options);
  const express = await measure("bare Express", baselines.express, options);
  const node = await measure("bare Node", baselines.node, options);
  for (const f of [gateway, express, node]) {
    if (f.non2xx + f.errors > 0)
      console.warn(`${mode} ${f.target}: ${f.non2xx} non-2xx answers, ${f.errors} errors`);
  }
  return { mode, gateway, express, node };
}

async function main(): Promise<void> {
  const logs = await mkdtemp(join(tmpdir(), "countersign-bench-"));
  console.log(`bench: server logs in ${logs}`);
  const owned: { stop(): Promise<unknown> }[] = [];
  const results: ModeResult[] = [];
  try {
    const node = await baseline("test/bench/bare-node.ts", logs);
    const express = await baseline("test/bench/bare-express.ts", logs);
    owned.push(node.proc, express.proc);
    const baselines = { node: node.url, express: express.url };

    const standalone = await startStandalone(undefined, {
      env: GATEWAY_ENV,
      logFile: join(logs, "standalone.log"),
    });
    owned.push({ stop: () => standalone.destroy() });
    results.push(await benchMode("standalone", standalone, baselines));
    await standalone.destroy();

    const infra = await distributedInfra();
    if (infra) {
      const distributed = await startDistributed(infra, {
        env: GATEWAY_ENV,
        logFile: join(logs, "distributed.log"),
      });
      owned.push({ stop: () => distributed.destroy() });
      results.push(await benchMode("distributed", distributed, baselines));
      await distributed.destroy();
      await infra.close();
    }
  } finally {
    for (const process of owned.reverse()) await process.stop().catch(() => {});
  }
  printResults(results);
  await writeReport(join(REPO, "docs/benchmarks.md"), results, options);
  console.log("bench: wrote docs/benchmarks.md");
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
