/**
 * When a message's next attempt is due. The schedule lists the wait before each attempt of a round
 * (the first is usually 0: at once); a round ends failed when every attempt of it has failed.
 */

/** Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/design.md §6). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/** The longest wait a Retry-After header can ask for; a longer one is taken as this. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/** Statuses whose Retry-After the endpoint may use to push the next attempt back. */
const RETRY_AFTER_STATUSES = new Set([429, 502, 504]);

/** Parses "0,5,300" (seconds, decimals allowed); throws naming the bad entry. */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(",").map((entry) => entry.trim());
  return entries.map((entry) => {
    const seconds = Number(entry);
    if (entry === "" || !Number.isFinite(seconds) || seconds < 0 || seconds > 7 * 24 * 3600) {
      throw new Error(`"${entry}" is not a number of seconds from 0 to 604800`);
    }
    return seconds;
  });
}

/** ±20 % so that the retries of many messages failed at once do not arrive at once again. */
export function withJitter(ms: number, random: () => number = Math.random): number {
  return ms * (0.8 + 0.4 * random());
}

/**
 * The wait before attempt `attemptsMade + 1` of a round, or undefined when the round is over.
 * A Retry-After the endpoint sent with 429, 502 or 504 is honoured when it asks for longer.
 */
export function nextDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  answer?: { status: number; retryAfter?: string },
  now = Date.now(),
): number | undefined {
  const seconds = schedule[attemptsMade];
  if (seconds === undefined) return undefined;
  const scheduled = withJitter(seconds * 1000);
  if (!answer || !RETRY_AFTER_STATUSES.has(answer.status) || !answer.retryAfter) return scheduled;
  const asked = retryAfterMs(answer.retryAfter, now);
  return asked === undefined ? scheduled : Math.max(scheduled, Math.min(asked, MAX_RETRY_AFTER_MS));
}

/** Retry-After is delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string, now = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
