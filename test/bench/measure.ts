/**
 * One load run and the figures we report: with autocannon as fast as answers come (fixed
 * connections and duration, the same request bytes for every target), or offered at a fixed rate
 * (open-loop.ts). A warm-up run first is discarded.
 */
import autocannon from "autocannon";
import { type OpenLoopRequest, openLoop, percentile } from "./open-loop.js";
import { cpuDuring, settledIdleCpuMsPerSecond } from "./process-cpu.js";

export interface Figures {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmUpSeconds: number;
  headers: Record<string, string>;
}

/** A request other than a GET with the run's headers. */
export interface RequestShape {
  method: "POST";
  json: unknown;
}

/** The request a load sends: a GET with the run's headers, or `shape` as JSON. */
function requestOf(options: LoadOptions, shape?: RequestShape): OpenLoopRequest {
  return shape
    ? {
        method: shape.method,
        headers: { ...options.headers, "content-type": "application/json" },
        body: JSON.stringify(shape.json),
      }
    : { method: "GET", headers: options.headers };
}

function run(
  url: string,
  options: LoadOptions,
  durationSeconds: number,
  shape?: RequestShape,
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    duration: durationSeconds,
    ...requestOf(options, shape),
  });
}

function figuresOf(target: string, result: autocannon.Result): Figures {
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export async function measure(
  target: string,
  url: string,
  options: LoadOptions,
  shape?: RequestShape,
): Promise<Figures> {
  await run(url, options, options.warmUpSeconds, shape);
  return figuresOf(target, await run(url, options, options.durationSeconds, shape));
}

/**
 * The rate create-and-send is offered at for its latency and processor time (issue 36): within
 * what one process (standalone) and one replica of each service (distributed) should take calmly.
 */
export const CREATE_SEND_RATE = { standalone: 25, distributed: 50 } as const;

/** What a fixed-rate run adds: the processor time of the deployment per request answered. */
export interface RateFigures extends Figures {
  ratePerSecond: number;
  cpuMsPerRequest: number;
  /** Processor time per second of the settled deployment before the load: what no request caused. */
  idleCpuMsPerSecond: number;
}

/**
 * The same request offered at a fixed rate, evenly spaced whatever the answers do (open loop,
 * open-loop.ts), instead of as fast as answers come: the latency a client sees at that load, and
 * the processor time every process below `deploymentPid` spent per request. Once the deployment has
 * settled, after a warm-up at the same rate.
 */
export async function measureAtRate(
  target: string,
  url: string,
  options: LoadOptions,
  ratePerSecond: number,
  deploymentPid: number,
  shape?: RequestShape,
): Promise<RateFigures> {
  const request = requestOf(options, shape);
  // Not the backlog of the load before: the e-mails and events of thousands of requests.
  const idleCpuMsPerSecond = await settledIdleCpuMsPerSecond(deploymentPid);
  await openLoop(url, request, ratePerSecond, options.warmUpSeconds);
  const { result, cpuMs } = await cpuDuring(deploymentPid, () =>
    openLoop(url, request, ratePerSecond, options.durationSeconds),
  );
  const answered = result.latenciesMs.length;
  return {
    target,
    requestsPerSecond: Math.round(answered / options.durationSeconds),
    p50Ms: Math.round(percentile(result.latenciesMs, 0.5) * 10) / 10,
    p99Ms: Math.round(percentile(result.latenciesMs, 0.99) * 10) / 10,
    requests: answered,
    non2xx: result.non2xx,
    errors: result.errors,
    ratePerSecond,
    cpuMsPerRequest: Math.round((cpuMs / Math.max(1, answered)) * 100) / 100,
    idleCpuMsPerSecond,
  };
}
