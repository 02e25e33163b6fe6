/**
 * The e-mails that carry a link into the console: an invitation to join a workspace, a link to
 * choose a new password. Queued in the transaction that makes the link and sent as the auth
 * service's other e-mails are (auth-emails.ts); a link that died before its e-mail went (revoked,
 * replaced, used, expired) is not sent at all.
 */

import { isolate } from "@countersign/domain";
import type { Queryable } from "@countersign/kit";
import escapeHtml from "escape-html";
import { OPERATOR } from "./audit.js";
import type { Composed, DueEmail } from "./auth-emails.js";
import { roleLabel } from "./messages.js";

export type LinkKind = "invitation" | "password_reset";

/** The link an e-mail carries, as it stands when the e-mail is sent. */
interface LinkRow {
  email: string;
  expires_at: Date;
  /** Whether the link still works. */
  live: boolean;
  role: "org_admin" | "member" | null;
  workspace_name: string | null;
  inviter: string | null;
}

const LINKS: Record<LinkKind, string> = {
  invitation: `SELECT i.email, i.expires_at, i.closed_at IS NULL AND i.expires_at > now() AS live,
                      i.role, w.name AS workspace_name, inviter.email AS inviter
                 FROM invitations i LEFT JOIN workspaces w ON w.id = i.workspace_id
                 LEFT JOIN users inviter ON inviter.id = i.invited_by
                WHERE i.id = $1`,
  password_reset: `SELECT u.email, r.expires_at, r.used_at IS NULL AND r.expires_at > now() AS live,
                          NULL AS role, NULL AS workspace_name, NULL AS inviter
                     FROM password_resets r JOIN users u ON u.id = r.user_id
                    WHERE r.id = $1`,
};

/**
 * Composes the e-mail of an invitation or a password reset from its link as it stands now.
 * `linkToken` makes the link's secret; `publicUrl` is the console's base URL the link starts with.
 */
export function linkEmails(options: {
  publicUrl: string;
  linkToken: (kind: LinkKind, id: string) => string;
}) {
  return (kind: LinkKind) =>
    async (db: Queryable, email: DueEmail): Promise<Composed> => {
      const { rows } = await db.query<LinkRow>(LINKS[kind], [email.ref_id]);
      const link = rows[0];
      if (!link?.live) return { notSent: "the link died before its e-mail went" };
      const href = `${options.publicUrl}/console/${kind === "invitation" ? "invitation" : "reset-password"}#token=${options.linkToken(kind, email.ref_id as string)}`;
      return {
        to: link.email,
        content:
          kind === "invitation"
            ? invitationEmail({
                workspace: link.workspace_name ?? "",
                role: link.role ?? "member",
                inviter: link.inviter ?? OPERATOR,
                link: href,
                expiresAt: link.expires_at,
              })
            : passwordResetEmail({ email: link.email, link: href, expiresAt: link.expires_at }),
      };
    };
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
  const by = invite.inviter === OPERATOR ? "The operator of this Countersign" : isolate(invite.inviter);
  return email(
    `You are invited to ${isolate(invite.workspace)} on Countersign`,
    [
      `${by} invited you to the workspace “${isolate(invite.workspace)}” on Countersign, as ${roleLabel(invite.role) === "Member" ? "a Member" : "an Organization Admin"}.`,
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
