/**
 * One load run with autocannon: fixed connections and duration, the same request bytes for every
 * target, and the figures we report. A warm-up run first is discarded.
 */
import autocannon from "autocannon";

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

function run(url: string, options: LoadOptions, durationSeconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    duration: durationSeconds,
    headers: options.headers,
  });
}

export async function measure(target: string, url: string, options: LoadOptions): Promise<Figures> {
  await run(url, options, options.warmUpSeconds);
  const result = await run(url, options, options.durationSeconds);
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
