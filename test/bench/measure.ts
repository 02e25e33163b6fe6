/**
 * One load run with autocannon: fixed connections and duration, the same request bytes for every
 * target, and the figures we report. A warm-up run first is discarded.
 */
import autocannon from "autocannon";
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

function run(
  url: string,
  options: LoadOptions,
  durationSeconds: number,
  shape?: RequestShape,
  overallRate?: number,
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    duration: durationSeconds,
    ...(overallRate === undefined ? {} : { overallRate }),
    headers: shape ? { ...options.headers, "content-type": "application/json" } : options.headers,
    method: shape?.method ?? "GET",
    body: shape ? JSON.stringify(shape.json) : undefined,
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

/** What a fixed-rate run adds: the processor time of the deployment per request answered. */
export interface RateFigures extends Figures {
  ratePerSecond: number;
  cpuMsPerRequest: number;
  /** Processor time per second of the settled deployment before the load: what no request caused. */
  idleCpuMsPerSecond: number;
}

/**
 * The same request offered at a fixed rate (requests per second over all connections) instead of
 * as fast as answers come: the latency a client sees at that load, and the processor time every
 * process below `deploymentPid` spent per request. Once the deployment has settled, after a warm-up
 * at the same rate.
 */
export async function measureAtRate(
  target: string,
  url: string,
  options: LoadOptions,
  ratePerSecond: number,
  deploymentPid: number,
  shape?: RequestShape,
): Promise<RateFigures> {
  // Not the backlog of the load before: the e-mails and events of thousands of requests.
  const idleCpuMsPerSecond = await settledIdleCpuMsPerSecond(deploymentPid);
  await run(url, options, options.warmUpSeconds, shape, ratePerSecond);
  const { result, cpuMs } = await cpuDuring(deploymentPid, () =>
    run(url, options, options.durationSeconds, shape, ratePerSecond),
  );
  return {
    ...figuresOf(target, result),
    ratePerSecond,
    cpuMsPerRequest: Math.round((cpuMs / Math.max(1, result.requests.total)) * 100) / 100,
    idleCpuMsPerSecond,
  };
}
