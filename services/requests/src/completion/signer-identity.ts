/**
 * How a signer showed the certificate of completion that it was them: the link they signed through
 * (or the host who had them sign in person, and who started it), and the codes the sender asked for
 * with when they gave them, as the audit trail recorded it.
 */
import type { AuditEntry } from "../core/audit-trail.js";
import { authenticationOf } from "../core/messages.js";
import type { RecipientRow } from "../core/store/rows.js";

export function signerIdentity(recipient: RecipientRow, audit: readonly AuditEntry[]): string {
  const link = recipient.host_email
    ? `in person, hosted by ${recipient.host_name} <${recipient.host_email}>${startedBy(recipient, audit)}`
    : recipient.client_user_id
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

/** Who started a hosted signing, as the audit trail has it: the console user or the API key. */
function startedBy(recipient: RecipientRow, audit: readonly AuditEntry[]): string {
  const started = audit.findLast(
    (entry) => entry.action === "in_person_signing_started" && entry.details.recipientId === recipient.id,
  );
  if (!started) return "";
  const { actor } = started;
  const who =
    actor.type === "api_key"
      ? `the API key "${actor.name ?? actor.id}"`
      : actor.email || actor.name || actor.id;
  return `, started by ${who}`;
}
