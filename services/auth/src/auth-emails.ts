/**
 * Every e-mail the auth service sends, as one kit job queue (job-queue.ts) told apart by kind: a
 * lock-out notice, an invitation, a password reset, a seal certificate's expiry. Each is queued in
 * the transaction that makes it due (or, for an event, with the event's id so that a redelivered
 * event queues nothing twice), sent by whichever replica claims it, retried with a backoff while the
 * SMTP server refuses, and parked after its last attempt. A kind composes its words when it is
 * sent, from what was queued and what holds then: a link that died meanwhile is not sent at all.
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

export const AUTH_EMAIL_KINDS = ["lockout", "invitation", "password_reset", "seal_expiry"] as const;
export type AuthEmailKind = (typeof AUTH_EMAIL_KINDS)[number];

/** An e-mail as the queue claims it. */
export interface DueEmail extends JobState {
  id: string;
  kind: AuthEmailKind;
  /** The log-in address of the person it goes to, for the kinds queued for a person. */
  user_email: string | null;
  /** The invitation or password reset whose link it carries. */
  ref_id: string | null;
  /** What the kind's words need, as it was when queued. */
  details: Record<string, unknown>;
}

/** An e-mail's words: a subject, plain text, and the same as HTML with everything from outside escaped. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** What one kind sends: its address and words, or why it is not sent after all. */
export type Composed = { to: string; content: EmailContent } | { notSent: string };

export type EmailKinds = Record<AuthEmailKind, (db: Queryable, email: DueEmail) => Promise<Composed>>;

/** One e-mail to queue: its kind, whom (a user) or which link (ref) it is for, and its details. */
export interface QueuedEmail {
  kind: AuthEmailKind;
  userId?: string;
  refId?: string;
  details?: Record<string, unknown>;
}

export class AuthEmails extends JobQueue<DueEmail> {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    logger: Logger,
    kinds: EmailKinds,
    options: { pollIntervalMs?: number } = {},
  ) {
    super({
      name: "auth e-mail",
      db,
      logger,
      table: {
        name: "auth_emails",
        key: "id",
        columns: ["kind", "user_id", "ref_id", "details"],
        order: "created_at",
        widen:
          "SELECT claimed.*, u.email AS user_email FROM claimed LEFT JOIN users u ON u.id = claimed.user_id",
      },
      // Outlasts one SMTP exchange at the mailer's timeouts.
      leaseSeconds: 120,
      maxAttempts: 10,
      backoff: exponentialBackoff(10_000, 3_600_000),
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      describe: (email) => ({ kind: email.kind, refId: email.ref_id }),
      run: async (email) => {
        const composed = await kinds[email.kind](this.db, email);
        if ("notSent" in composed) return { kind: "done", note: `not sent: ${composed.notSent}` };
        await this.mailer.send({
          to: { name: "", email: composed.to },
          messageId: email.id,
          ...composed.content,
        });
        return { kind: "done" };
      },
    });
  }

  /** Queues an e-mail in the transaction that makes it due; `sendQueued` once it has committed. */
  async queue(tx: Queryable, email: QueuedEmail): Promise<void> {
    await tx.query(
      "INSERT INTO auth_emails (id, kind, user_id, ref_id, details) VALUES ($1, $2, $3, $4, $5)",
      [uuidv7(), email.kind, email.userId ?? null, email.refId ?? null, JSON.stringify(email.details ?? {})],
    );
  }

  /** Sends what a committed transaction queued, at once rather than at the next poll. */
  sendQueued(): void {
    this.kick();
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.mailer.close();
  }
}
