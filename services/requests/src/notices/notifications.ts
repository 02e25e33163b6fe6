/**
 * E-mail notifications as a durable queue: a row is written (core/notice-queue.ts) in the transaction that makes the
 * e-mail due, and the sender works rows off after commit, retrying with backoff. The message id is
 * the row id, so a message sent twice after a crash is recognisable as one. Each row keeps its
 * outcome and last failure: the recipient's delivery state in the API, and each failed try is
 * listed in the workspace's Recent Errors and counted.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { logoPath, type RecipientKind, type SignerLocale, subjects } from "@countersign/domain";
import { EmailDeliveryFailedSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import {
  type Database,
  enqueueEvent,
  exponentialBackoff,
  type JobFailure,
  type JobOutcome,
  JobQueue,
  type JobState,
  type Logger,
  type Mailer,
  type Queryable,
  uuidv7,
} from "@countersign/kit";
import { Counter } from "prom-client";
import { type Branding, brandingOf, verifiedSenderAddress } from "../core/branding.js";
import type { NotificationKind } from "../core/notice-queue.js";
import type { SignerCodes } from "../core/signer-codes.js";
import type { SigningLinks } from "../core/signing-links.js";
import { type MailBrand, OUR_MAIL_BRAND, renderNotification } from "./mail/notification-emails.js";
import { renderSenderExpiryWarning } from "./mail/sender-expiry-warning.js";
import { renderSigningCode } from "./mail/signing-code-email.js";

interface DueRow extends JobState {
  id: string;
  request_id: string;
  recipient_id: string;
  /**
   * A signing code is its own e-mail (mail/signing-code-email.ts), never a link to follow; a
   * sender's expiry warning goes to the sender, its row naming a recipient still waited for.
   */
  kind: NotificationKind | "signing_code" | "sender_expiry_warning";
  link_id: string | null;
  note: string;
  title: string;
  message: string;
  expires_at: Date | null;
  name: string;
  email: string;
  locale: SignerLocale | "";
  recipient_kind: RecipientKind;
  link_revoked: boolean;
  workspace_id: string;
  signed_document_id: string | null;
  sender_name: string;
  sender_email: string;
  /** The request is a test key's: its e-mails go to the outbox only. */
  test: boolean;
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
   * How long a claim on a message lasts (120 s): messages are claimed one at a time, so it must
   * outlast one SMTP exchange at its timeouts (mailer.ts).
   */
  claimSeconds?: number;
  /** Called after a commit that wrote events (a failed try's), so they go out at once. */
  eventsWritten?: () => void;
}

/**
 * Sends queued e-mails, one claimed at a time and marked done as soon as the SMTP server took it: a
 * slow server delays the next message, and never makes another replica send one twice.
 */
