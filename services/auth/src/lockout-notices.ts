/**
 * Tells a person, by e-mail, that failed log-ins locked their account: when it opens again, how many
 * attempts failed and from where, and what to do if it was not them. A notice is queued in the
 * database when the lock begins and sent by whichever replica claims it first, marked done as soon
 * as it is sent; a refusing SMTP server is tried again with a backoff, then given up and logged.
 */
import { type Database, DrainLoop, type Logger, type Mailer, uuidv7 } from "@countersign/kit";
import escapeHtml from "escape-html";

const CLAIM_SECONDS = 120;
const MAX_ATTEMPTS = 10;

interface DueNotice {
  id: string;
  attempts: number;
  email: string;
  locked_until: Date;
  failures: number;
  address: string;
}

export interface LockoutNoticesOptions {
  pollIntervalMs?: number;
}

export class LockoutNotices {
  private readonly loop: DrainLoop;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    options: LockoutNoticesOptions = {},
  ) {
    this.loop = new DrainLoop((stopping) => this.drain(stopping), options.pollIntervalMs ?? 5000, {
      work: "lock-out e-mail",
      logger,
    });
  }

  /** Queues the notice of a lock that has just begun, and sends it at once. */
  async queue(lock: { userId: string; lockedUntil: Date; failures: number; address: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO lockout_notices (id, user_id, locked_until, failures, address) VALUES ($1, $2, $3, $4, $5)`,
      [uuidv7(), lock.userId, lock.lockedUntil, lock.failures, lock.address],
    );
    this.loop.kick();
  }

  start(): void {
    this.loop.start();
  }

  /** Resolves when nothing is being sent. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.mailer.close();
  }

  private async drain(stopping: AbortSignal): Promise<void> {
    try {
      while (!stopping.aborted) {
        const notice = await this.claim();
        if (!notice) return;
        await this.send(notice);
      }
    } catch (err) {
      this.logger.warn({ err }, "cannot work the lock-out e-mail queue; the next poll tries again");
    }
  }

  private async claim(): Promise<DueNotice | undefined> {
    const { rows } = await this.db.query<DueNotice>(
      `WITH claimed AS (
         UPDATE lockout_notices SET claimed_until = now() + make_interval(secs => $1), attempts = attempts + 1
          WHERE id = (SELECT id FROM lockout_notices
                       WHERE done_at IS NULL AND next_attempt_at <= now() AND claimed_until < now()
                       ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, user_id, attempts, locked_until, failures, address)
       SELECT c.id, c.attempts, u.email, c.locked_until, c.failures, c.address
         FROM claimed c JOIN users u ON u.id = c.user_id`,
      [CLAIM_SECONDS],
    );
    return rows[0];
  }

  private async send(notice: DueNotice): Promise<void> {
    try {
      await this.mailer.send({
        to: { name: "", email: notice.email },
        messageId: notice.id,
        ...lockoutEmail(notice),
      });
      await this.db.query("UPDATE lockout_notices SET done_at = now() WHERE id = $1", [notice.id]);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const givenUp = notice.attempts >= MAX_ATTEMPTS;
      if (givenUp) this.logger.error({ noticeId: notice.id, error: message }, "lock-out e-mail given up");
      else this.logger.warn({ noticeId: notice.id, error: message }, "lock-out e-mail failed; will retry");
      await this.db.query(
        `UPDATE lockout_notices SET last_error = $2, claimed_until = '-infinity',
                done_at = CASE WHEN $3 THEN now() END,
                next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
        [notice.id, message.slice(0, 1000), givenUp, Math.min(10 * 2 ** (notice.attempts - 1), 3600)],
      );
    }
  }
}

/** The e-mail's words: plain text, and the same as HTML with everything from outside escaped. */
export function lockoutEmail(notice: Pick<DueNotice, "email" | "locked_until" | "failures" | "address">) {
  const until = `${notice.locked_until.toISOString().replace("T", " ").slice(0, 16)} UTC`;
  const from = notice.address ? `, the last from ${notice.address}` : "";
  const paragraphs = [
    `Someone tried to log in to Countersign as ${notice.email} and got the password wrong ${notice.failures} times${from}.`,
    `To protect the account, nobody can log in as ${notice.email} until ${until}, not even with the right password.`,
    "If this was you, wait until then and try again. If it was not, change your password once the lock ends and tell your Organization Admin.",
  ];
  return {
    subject: "Your Countersign account is locked for a while after failed log-ins",
    text: `${paragraphs.join("\n\n")}\n`,
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n"),
  };
}
