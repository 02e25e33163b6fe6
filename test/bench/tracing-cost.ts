/**
 * What tracing costs a ping: two deployments of one mode side by side, one untraced and one with
 * OpenTelemetry on at 10 % sampling, sending its spans over OTLP/HTTP to a sink that takes them
 * as a collector would (read, answered 200). The cost is the processor time of every process of
 * the deployment per ping, offered at a fixed rate; the throughput of pings as fast as they are
 * answered is reported beside it. Runs alternate ABBA so that the host's drift falls on both alike,
 * and a second pair is started in the other order: of two untraced deployments, the one started
 * second answered about 5 % fewer pings.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Deployment } from "../support/deployments.js";
import { type Figures, type LoadOptions, measure, measureAtRate, type RateFigures } from "./measure.js";

/** The variables that turn tracing on at 10 %, sending to `endpoint`. */
export const tracingEnv = (endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
  OTEL_TRACES_SAMPLER_ARG: "0.1",
});

/** Pings a second, offered evenly: well below either deployment's saturation on two cores. */
export const TRACING_PING_RATE = 2000;

export interface TracingCost {
  untraced: Figures;
  traced: Figures;
  untracedAtRate: RateFigures;
  tracedAtRate: RateFigures;
  /** OTLP export requests the sink took, which shows the traced deployment did send. */
  exports: number;
}

/** A stand-in for an OpenTelemetry collector: reads each export and answers 200. */
async function startOtlpSink(): Promise<{ endpoint: string; exports: () => number; server: Server }> {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/v1/traces") exports += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, exports: () => exports, server };
}

const mean = (values: number[]) => values.reduce((n, v) => n + v, 0) / Math.max(1, values.length);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The runs of one arm as one figure: rates and percentiles averaged, counts summed. */
function combined<F extends Figures>(target: string, runs: F[]): F {
  const first = runs[0] as F;
  const averaged: Record<string, number | string> = {
    ...(first as unknown as Record<string, number>),
    target,
  };
  for (const [name, value] of Object.entries(first)) {
    if (typeof value !== "number") continue;
    const values = runs.map((run) => (run as unknown as Record<string, number>)[name] as number);
    averaged[name] = ["requests", "non2xx", "errors"].includes(name)
      ? values.reduce((n, v) => n + v, 0)
      : round2(mean(values));
  }
  return averaged as unknown as F;
}

interface Arm {
  url: string;
  headers: Record<string, string>;
  pid: number;
}

/**
 * `start` makes a deployment of the mode with the variables given; `ping` is its authorised ping
 * (the key made on it). Each pair is destroyed before the next starts.
 */
export async function measureTracingCost(
  start: (env: Record<string, string>) => Promise<Deployment>,
  ping: (deployment: Deployment) => Promise<{ url: string; headers: Record<string, string> }>,
  options: LoadOptions,
): Promise<TracingCost> {
  const sink = await startOtlpSink();
  const closed: Figures[][] = [[], []];
  const atRate: RateFigures[][] = [[], []];
  const turn = {
    ...options,
    durationSeconds: Math.max(3, Math.round(options.durationSeconds / 2)),
    warmUpSeconds: 1,
  };
  const name = (i: number) => (i === 0 ? "untraced" : "traced");
  try {
    for (const tracedFirst of [false, true]) {
      const deployments: Deployment[] = [];
      try {
        for (const traced of tracedFirst ? [1, 0] : [0, 1]) {
          deployments[traced] = await start(traced ? tracingEnv(sink.endpoint) : {});
        }
        const arms: Arm[] = [];
        for (const deployment of deployments) arms.push({ ...(await ping(deployment)), pid: deployment.pid });
        for (const i of [0, 1, 1, 0]) {
          const arm = arms[i] as Arm;
          atRate[i]?.push(
            await measureAtRate(
              name(i),
              arm.url,
              { ...turn, headers: arm.headers },
              TRACING_PING_RATE,
              arm.pid,
            ),
          );
        }
        for (const i of [0, 1, 1, 0]) {
          const arm = arms[i] as Arm;
          closed[i]?.push(await measure(name(i), arm.url, { ...turn, headers: arm.headers }));
        }
      } finally {
        for (const deployment of deployments) await deployment?.destroy().catch(() => {});
      }
    }
    return {
      untraced: combined("ping, untraced", closed[0] ?? []),
      traced: combined("ping, traced at 10 %", closed[1] ?? []),
      untracedAtRate: combined(`ping at ${TRACING_PING_RATE}/s, untraced`, atRate[0] ?? []),
      tracedAtRate: combined(`ping at ${TRACING_PING_RATE}/s, traced at 10 %`, atRate[1] ?? []),
      exports: sink.exports(),
    };
  } finally {
    await new Promise((resolve) => sink.server.close(resolve));
  }
}
