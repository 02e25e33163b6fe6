/**
 * Tells a person, by e-mail, that failed log-ins locked their account: when it opens again, how many
 * attempts failed and from where, and what to do if it was not them. A notice is queued when the
 * lock begins, in its transaction, and sent as the auth service's other e-mails are (auth-emails.ts).
 */
import type { Queryable } from "@countersign/kit";
import escapeHtml from "escape-html";
import type { AuthEmails, Composed, DueEmail } from "./auth-emails.js";

/** A lock that has just begun, as its notice keeps it. */
export interface AccountLock {
  userId: string;
  lockedUntil: Date;
  failures: number;
  address: string;
}

/** Queues the notice of a lock that has just begun, in the transaction that locks the account. */
export function queueLockoutNotice(emails: AuthEmails, tx: Queryable, lock: AccountLock): Promise<void> {
  return emails.queue(tx, {
    kind: "lockout",
    userId: lock.userId,
    details: { lockedUntil: lock.lockedUntil.toISOString(), failures: lock.failures, address: lock.address },
  });
}

/** The notice as sent: to the locked account's address (gone with the account, not sent). */
export async function composeLockoutNotice(_db: Queryable, email: DueEmail): Promise<Composed> {
  if (!email.user_email) return { notSent: "the account is gone" };
  const details = email.details as { lockedUntil: string; failures: number; address: string };
  return {
    to: email.user_email,
    content: lockoutEmail({
      email: email.user_email,
      locked_until: new Date(details.lockedUntil),
      failures: details.failures,
      address: details.address,
    }),
  };
}

/** The e-mail's words: plain text, and the same as HTML with everything from outside escaped. */
export function lockoutEmail(notice: {
  email: string;
  locked_until: Date;
  failures: number;
  address: string;
}) {
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
