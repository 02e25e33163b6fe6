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
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    duration: durationSeconds,
    headers: shape ? { ...options.headers, "content-type": "application/json" } : options.headers,
    method: shape?.method ?? "GET",
    body: shape ? JSON.stringify(shape.json) : undefined,
  });
}

export async function measure(
  target: string,
  url: string,
  options: LoadOptions,
  shape?: RequestShape,
): Promise<Figures> {
  await run(url, options, options.warmUpSeconds, shape);
  const result = await run(url, options, options.durationSeconds, shape);
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
