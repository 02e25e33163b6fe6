/**
 * The e-mails a request's changes make due, written as rows of the notifications queue in the
 * transaction that makes them due (the notices feature's sender works them off after commit), each
 * with a new e-mail link when one is asked for.
 */
import { currentTraceparent, type Queryable, uuidv7 } from "@countersign/kit";
import type { SigningLinks } from "./signing-links.js";

/** What an e-mail to a recipient is about. */
export type NotificationKind =
  | "invitation"
  | "resend"
  | "reminder"
  | "expiry_warning"
  | "recipient_changed"
  | "completed";

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
    kind: NotificationKind | "sender_expiry_warning";
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
     INSERT INTO notifications (id, request_id, workspace_id, recipient_id, kind, link_id, note, traceparent)
     SELECT n.id, $1, (SELECT workspace_id FROM signature_requests WHERE id = $1), n.recipient_id, $5,
            issued.id, $6, $9
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
      currentTraceparent(),
    ],
  );
}
