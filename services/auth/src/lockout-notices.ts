/**
 * Tells a person, by e-mail, that failed log-ins locked their account: when it opens again, how many
 * attempts failed and from where, and what to do if it was not them. A notice is queued in the
 * database when the lock begins and sent by whichever replica claims it first (a kit job queue),
 * marked done as soon as it is sent; a refusing SMTP server is tried again with a backoff, then the
 * notice is parked and logged.
 */
import {
  type Database,
  exponentialBackoff,
  JobQueue,
  type JobState,
  type Logger,
  type Mailer,
  type Queryable,
  uuidv7,
} from "@countersign/kit";
import escapeHtml from "escape-html";

interface DueNotice extends JobState {
  id: string;
  email: string;
  locked_until: Date;
  failures: number;
  address: string;
}

export interface LockoutNoticesOptions {
  pollIntervalMs?: number;
}

/** How auth's e-mail queues (lock-out notices, account e-mails) claim and retry a message. */
export const AUTH_MAIL_SCHEDULE = {
  // Outlasts one SMTP exchange at the mailer's timeouts.
  leaseSeconds: 120,
  maxAttempts: 10,
  backoff: exponentialBackoff(10_000, 3_600_000),
};

export class LockoutNotices extends JobQueue<DueNotice> {
  constructor(
    db: Database,
    private readonly mailer: Mailer,
    logger: Logger,
    options: LockoutNoticesOptions = {},
  ) {
    super({
      name: "lock-out e-mail",
      db,
      logger,
      table: {
        name: "lockout_notices",
        key: "id",
        columns: ["user_id", "locked_until", "failures", "address"],
        widen: "SELECT claimed.*, u.email FROM claimed JOIN users u ON u.id = claimed.user_id",
      },
      ...AUTH_MAIL_SCHEDULE,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      run: async (notice) => {
        await this.mailer.send({
          to: { name: "", email: notice.email },
          messageId: notice.id,
          ...lockoutEmail(notice),
        });
        return { kind: "done" };
      },
    });
  }

  /** Queues the notice of a lock that has just begun, in the transaction that locks the account. */
  async queue(
    tx: Queryable,
    lock: { userId: string; lockedUntil: Date; failures: number; address: string },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO lockout_notices (id, user_id, locked_until, failures, address) VALUES ($1, $2, $3, $4, $5)`,
      [uuidv7(), lock.userId, lock.lockedUntil, lock.failures, lock.address],
    );
  }

  /** Sends the notices queued by a transaction that has committed, at once rather than at the next poll. */
  sendQueued(): void {
    this.kick();
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.mailer.close();
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
