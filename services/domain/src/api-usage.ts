/**
 * How API Usage counts calls, which the gateway does and auth stores: by UTC day, and by latency in
 * fixed buckets that auth reads percentiles from. Exact percentiles would need every sample; buckets
 * that grow by about half each step keep the p50/p95 estimate within one bucket's width
 * (interpolated inside it) at a fixed cost per day and route.
 */
export const LATENCY_BUCKET_UPPER_BOUNDS_MS = [
  1,
  2,
  3,
  5,
  7.5,
  10,
  15,
  20,
  30,
  50,
  75,
  100,
  150,
  200,
  300,
  500,
  750,
  1000,
  1500,
  2000,
  3000,
  5000,
  7500,
  10000,
  15000,
  30000,
  60000,
  Number.POSITIVE_INFINITY,
];

export function latencyBucketOf(durationMs: number): number {
  const index = LATENCY_BUCKET_UPPER_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? LATENCY_BUCKET_UPPER_BOUNDS_MS.length - 1 : index;
}

/** The q-quantile (0 < q < 1) of a histogram given as counts by bucket index. */
export function latencyQuantile(counts: ReadonlyMap<number, number>, q: number): number {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const rank = q * total;
  let seen = 0;
  for (let bucket = 0; bucket < LATENCY_BUCKET_UPPER_BOUNDS_MS.length; bucket++) {
    const count = counts.get(bucket) ?? 0;
    if (count > 0 && seen + count >= rank) {
      const lower = bucket === 0 ? 0 : (LATENCY_BUCKET_UPPER_BOUNDS_MS[bucket - 1] as number);
      const upper = LATENCY_BUCKET_UPPER_BOUNDS_MS[bucket] as number;
      // The open last bucket has no width to interpolate over: report its lower bound.
      if (!Number.isFinite(upper)) return lower;
      return lower + ((rank - seen) / count) * (upper - lower);
    }
    seen += count;
  }
  return 0;
}

let lastDay = { number: Number.NaN, name: "" };

/**
 * The UTC day of a time in milliseconds, "YYYY-MM-DD", as API Usage counts by: worked out once per
 * day rather than once per call, since the calls of a busy minute all fall on the same one.
 */
export function utcDayOf(ms: number): string {
  const number = Math.floor(ms / 86_400_000);
  if (number !== lastDay.number) {
    lastDay = { number, name: new Date(number * 86_400_000).toISOString().slice(0, 10) };
  }
  return lastDay.name;
}
