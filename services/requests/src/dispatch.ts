/**
 * Sending: a draft's first routing group gets links and e-mails, each next group when the one before
 * has signed, and any recipient whose turn it is can be sent a new link; all run inside the
 * caller's transaction.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Queryable } from "@countersign/kit";
import { type AuditActor, appendAudit, type ChainEnd } from "./audit-trail.js";
import { enqueueRequestEvent } from "./events.js";
import { queueNotification } from "./notifications.js";
import type { Locked } from "./request-transactions.js";
import type { SigningLinks } from "./signing-links.js";
import { assertAllowed } from "./state-machine.js";
import { type RecipientRow, type RequestRow, store } from "./store.js";

/** Sends a draft; returns the request and recipients as they are after it. */
export async function sendDraft(
  tx: Queryable,
  links: SigningLinks,
  { request, recipients }: Locked,
  actor: AuditActor,
  chain?: ChainEnd,
): Promise<Locked> {
  assertAllowed("send", request.status);
  if (request.expires_at && request.expires_at <= new Date()) {
    throw new ConnectError(
      "the request expired before it was sent; set a later expiresAt",
      Code.FailedPrecondition,
    );
  }
  const next = await notifyNextGroup(tx, links, request, recipients);
  const after = {
    request: await store.setStatus(tx, request.id, "sent", { sent: true }),
    recipients: next.recipients,
  };
  await appendAudit(
    tx,
    request.id,
    "sent",
    actor,
    { routingOrder: next.routingOrder, notified: next.notified },
    chain,
  );
  await enqueueRequestEvent(tx, "sent", after.request, after.recipients);
  return after;
}

/**
 * The signers of the lowest routing order still pending become `sent` and get their links and
 * e-mails: on send, and after the group before them has all signed.
 */
export async function notifyNextGroup(
  tx: Queryable,
  links: SigningLinks,
  request: RequestRow,
  recipients: RecipientRow[],
): Promise<{ routingOrder: number; notified: string[]; recipients: RecipientRow[] }> {
  const pending = recipients.filter((r) => r.kind === "signer" && r.status === "pending");
  const routingOrder = Math.min(...pending.map((r) => r.routing_order));
  const group = pending.filter((r) => r.routing_order === routingOrder);
  const changed = await store.setRecipientStatus(
    tx,
    group.map((r) => r.id),
    "sent",
  );
  const notified = await notifyRecipients(tx, links, request, group, "invitation");
  return {
    routingOrder,
    notified,
    recipients: recipients.map((r) => changed.find((c) => c.id === r.id) ?? r),
  };
}

/** New e-mail links and queued e-mails for these recipients; embedded signers get none. */
export async function notifyRecipients(
  tx: Queryable,
  links: SigningLinks,
  request: RequestRow,
  recipients: RecipientRow[],
  kind: "invitation" | "resend" | "recipient_changed",
): Promise<string[]> {
  const notified: string[] = [];
  for (const recipient of recipients) {
    if (recipient.client_user_id) continue;
    const linkId = await links.issue(tx, {
      requestId: request.id,
      recipientId: recipient.id,
      kind: "email",
    });
    await queueNotification(tx, { requestId: request.id, recipientId: recipient.id, kind, linkId });
    notified.push(recipient.id);
  }
  return notified;
}
