/**
 * DocuSign's rate-limit headers, sent by /restapi beside our own: `X-RateLimit-*` for the hour — the
 * key's bucket admits its rate × 3,600 calls an hour beyond the burst, the calls the key made this
 * hour, and when the hour ends (epoch seconds) — and `X-BurstLimit-*` for the bucket itself. Clients
 * written for DocuSign pace themselves by these.
 */
import type { Caller } from "../key-verifier.js";
import { type AnnounceLimit, announceRateLimit } from "../middleware/authenticate.js";
import { HourlyCalls, type RateLimiter } from "../rate-limiter.js";

export function announceDocuSignLimits(limiter: RateLimiter, hourly = new HourlyCalls()): AnnounceLimit {
  const perHour = Math.round(limiter.ratePerSecond * 3_600);
  return (res, decision, calls) => {
    announceRateLimit(res, decision, calls);
    const { keyId } = res.locals.caller as Caller;
    // A refused call used nothing of the hour.
    const { used, nextHourEpochSeconds } = hourly.add(keyId, decision.allowed ? calls : 0);
    res.setHeader("X-RateLimit-Limit", String(perHour));
    res.setHeader("X-RateLimit-Remaining", String(Math.max(0, perHour - used)));
    res.setHeader("X-RateLimit-Reset", String(nextHourEpochSeconds));
    res.setHeader("X-BurstLimit-Limit", String(decision.limit));
    res.setHeader("X-BurstLimit-Remaining", String(decision.remaining));
  };
}
