/**
 * How a signer showed the certificate of completion that it was them: the link they signed through,
 * and the codes the sender asked for with when they gave them, as the audit trail recorded it.
 */
import type { AuditEntry } from "../audit-trail.js";
import { authenticationOf } from "../messages.js";
import type { RecipientRow } from "../store.js";

export function signerIdentity(recipient: RecipientRow, audit: readonly AuditEntry[]): string {
  const link = recipient.client_user_id
    ? "through the sender's app (embedded signing)"
    : `through the signing link e-mailed to ${recipient.email}`;
  const asked = authenticationOf(recipient);
  if (asked.length === 0) return link;
  const passed = audit.filter(
    (entry) =>
      entry.action === "authenticated" && entry.actor.type === "recipient" && entry.actor.id === recipient.id,
  );
  const last = passed.at(-1);
  const words = asked.map((m) =>
    m === "access_code" ? "the access code" : `a one-time code e-mailed to ${recipient.email}`,
  );
  const at = last ? `, last at ${last.at.toISOString().replace("T", " ").slice(0, 19)} UTC` : "";
  return `${link}, then ${words.join(" and ")}${at}`;
}
