import {
  LATENCY_BUCKET_UPPER_BOUNDS_MS,
  latencyBucketOf,
  latencyQuantile,
  utcDayOf,
} from "../src/api-usage.js";

function histogramOf(samples: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const sample of samples)
    counts.set(latencyBucketOf(sample), (counts.get(latencyBucketOf(sample)) ?? 0) + 1);
  return counts;
}

/** The width of the bucket a value falls in: the promised accuracy of an estimate. */
function bucketWidth(value: number): number {
  const bucket = latencyBucketOf(value);
  return (
    (LATENCY_BUCKET_UPPER_BOUNDS_MS[bucket] as number) -
    (bucket === 0 ? 0 : (LATENCY_BUCKET_UPPER_BOUNDS_MS[bucket - 1] as number))
  );
}

test("a duration falls in the first bucket whose upper bound is not below it", () => {
  expect(latencyBucketOf(0)).toBe(0);
  expect(latencyBucketOf(1)).toBe(0);
  expect(latencyBucketOf(1.01)).toBe(1);
  expect(latencyBucketOf(99)).toBe(LATENCY_BUCKET_UPPER_BOUNDS_MS.indexOf(100));
  expect(latencyBucketOf(10 ** 9)).toBe(LATENCY_BUCKET_UPPER_BOUNDS_MS.length - 1);
});

test("p50 and p95 estimates land within one bucket of the exact values", () => {
  const samples = Array.from({ length: 1000 }, (_, i) => 2 + (i % 100) * 3);
  const sorted = [...samples].sort((a, b) => a - b);
  const histogram = histogramOf(samples);
  for (const q of [0.5, 0.95]) {
    const exact = sorted[Math.ceil(q * sorted.length) - 1] as number;
    expect(Math.abs(latencyQuantile(histogram, q) - exact)).toBeLessThanOrEqual(bucketWidth(exact));
  }
});

test("an empty histogram has no latency", () => {
  expect(latencyQuantile(new Map(), 0.95)).toBe(0);
});

test("a call's day is its UTC day, the same for every call of it and the next from midnight", () => {
  const midnight = Date.parse("2026-11-27T00:00:00Z");
  expect(utcDayOf(midnight - 1)).toBe("2026-11-26");
  expect(utcDayOf(midnight)).toBe("2026-11-27");
  expect(utcDayOf(midnight + 86_399_999)).toBe("2026-11-27");
  expect(utcDayOf(midnight - 1)).toBe("2026-11-26");
});
