/**
 * Per-key token buckets: `ratePerSecond` tokens flow in, up to `burst`; a call takes one (a batch of
 * calls, such as the messages of one MCP request, takes one each, all or none). The
 * state is per gateway replica, so N replicas admit up to N times the rate in the worst case.
 */

import { clientNetwork } from "@countersign/kit";
import type { Request } from "express";
import { ApiProblem } from "./problems.js";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one call is allowed again (for Retry-After); 0 when allowed. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private sweptAt = 0;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(key: string, cost = 1): RateDecision {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(
      this.burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond,
    );
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= cost;
    if (allowed) bucket.tokens -= cost;
    this.buckets.set(key, bucket);
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.ratePerSecond),
      retryAfterSeconds: allowed
        ? 0
        : Math.max(1, Math.ceil((Math.min(cost, this.burst) - bucket.tokens) / this.ratePerSecond)),
    };
  }

  /** Full buckets carry no information; dropping them bounds memory by the number of busy keys. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}

/**
 * Calls each key made in the current UTC hour, for DocuSign's hourly rate-limit headers: the bucket
 * admits at most `ratePerSecond` × 3,600 calls an hour beyond its burst, and this says how many of
 * them a key has used. Per gateway replica, as the buckets are; only the current hour is kept.
 */
export class HourlyCalls {
  private hour = -1;
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Counts `calls` for the key; answers its calls this hour and when the next hour starts (epoch seconds). */
  add(key: string, calls: number): { used: number; nextHourEpochSeconds: number } {
    const hour = Math.floor(this.now() / 3_600_000);
    if (hour !== this.hour) {
      this.hour = hour;
      this.used.clear();
    }
    const used = (this.used.get(key) ?? 0) + calls;
    this.used.set(key, used);
    return { used, nextHourEpochSeconds: (hour + 1) * 3_600 };
  }
}

/**
 * Takes one call from the bucket of the client's address (`req.ip`, behind trusted proxies); beyond
 * it, a 429 problem that says `refusal` and, in Retry-After, when to try again.
 */
export function takeForAddress(
  limiter: RateLimiter,
  req: Request,
  refusal: (retryAfterSeconds: number) => string,
): void {
  const limit = limiter.take(clientNetwork(req.ip ?? "unknown"));
  if (limit.allowed) return;
  throw new ApiProblem("rate_limited", refusal(limit.retryAfterSeconds), undefined, {
    "Retry-After": String(limit.retryAfterSeconds),
  });
}
