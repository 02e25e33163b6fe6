import type { Request } from "express";
import { HourlyCalls, RateLimiter, takeForAddress } from "../src/rate-limiter.js";

function limiterAt(ratePerSecond: number, burst: number) {
  const clock = { now: 0 };
  return { clock, limiter: new RateLimiter(ratePerSecond, burst, () => clock.now) };
}

test("a fresh key may burst, then is refused with the wait until one call is allowed", () => {
  const { limiter } = limiterAt(50, 100);
  for (let i = 0; i < 100; i++) expect(limiter.take("k").allowed).toBe(true);
  const refused = limiter.take("k");
  expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1, limit: 100 });
});

test("tokens flow back at the rate: 50 a second allows 5 more calls after 100 ms", () => {
  const { clock, limiter } = limiterAt(50, 100);
  for (let i = 0; i < 100; i++) limiter.take("k");
  clock.now += 100;
  const allowed = Array.from({ length: 6 }, () => limiter.take("k").allowed);
  expect(allowed).toEqual([true, true, true, true, true, false]);
});

test("keys have separate buckets", () => {
  const { limiter } = limiterAt(1, 1);
  expect(limiter.take("a").allowed).toBe(true);
  expect(limiter.take("a").allowed).toBe(false);
  expect(limiter.take("b").allowed).toBe(true);
});

test("remaining counts down and reset says when the bucket is full again", () => {
  const { limiter } = limiterAt(10, 20);
  const first = limiter.take("k");
  expect(first.remaining).toBe(19);
  expect(first.resetSeconds).toBe(1);
  for (let i = 0; i < 19; i++) limiter.take("k");
  expect(limiter.take("k").resetSeconds).toBe(2);
});

test("a batch takes one token per call, all or none, and waits for enough of them", () => {
  const { clock, limiter } = limiterAt(10, 10);
  expect(limiter.take("k", 8).allowed).toBe(true);
  const refused = limiter.take("k", 5);
  expect(refused).toMatchObject({ allowed: false, remaining: 2, retryAfterSeconds: 1 });
  expect(limiter.take("k", 2).allowed).toBe(true);
  clock.now += 500;
  expect(limiter.take("k", 5).allowed).toBe(true);
  expect(limiter.take("k").allowed).toBe(false);
});

test("hourly calls count each key's calls in the current UTC hour and start again at the next", () => {
  const clock = { now: Date.UTC(2026, 10, 27, 9, 59, 59) };
  const hourly = new HourlyCalls(() => clock.now);
  const tenOClock = Date.UTC(2026, 10, 27, 10) / 1000;
  expect(hourly.add("a", 1)).toEqual({ used: 1, nextHourEpochSeconds: tenOClock });
  expect(hourly.add("a", 3)).toEqual({ used: 4, nextHourEpochSeconds: tenOClock });
  expect(hourly.add("b", 1).used).toBe(1);
  clock.now += 1000;
  expect(hourly.add("a", 1)).toEqual({ used: 1, nextHourEpochSeconds: tenOClock + 3600 });
});

test("per address, an IPv6 client counts by its /64: the addresses it may take in it share one bucket", () => {
  const { limiter } = limiterAt(1, 1);
  const from = (ip: string) => ({ ip }) as Request;
  takeForAddress(limiter, from("2001:db8:1:2::1"), () => "refused");
  expect(() => takeForAddress(limiter, from("2001:db8:1:2:ffff::9"), () => "refused")).toThrow("refused");
  // Another subscriber's prefix, and IPv4 addresses, each their own.
  expect(() => takeForAddress(limiter, from("2001:db8:1:3::1"), () => "refused")).not.toThrow();
  takeForAddress(limiter, from("198.51.100.7"), () => "refused");
  expect(() => takeForAddress(limiter, from("::ffff:198.51.100.7"), () => "refused")).toThrow("refused");
  expect(() => takeForAddress(limiter, from("198.51.100.8"), () => "refused")).not.toThrow();
});
