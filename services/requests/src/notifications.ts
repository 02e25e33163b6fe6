/**
 * E-mail notifications as a durable queue: a row is written in the transaction that makes the
 * e-mail due, and the sender works rows off after commit, retrying with backoff. The message id is
 * the row id, so a message sent twice after a crash is recognisable as one. Each row keeps its
 * outcome and last failure: the recipient's delivery state in the API, and each failed try is
 * listed in the workspace's Recent Errors and counted.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EmailDeliveryFailedSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import {
  type Database,
  DrainLoop,
  enqueueEvent,
  type Logger,
  type Mailer,
  type Queryable,
  subjects,
  uuidv7,
} from "@countersign/kit";
import { Counter } from "prom-client";
import { type NotificationKind, renderNotification } from "./mail/notification-emails.js";
import type { SigningLinks } from "./signing-links.js";

/**
 * Queues one e-mail of `kind` to each of these recipients of a request, in their order, each with
 * a new e-mail link when `links` is given: one statement however many they are, the links' insert
 * feeding the e-mails'.
 */
export async function queueEmails(
  tx: Queryable,
  emails: {
    requestId: string;
    recipientIds: readonly string[];
    kind: NotificationKind;
    note?: string;
    links?: SigningLinks;
  },
): Promise<void> {
  const { requestId, recipientIds, kind, note = "", links } = emails;
  if (recipientIds.length === 0) return;
  const minted = links ? recipientIds.map(() => links.mint()) : [];
  await tx.query(
    `WITH issued AS (
       INSERT INTO signing_links (id, token_hash, request_id, recipient_id, kind)
       SELECT l.id, l.token_hash, $1, l.recipient_id, 'email'
         FROM unnest($2::uuid[], $3::uuid[], $4::bytea[]) AS l(recipient_id, id, token_hash)
       RETURNING id, recipient_id
     )
     INSERT INTO notifications (id, request_id, recipient_id, kind, link_id, note)
     SELECT n.id, $1, n.recipient_id, $5, issued.id, $6
       FROM unnest($7::uuid[], $8::uuid[]) AS n(recipient_id, id)
       LEFT JOIN issued USING (recipient_id)`,
    [
      requestId,
      links ? recipientIds : [],
      minted.map((link) => link.id),
      minted.map((link) => link.tokenHash),
      kind,
      note,
      recipientIds,
      recipientIds.map(() => uuidv7()),
    ],
  );
}

const BATCH = 20;

interface DueRow {
  id: string;
  request_id: string;
  recipient_id: string;
  kind: NotificationKind;
  link_id: string | null;
  note: string;
  attempts: number;
  title: string;
  message: string;
  expires_at: Date | null;
  name: string;
  email: string;
  link_revoked: boolean;
  workspace_id: string;
  signed_document_id: string | null;
  sender_name: string;
  sender_email: string;
}

/** A completed request's sealed PDF as an e-mail attachment. */
export type AttachmentSource = (
  workspaceId: string,
  documentId: string,
) => Promise<{ filename: string; content: Buffer; contentType: string }>;

export interface NotificationSenderOptions {
  pollIntervalMs?: number;
  /** Attempts before a notification is given up; the backoff doubles from 10 s to an hour. */
  maxAttempts?: number;
  /** The only sender on its database (standalone): claims of a killed process are released at start. */
  onlyReplica?: boolean;
  /** Fetches the sealed PDF a completed e-mail without a link carries. */
  attachment?: AttachmentSource;
  /**
   * How long a claim on a message lasts (120 s): each message's claim is renewed just before it is
   * sent, so it must outlast one SMTP exchange at its timeouts (mailer.ts), not a whole batch.
   */
  claimSeconds?: number;
  /** Called after a commit that wrote events (a failed try's), so they go out at once. */
  eventsWritten?: () => void;
}

