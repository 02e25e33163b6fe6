/**
 * An open-loop load: requests sent at evenly spaced times whatever the answers do, as independent
 * clients arrive. autocannon's `overallRate` is not one: each connection sends its share of a second
 * at the second's start, so 25 requests a second arrived as one burst of 25, and the p99 measured
 * how long the burst's last request queued behind the other 24. Latency counts from when a request
 * was due, not from when it left, so a sender that falls behind cannot hide the wait (coordinated
 * omission).
 */
import http from "node:http";

export interface OpenLoopRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopResult {
  /** Milliseconds from each request's due time to the end of its answer, in the order they ended. */
  latenciesMs: number[];
  non2xx: number;
  errors: number;
}

/** How long one answer may take before it counts as an error. */
const ANSWER_TIMEOUT_MS = 30_000;

export async function openLoop(
  url: string,
  request: OpenLoopRequest,
  ratePerSecond: number,
  durationSeconds: number,
): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true });
  const result: OpenLoopResult = { latenciesMs: [], non2xx: 0, errors: 0 };
  const intervalMs = 1000 / ratePerSecond;
  const count = Math.round(ratePerSecond * durationSeconds);
  const start = performance.now();
  const answers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(
      send(url, request, agent).then(
        (status) => {
          result.latenciesMs.push(performance.now() - due);
          if (status < 200 || status > 299) result.non2xx += 1;
        },
        () => {
          result.errors += 1;
        },
      ),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  return result;
}

function send(url: string, request: OpenLoopRequest, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: request.method, headers: request.headers, agent }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
      res.once("error", reject);
    });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error("no answer in time")));
    req.once("error", reject);
    req.end(request.body);
  });
}

/** The q-quantile of some latencies, by the nearest rank. */
export function percentile(latenciesMs: readonly number[], q: number): number {
  if (latenciesMs.length === 0) return 0;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}