export class NotificationSender extends JobQueue<DueRow> {
  readonly metrics = new NotificationMetrics();

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly links: SigningLinks,
    private readonly codes: SignerCodes,
    logger: Logger,
    private readonly options: NotificationSenderOptions = {},
  ) {
    super({
      name: "e-mail",
      db,
      logger,
      table: {
        name: "notifications",
        key: "id",
        traced: true,
        columns: ["request_id", "recipient_id", "kind", "link_id", "note"],
        // A bulk send's e-mails wait behind their own workspace's, not in front of everyone else's.
        party: "workspace_id",
        widen: `SELECT claimed.*, s.title, s.message, s.expires_at, r.name, r.email, r.locale, r.kind AS recipient_kind,
                       s.signed_document_id, s.sender_name, s.sender_email, s.test,
                       COALESCE(l.revoked_at IS NOT NULL, false) AS link_revoked
                  FROM claimed
                  JOIN signature_requests s ON s.id = claimed.request_id
                  JOIN recipients r ON r.id = claimed.recipient_id
                  LEFT JOIN signing_links l ON l.id = claimed.link_id`,
      },
      leaseSeconds: options.claimSeconds ?? 120,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      maxAttempts: options.maxAttempts ?? 15,
      backoff: exponentialBackoff(10_000, 3_600_000),
      onlyReplica: options.onlyReplica,
      describe: (row) => ({ notificationId: row.id, kind: row.kind }),
      run: (row) => this.deliver(row),
      failed: (tx, row, failure) => this.failed(tx, row, failure),
      afterFailed: (_row, failure) => {
        // Counted once the failure is recorded: a rolled-back one is tried, and counted, again.
        this.metrics.deliveries.inc({ outcome: failure.retryAt ? "retried" : "failed" });
        this.options.eventsWritten?.();
      },
    });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.mailer.close();
  }

  /** Sends one e-mail, unless it is no longer needed; throws when the server refuses it. */
  private async deliver(row: DueRow): Promise<JobOutcome> {
    // A link replaced before its e-mail went out would only lead to a "gone" page.
    if (row.link_revoked) {
      this.metrics.deliveries.inc({ outcome: "not_sent" });
      return {
        kind: "done",
        note: "not sent: the link was replaced before it went out",
        set: { outcome: "not_sent" },
      };
    }
    const attachments =
      row.kind === "completed" && !row.link_id && row.signed_document_id && this.options.attachment
        ? [await this.options.attachment(row.workspace_id, row.signed_document_id)]
        : [];
    if (row.kind === "sender_expiry_warning") {
      await this.mailer.send({
        to: { name: row.sender_name, email: row.sender_email },
        messageId: row.id,
        test: row.test,
        ...renderSenderExpiryWarning({
          senderName: row.sender_name,
          requestTitle: row.title,
          expiresAt: row.expires_at ?? new Date(),
          waitingFor: row.note,
          link: `${this.links.publicUrl}/console/w/${row.workspace_id}/requests/${row.request_id}`,
        }),
      });
      this.metrics.deliveries.inc({ outcome: "sent" });
      return { kind: "done", set: { outcome: "sent" } };
    }
    const branding = await brandingOf(this.db, row.workspace_id);
    const brand = mailBrandOf(branding, row, this.links.publicUrl);
    const content =
      row.kind === "signing_code"
        ? renderSigningCode({
            locale: row.locale,
            requestTitle: row.title,
            senderName: row.sender_name,
            recipientName: row.name,
            code: this.codes.emailCodeOf(row.id),
            brand,
          })
        : renderNotification({
            kind: row.kind,
            locale: row.locale,
            recipientKind: row.recipient_kind,
            requestTitle: row.title,
            senderName: row.sender_name,
            senderMessage: row.message,
            note: row.note,
            recipientName: row.name,
            link: row.link_id ? this.links.urlOf(row.link_id) : "",
            expiresAt: row.kind === "completed" ? undefined : (row.expires_at ?? undefined),
            attached: attachments.length > 0,
            brand,
          });
    await this.mailer.send({
      to: { name: row.name, email: row.email },
      onBehalfOf: { name: row.sender_name, email: row.sender_email },
      // The workspace's own name, which it must give to leave ours off ("Ada via Countersign" else).
      fromName: branding.emailSenderName || undefined,
      fromAddress: verifiedSenderAddress(branding) || undefined,
      messageId: row.id,
      test: row.test,
      ...content,
      attachments,
    });
    this.metrics.deliveries.inc({ outcome: "sent" });
    return { kind: "done", set: { outcome: "sent" } };
  }

  /**
   * A failed try, retried after a backoff or given up after the last: either way the workspace's
   * Recent Errors lists it (an EmailDeliveryFailed event in the same transaction).
   */
  private async failed(tx: Queryable, row: DueRow, failure: JobFailure): Promise<void> {
    const givenUp = !failure.retryAt;
    if (givenUp) await tx.query("UPDATE notifications SET outcome = 'failed' WHERE id = $1", [row.id]);
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
        attempt: failure.attempts,
        maxAttempts: failure.maxAttempts,
        reason: failure.message,
        retryTime: failure.retryAt ? timestampFromDate(failure.retryAt) : undefined,
        failTime: timestampFromDate(new Date()),
      }),
    );
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

/** A workspace's branding as its e-mails draw it: the logo at the public URL, the button's colour. */
function mailBrandOf(branding: Branding, row: DueRow, publicUrl: string): MailBrand {
  return {
    accentColor: branding.accentColor || OUR_MAIL_BRAND.accentColor,
    logoUrl: branding.logoSha256 ? `${publicUrl}${logoPath(row.workspace_id, branding.logoSha256)}` : "",
    name: branding.emailSenderName || row.sender_name,
    hideProductName: branding.hideProductName,
  };
}
