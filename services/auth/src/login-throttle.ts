/**
 * Failed console log-ins, throttled per account and per client address in the database every auth
 * replica shares, so that spreading guesses over gateway or auth replicas gains nothing. A key
 * with too many failures within its window is locked for a while: every attempt on it is refused
 * with the time to wait, before any password is checked, right or wrong. A successful log-in
 * clears its account's count; an address's count only runs out with its window, so one account
 * that works does not let the same address go on guessing at others.
 */
import { busyError, type Database, type Queryable } from "@countersign/kit";

export interface ThrottlePolicy {
  /** Failures within `windowSeconds` that lock a key. */
  failures: number;
  windowSeconds: number;
  lockSeconds: number;
}

export interface LoginThrottlePolicies {
  /** One account, whatever the address: a person who forgot a password is not stopped early. */
  account: ThrottlePolicy;
  /** One address, whatever the account: an office behind one NAT shares it, so it allows more. */
  address: ThrottlePolicy;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicies = {
  account: { failures: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  address: { failures: 50, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
};

/** What a failed log-in did to its account's count. */
export interface FailureOutcome {
  /** This failure locked the account (it was not locked before): its owner is told. */
  accountLockedNow: boolean;
  lockedUntil?: Date;
  /** Failures counted in the account's window, this one included. */
  failures: number;
}

const PRUNE_EVERY_MS = 3_600_000;

export class LoginThrottle {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly policies: LoginThrottlePolicies = DEFAULT_LOGIN_THROTTLE,
  ) {}

  /** Refuses the attempt, with when to try again, if its account or its address is locked. */
  async check(email: string, address: string): Promise<void> {
    const { rows } = await this.db.query<{ seconds: number }>(
      `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
         FROM login_throttle WHERE key = ANY($1::text[]) AND locked_until > now()`,
      [keysOf(email, address)],
    );
    const seconds = rows[0]?.seconds;
    if (!seconds || seconds <= 0) return;
    const minutes = Math.ceil(seconds / 60);
    throw busyError(
      `too many failed log-ins for this account or from this address; try again in ${minutes} minute${minutes === 1 ? "" : "s"}`,
      seconds,
    );
  }

  /**
   * Counts a failed attempt against its account and its address. A failure that locks the account
   * runs `whenLocked` in the same transaction, so what the lock sets off (its owner's notice) is
   * stored with it or not at all.
   */
  async failed(
    email: string,
    address: string,
    whenLocked?: (tx: Queryable, lock: { lockedUntil: Date; failures: number }) => Promise<void>,
  ): Promise<FailureOutcome> {
    const [accountKey, addressKey] = keysOf(email, address);
    const account = await this.db.transaction(async (tx) => {
      const counted = await this.count(tx, accountKey as string, this.policies.account);
      if (counted.accountLockedNow && counted.lockedUntil && whenLocked)
        await whenLocked(tx, { lockedUntil: counted.lockedUntil, failures: counted.failures });
      return counted;
    });
    if (addressKey) await this.count(this.db, addressKey, this.policies.address);
    await this.prune();
    return account;
  }

  /** A log-in that succeeded: its account starts counting afresh. */
  async succeeded(email: string): Promise<void> {
    await this.db.query("DELETE FROM login_throttle WHERE key = $1", [accountKey(email)]);
  }

  /** One failure more on `key`, in one statement, so that replicas counting at once lose none. */
  private async count(db: Queryable, key: string, policy: ThrottlePolicy): Promise<FailureOutcome> {
    // locked_at is set by the failure that locks: the one that finds it equal to its own now().
    const { rows } = await db.query<{
      locked_now: boolean;
      locked_until: Date | null;
      failures: number;
    }>(
      `INSERT INTO login_throttle AS t (key, failures, window_started_at, locked_until, locked_at)
       SELECT $1, 1, now(), now() + make_interval(secs => $4), now() WHERE $2::int <= 1
       UNION ALL SELECT $1, 1, now(), NULL, NULL WHERE $2::int > 1
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at < now() - make_interval(secs => $3) THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at < now() - make_interval(secs => $3)
                                  THEN now() ELSE t.window_started_at END,
         (locked_until, locked_at) = (
           SELECT CASE WHEN still_locked THEN t.locked_until WHEN locks THEN now() + make_interval(secs => $4) END,
                  CASE WHEN still_locked THEN t.locked_at WHEN locks THEN now() END
             FROM (SELECT t.locked_until > now() AS still_locked,
                          (CASE WHEN t.window_started_at < now() - make_interval(secs => $3) THEN 1
                                ELSE t.failures + 1 END) >= $2 AS locks) AS decided)
       RETURNING t.locked_until, t.locked_at = now() AS locked_now, t.failures`,
      [key, policy.failures, policy.windowSeconds, policy.lockSeconds],
    );
    const row = rows[0];
    return {
      accountLockedNow: row?.locked_now === true,
      lockedUntil: row?.locked_until ?? undefined,
      failures: row?.failures ?? 0,
    };
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const keepSeconds = Math.max(
      this.policies.account.windowSeconds + this.policies.account.lockSeconds,
      this.policies.address.windowSeconds + this.policies.address.lockSeconds,
    );
    await this.db.query(
      `DELETE FROM login_throttle WHERE window_started_at < now() - make_interval(secs => $1)
          AND (locked_until IS NULL OR locked_until < now())`,
      [keepSeconds],
    );
  }
}

function accountKey(email: string): string {
  return `account:${email}`;
}

/** The account's key, and the address's when the gateway gave one. */
function keysOf(email: string, address: string): string[] {
  return address ? [accountKey(email), `address:${address}`] : [accountKey(email)];
}
