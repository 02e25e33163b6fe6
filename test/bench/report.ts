/** Prints the figures and writes docs/benchmarks.md with the method, the machine and the ratios. */

import { writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import type { Figures, LoadOptions } from "./measure.js";

export interface ModeResult {
  mode: "standalone" | "distributed";
  gateway: Figures;
  express: Figures;
  node: Figures;
}

/** Our own target: the gateway keeps at least 0.6 of bare Express's throughput in standalone mode. */
export const TARGET_RATIO = 0.6;

const ratio = (a: Figures, b: Figures) => a.requestsPerSecond / b.requestsPerSecond;
const fixed = (n: number) => n.toFixed(2);

function table(results: ModeResult[]): string {
  const rows = results.flatMap(({ mode, gateway, express, node }) =>
    [gateway, express, node].map(
      (f) =>
        `| ${mode} | ${f.target} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.requests} | ${f.non2xx + f.errors} |`,
    ),
  );
  return [
    "| mode | target | req/s | p50 ms | p99 ms | requests | failed |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

function ratios(results: ModeResult[]): string {
  return results
    .map(({ mode, gateway, express, node }) => {
      const gatewayToExpress = ratio(gateway, express);
      const met =
        mode === "standalone"
          ? gatewayToExpress >= TARGET_RATIO
            ? " — target met"
            : " — target missed"
          : "";
      return `- ${mode}: gateway / bare Express = **${fixed(gatewayToExpress)}**${met}; bare Express / bare Node = ${fixed(ratio(express, node))}; gateway / bare Node = ${fixed(ratio(gateway, node))}`;
    })
    .join("\n");
}

export function printResults(results: ModeResult[]): void {
  console.log(`\n${table(results)}\n\n${ratios(results)}\n`);
}

export async function writeReport(path: string, results: ModeResult[], options: LoadOptions): Promise<void> {
  const cpu = cpus();
  const text = `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Every figure is a ratio
against baselines measured in the same run on the same machine, never an absolute promise.

## GET /v1/ping through the gateway

What is measured: \`GET /v1/ping\` with a valid, cached API key — the gateway's whole path: request
id, access log line (pino, level info, written to a file), key verification from the cache, rate
limiter bookkeeping (limit raised so nothing is refused), JSON answer, and the call's record for Recent Errors and API Usage
(sent to auth in batches, as ApiCallsRecorded events). Against two baselines answering the same route with the
same JSON: a bare Express app and a bare Node \`http\` server, each in its own process. Load:
autocannon from the benchmark's own process, ${options.connections} connections, no pipelining,
${options.warmUpSeconds} s warm-up (discarded), then ${options.durationSeconds} s, the same headers
for every target. Standalone: one process for everything. Distributed: one gateway replica of the
local distributed deployment (services over gRPC, NATS JetStream, Postgres).

Machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}. The load generator shares the 2 cores with the server under test, so
absolute numbers are low; the ratios are what to compare.

${table(results)}

${ratios(results)}

Target: gateway ≥ ${TARGET_RATIO} × bare Express in standalone mode. Measured before any code:
bare Express ≈ 0.15 × bare Node, the price of the framework alone.
`;
  await writeFile(path, text);
}
