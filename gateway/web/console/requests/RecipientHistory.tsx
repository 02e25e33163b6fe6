/**
 * What happened to one recipient's place, under their row on the request's page: the files they
 * attached, each hand-over to someone else (from whom, to whom, why) and their decline (when, why).
 * The request names the recipient as they are now; who held the place before is in the audit trail,
 * whose `reassigned` entries are read here. People's words and names are isolated (<bdi>).
 */
import type { AuditEntry, Recipient, SignatureRequest } from "../types";
import { When } from "../ui";

export interface HandOver {
  at: string;
  from: { name: string; email: string };
  to: { name: string; email: string };
  reason: string;
}

const person = (value: unknown) => {
  const { name, email } = (value ?? {}) as { name?: unknown; email?: unknown };
  return { name: typeof name === "string" ? name : "", email: typeof email === "string" ? email : "" };
};

/** The hand-overs the audit trail records, by the recipient whose place was handed on, oldest first. */
export function handOversByRecipient(entries: readonly AuditEntry[]): Map<string, HandOver[]> {
  const byRecipient = new Map<string, HandOver[]>();
  for (const entry of entries) {
    const { recipientId, from, to, reason } = entry.details;
    if (entry.action !== "reassigned" || typeof recipientId !== "string") continue;
    const handOver = {
      at: entry.at,
      from: person(from),
      to: person(to),
      reason: typeof reason === "string" ? reason : "",
    };
    byRecipient.set(recipientId, [...(byRecipient.get(recipientId) ?? []), handOver]);
  }
  return byRecipient;
}

function Person({ who }: { who: { name: string; email: string } }) {
  return (
    <>
      <bdi>{who.name || who.email}</bdi>
      {who.name && who.email ? <span className="muted"> ({who.email})</span> : null}
    </>
  );
}

export function RecipientHistory({
  recipient,
  attachments,
  handOvers,
  downloadHref,
}: {
  recipient: Recipient;
  attachments: SignatureRequest["signerAttachments"];
  handOvers: readonly HandOver[];
  /** Where a kept document downloads from; undefined once the request's documents are deleted. */
  downloadHref: ((documentId: string) => string) | undefined;
}) {
  if (attachments.length === 0 && handOvers.length === 0 && !recipient.declinedAt) return null;
  return (
    <ul className="recipient-history small" aria-label={`What happened to ${recipient.name}'s place`}>
      {handOvers.map((h) => (
        <li key={h.at} data-testid="recipient-handover">
          <strong>Handed over</strong> by <Person who={h.from} /> to <Person who={h.to} /> <When at={h.at} />
          {h.reason ? (
            <>
              : “<bdi>{h.reason}</bdi>”
            </>
          ) : null}
        </li>
      ))}
      {recipient.declinedAt ? (
        <li data-testid="recipient-declined" className="recipient-declined">
          <strong>Declined</strong> by <bdi>{recipient.name}</bdi> <When at={recipient.declinedAt} />
          {recipient.declineReason ? (
            <>
              : “<bdi>{recipient.declineReason}</bdi>”
            </>
          ) : (
            ", giving no reason"
          )}
        </li>
      ) : null}
      {attachments.map((a) => (
        <li key={a.documentId} data-testid="recipient-attachment">
          <strong>Attached</strong>{" "}
          {downloadHref ? (
            <a className="link" href={downloadHref(a.documentId)} download>
              <bdi>{a.filename}</bdi>
            </a>
          ) : (
            <bdi>{a.filename}</bdi>
          )}{" "}
          <When at={a.attachedAt} />
        </li>
      ))}
    </ul>
  );
}