export class NotificationSender {
  readonly metrics = new NotificationMetrics();
  private readonly loop: DrainLoop;
  private claimsReleased = false;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly links: SigningLinks,
    private readonly logger: Logger,
    private readonly options: NotificationSenderOptions = {},
  ) {
    this.loop = new DrainLoop((stopping) => this.drain(stopping), options.pollIntervalMs ?? 5000, {
      work: "e-mail",
      logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Sends what is due now; called after a commit that queued notifications. */
  kick(): void {
    this.loop.kick();
  }

  /** Resolves when nothing is being sent; tests use it to wait for the queue. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.mailer.close();
  }

  private async drain(stopping: AbortSignal): Promise<void> {
    try {
      if (this.options.onlyReplica && !this.claimsReleased) {
        await this.db.query(
          "UPDATE notifications SET claimed_until = '-infinity' WHERE done_at IS NULL AND claimed_until > now()",
        );
        this.claimsReleased = true;
      }
      for (;;) {
        const due = await this.claim(BATCH);
        for (const [i, row] of due.entries()) {
          if (stopping.aborted) {
            await this.release(due.slice(i));
            return;
          }
          // The batch's claim may have run out behind a slow server, and another replica taken the
          // message: it is sent only while this replica's claim holds, and marked done at once.
          if (!(await this.renewClaim(row))) continue;
          if (await this.deliver(row)) await this.finish(row.id, "sent", "");
        }
        if (due.length < BATCH || stopping.aborted) return;
      }
    } catch (err) {
      // The database is away; claimed rows are taken again when their claim runs out.
      this.logger.warn({ err }, "cannot work the notification queue; the next poll tries again");
    }
  }

  /** Extends this replica's claim on `row`, unless another replica claimed it since (its attempt moved on). */
  private async renewClaim(row: DueRow): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE notifications SET claimed_until = now() + make_interval(secs => $3)
        WHERE id = $1 AND attempts = $2 AND done_at IS NULL`,
      [row.id, row.attempts, this.claimSeconds],
    );
    return rowCount === 1;
  }

  /** Gives back claimed messages this replica will not send (it is stopping), uncounted as attempts. */
  private async release(rows: readonly DueRow[]): Promise<void> {
    await this.db.query(
      `UPDATE notifications n SET claimed_until = '-infinity', attempts = n.attempts - 1
         FROM unnest($1::uuid[], $2::int[]) AS r(id, attempts)
        WHERE n.id = r.id AND n.attempts = r.attempts AND n.done_at IS NULL`,
      [rows.map((row) => row.id), rows.map((row) => row.attempts)],
    );
  }

  private get claimSeconds(): number {
    return this.options.claimSeconds ?? 120;
  }

  private async claim(limit: number): Promise<DueRow[]> {
    const { rows } = await this.db.query<DueRow>(
      `WITH claimed AS (
         UPDATE notifications SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
          WHERE id IN (SELECT id FROM notifications
                        WHERE done_at IS NULL AND next_attempt_at <= now() AND claimed_until < now()
                        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, request_id, recipient_id, kind, link_id, note, attempts)
       SELECT c.id, c.request_id, c.recipient_id, c.kind, c.link_id, c.note, c.attempts, s.title, s.message, s.expires_at, r.name, r.email,
              s.workspace_id, s.signed_document_id, s.sender_name, s.sender_email,
              COALESCE(l.revoked_at IS NOT NULL, false) AS link_revoked
         FROM claimed c
         JOIN signature_requests s ON s.id = c.request_id
         JOIN recipients r ON r.id = c.recipient_id
         LEFT JOIN signing_links l ON l.id = c.link_id
        ORDER BY c.id`,
      [limit, this.claimSeconds],
    );
    return rows;
  }

  /** Sends one e-mail; whether it went out (the caller marks it done, or it is finished here). */
  private async deliver(row: DueRow): Promise<boolean> {
    // A link replaced before its e-mail went out would only lead to a "gone" page.
    if (row.link_revoked) {
      await this.finish(row.id, "not_sent", "not sent: the link was replaced before it went out");
      return false;
    }
    try {
      const attachments =
        row.kind === "completed" && !row.link_id && row.signed_document_id && this.options.attachment
          ? [await this.options.attachment(row.workspace_id, row.signed_document_id)]
          : [];
      const content = renderNotification({
        kind: row.kind,
        requestTitle: row.title,
        senderName: row.sender_name,
        senderMessage: row.message,
        note: row.note,
        recipientName: row.name,
        link: row.link_id ? this.links.urlOf(row.link_id) : "",
        expiresAt: row.kind === "completed" ? undefined : (row.expires_at ?? undefined),
        attached: attachments.length > 0,
      });
      await this.mailer.send({
        to: { name: row.name, email: row.email },
        onBehalfOf: { name: row.sender_name, email: row.sender_email },
        messageId: row.id,
        ...content,
        attachments,
      });
      return true;
    } catch (err) {
      await this.retryLater(row, err);
      return false;
    }
  }

  private async finish(id: string, outcome: "sent" | "not_sent", note: string): Promise<void> {
    await this.db.query(
      "UPDATE notifications SET done_at = now(), outcome = $2, last_error = $3 WHERE id = $1",
      [id, outcome, note],
    );
    this.metrics.deliveries.inc({ outcome });
  }

  /**
   * A failed try: retried after a backoff, or given up after the last; either way the workspace's
   * Recent Errors lists it (an EmailDeliveryFailed event in the same transaction).
   */
  private async retryLater(row: DueRow, err: unknown): Promise<void> {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    const maxAttempts = this.options.maxAttempts ?? 15;
    const givenUp = row.attempts >= maxAttempts;
    const delaySeconds = Math.min(10 * 2 ** (row.attempts - 1), 3600);
    const retryAt = givenUp ? undefined : new Date(Date.now() + delaySeconds * 1000);
    const details = { notificationId: row.id, attempts: row.attempts, error: message };
    if (givenUp) this.logger.error(details, "e-mail given up");
    else this.logger.warn(details, "e-mail failed; will retry");
    await this.db.transaction(async (tx) => {
      await tx.query(
        givenUp
          ? "UPDATE notifications SET done_at = now(), outcome = 'failed', last_error = $2 WHERE id = $1"
          : `UPDATE notifications SET next_attempt_at = now() + make_interval(secs => $3), claimed_until = '-infinity',
                  last_error = $2 WHERE id = $1`,
        givenUp ? [row.id, message] : [row.id, message, delaySeconds],
      );
      await enqueueEvent(
        tx,
        subjects.emailDeliveryFailed,
        EmailDeliveryFailedSchema,
        create(EmailDeliveryFailedSchema, {
          eventId: uuidv7(),
          workspaceId: row.workspace_id,
          signatureRequestId: row.request_id,
          recipientId: row.recipient_id,
          kind: row.kind,
          attempt: row.attempts,
          maxAttempts,
          reason: message,
          retryTime: retryAt ? timestampFromDate(retryAt) : undefined,
          failTime: timestampFromDate(new Date()),
        }),
      );
    });
    this.metrics.deliveries.inc({ outcome: givenUp ? "failed" : "retried" });
    this.options.eventsWritten?.();
  }
}

/** E-mails to recipients by outcome: the alert on failed or retried ones is the SMTP server's health. */
export class NotificationMetrics {
  readonly deliveries = new Counter({
    name: "email_deliveries_total",
    help: "Tries to send an e-mail to a recipient, by outcome: sent, retried (failed; tried again later), failed (given up) or not_sent (no longer needed).",
    labelNames: ["outcome"],
    registers: [],
  });
}
