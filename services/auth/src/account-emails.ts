/**
 * The e-mails that carry a link into the console: an invitation to join a workspace, a link to
 * choose a new password. Queued in the transaction that makes the link and sent by whichever
 * replica claims it (a kit job queue), tried again with a backoff while the SMTP server refuses;
 * a link that died before its e-mail went (revoked, replaced, used, expired) is not sent at all.
 */
import {
  type Database,
  JobQueue,
  type JobState,
  type Logger,
  type Mailer,
  type Queryable,
  uuidv7,
} from "@countersign/kit";
import escapeHtml from "escape-html";
import { OPERATOR } from "./audit.js";
import { AUTH_MAIL_SCHEDULE } from "./lockout-notices.js";
import { roleLabel } from "./messages.js";

type Kind = "invitation" | "password_reset";

interface DueEmail extends JobState {
  id: string;
  kind: Kind;
  ref_id: string;
  email: string | null;
  expires_at: Date | null;
  /** Whether the link still works. */
  live: boolean;
  role: "org_admin" | "member" | null;
  workspace_name: string | null;
  inviter: string | null;
}

export interface AccountEmailsOptions {
  /** The console's public base URL, which the links start with. */
  publicUrl: string;
  linkToken: (kind: Kind, id: string) => string;
  pollIntervalMs?: number;
}

export class AccountEmails extends JobQueue<DueEmail> {
  constructor(
    db: Database,
    private readonly mailer: Mailer,
    logger: Logger,
    options: AccountEmailsOptions,
  ) {
    super({
      name: "account e-mail",
      db,
      logger,
      table: {
        name: "account_emails",
        key: "id",
        columns: ["kind", "ref_id"],
        widen: `SELECT claimed.*,
            COALESCE(i.email, u.email) AS email,
            COALESCE(i.expires_at, r.expires_at) AS expires_at,
            CASE claimed.kind
              WHEN 'invitation' THEN i.closed_at IS NULL AND i.expires_at > now()
              ELSE r.used_at IS NULL AND r.expires_at > now()
            END AS live,
            i.role, w.name AS workspace_name, inviter.email AS inviter
          FROM claimed
          LEFT JOIN invitations i ON claimed.kind = 'invitation' AND i.id = claimed.ref_id
          LEFT JOIN workspaces w ON w.id = i.workspace_id
          LEFT JOIN users inviter ON inviter.id = i.invited_by
          LEFT JOIN password_resets r ON claimed.kind = 'password_reset' AND r.id = claimed.ref_id
          LEFT JOIN users u ON u.id = r.user_id`,
      },
      ...AUTH_MAIL_SCHEDULE,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      describe: (job) => ({ kind: job.kind, refId: job.ref_id }),
      run: async (job) => {
        if (!job.live || !job.email || !job.expires_at) {
          return { kind: "done", note: "not sent: the link died before its e-mail went" };
        }
        const link = `${options.publicUrl}/console/${job.kind === "invitation" ? "invitation" : "reset-password"}#token=${options.linkToken(job.kind, job.ref_id)}`;
        await this.mailer.send({
          to: { name: "", email: job.email },
          messageId: job.id,
          ...(job.kind === "invitation"
            ? invitationEmail({
                workspace: job.workspace_name ?? "",
                role: job.role ?? "member",
                inviter: job.inviter ?? OPERATOR,
                link,
                expiresAt: job.expires_at,
              })
            : passwordResetEmail({ email: job.email, link, expiresAt: job.expires_at })),
        });
        return { kind: "done" };
      },
    });
  }

  /** Queues the e-mail of a link, in the transaction that makes it. */
  async queue(tx: Queryable, kind: Kind, refId: string): Promise<void> {
    await tx.query("INSERT INTO account_emails (id, kind, ref_id) VALUES ($1, $2, $3)", [
      uuidv7(),
      kind,
      refId,
    ]);
  }

  /** Sends what a committed transaction queued, at once rather than at the next poll. */
  sendQueued(): void {
    this.kick();
  }
}

const utc = (date: Date) => `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;

function email(subject: string, paragraphs: string[], link: { text: string; href: string }) {
  return {
    subject,
    text: `${[...paragraphs, `${link.text}: ${link.href}`].join("\n\n")}\n`,
    html: [
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`,
    ].join("\n"),
  };
}

/** The invitation's words: plain text, and the same as HTML with everything from outside escaped. */
export function invitationEmail(invite: {
  workspace: string;
  role: "org_admin" | "member";
  inviter: string;
  link: string;
  expiresAt: Date;
}) {
  const by = invite.inviter === OPERATOR ? "The operator of this Countersign" : invite.inviter;
  return email(
    `You are invited to ${invite.workspace} on Countersign`,
    [
      `${by} invited you to the workspace “${invite.workspace}” on Countersign, as ${roleLabel(invite.role) === "Member" ? "a Member" : "an Organization Admin"}.`,
      `The link works until ${utc(invite.expiresAt)}, once. If you did not expect this invitation, ignore this e-mail.`,
    ],
    { text: "Accept the invitation", href: invite.link },
  );
}

export function passwordResetEmail(reset: { email: string; link: string; expiresAt: Date }) {
  return email(
    "Choose a new Countersign password",
    [
      `Someone asked to choose a new password for the Countersign log-in ${reset.email}.`,
      `The link works until ${utc(reset.expiresAt)}, once; choosing a new password logs you out everywhere. If it was not you, ignore this e-mail: your password stays as it is.`,
    ],
    { text: "Choose a new password", href: reset.link },
  );
}
