/**
 * Sending: a draft's first routing group gets links and e-mails, each next group when the one before
 * has signed, and any recipient whose turn it is can be sent a new link; all run inside the
 * caller's transaction.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { hasDonePart } from "@countersign/domain";
import type { Queryable } from "@countersign/kit";
import {
  type AuditActor,
  type AuditRecord,
  appendAudit,
  appendAuditEntries,
  type ChainEnd,
  EMPTY_CHAIN,
} from "./audit-trail.js";
import { queueCompletion } from "./completion-queue.js";
import { enqueueRequestEvent } from "./events.js";
import { queueEmails } from "./notice-queue.js";
import type { Locked } from "./request-transactions.js";
import type { SigningLinks } from "./signing-links.js";
import { actsInRouting, assertAllowed } from "./state-machine.js";
import { recipientStore } from "./store/recipient-store.js";
import { requestStore } from "./store/request-store.js";
import type { NewRecipientRow, NewRequest, RecipientRow, RequestRow } from "./store/rows.js";

/** Sends a draft; returns the request and recipients as they are after it. */
export async function sendDraft(
  tx: Queryable,
  links: SigningLinks,
  { request, recipients }: Locked,
  actor: AuditActor,
  chain?: ChainEnd,
  /** "approve" sends a request an agent proposed, which waits for approval rather than being a draft. */
  operation: "send" | "approve" = "send",
): Promise<Locked> {
  assertAllowed(operation, request.status);
  assertNotExpired(request.expires_at);
  const next = await notifyNextGroup(tx, links, request, recipients);
  const after = {
    request: await requestStore.setStatus(tx, request.id, "sent", { sent: true }),
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
 * Writes a new request that is sent at once, as creating the draft and then sending it would leave
 * it — the request and its first group `sent`, links and e-mails queued, the "created" entry (given)
 * and the "sent" one, the `sent` event — but without writing the draft's rows first and changing
 * them afterwards: three statements fewer, on the path every create-and-send takes.
 */
export async function insertSent(
  tx: Queryable,
  links: SigningLinks,
  request: NewRequest,
  recipients: NewRecipientRow[],
  actor: AuditActor,
  created: AuditRecord,
): Promise<Locked> {
  assertNotExpired(request.expiresAt);
  const { routingOrder, group } = nextGroup(recipients);
  const first = new Set(group.map((r) => r.id));
  const inserted = await requestStore.insertRequest(
    tx,
    { ...request, status: "sent" },
    recipients.map((r) => (first.has(r.id) ? { ...r, status: "sent" } : r)),
  );
  const notified = await notifyRecipients(
    tx,
    links,
    inserted.request,
    inserted.recipients.filter((r) => first.has(r.id)),
    "invitation",
  );
  await appendAuditEntries(
    tx,
    request.id,
    actor,
    [created, { action: "sent", details: { routingOrder, notified } }],
    EMPTY_CHAIN,
  );
  await enqueueRequestEvent(tx, "sent", inserted.request, inserted.recipients);
  return inserted;
}

export function assertNotExpired(expiresAt: Date | null): void {
  if (expiresAt && expiresAt <= new Date()) {
    throw new ConnectError(
      "the request expired before it was sent; set a later expiresAt",
      Code.FailedPrecondition,
    );
  }
}

/** Whose turn comes next: the pending signers and viewers of the lowest routing order any of them has. */
function nextGroup<R extends Pick<RecipientRow, "kind" | "status" | "routing_order">>(
  recipients: R[],
): { routingOrder: number; group: R[] } {
  const pending = recipients.filter((r) => actsInRouting(r.kind) && r.status === "pending");
  const routingOrder = Math.min(...pending.map((r) => r.routing_order));
  return { routingOrder, group: pending.filter((r) => r.routing_order === routingOrder) };
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
  const { routingOrder, group } = nextGroup(recipients);
  const changed = await recipientStore.setRecipientStatus(
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

/**
 * After a recipient has done their part (signed, or viewed as a viewer): once everyone of the lowest
 * unfinished routing group has, the next group is notified; once everyone has, completion is queued.
 */
export async function routeOn(
  tx: Queryable,
  links: SigningLinks,
  locked: Locked,
  by: AuditActor,
): Promise<void> {
  const unfinished = locked.recipients.filter((r) => !hasDonePart(r));
  if (unfinished.length === 0) {
    await queueCompletion(tx, locked.request);
    await appendAudit(tx, locked.request.id, "all_signed", by, {});
    return;
  }
  if (unfinished.some((r) => r.status !== "pending")) return;
  const next = await notifyNextGroup(tx, links, locked.request, locked.recipients);
  await appendAudit(tx, locked.request.id, "routed", by, {
    routingOrder: next.routingOrder,
    notified: next.notified,
  });
}

/** New e-mail links and queued e-mails for these recipients; embedded signers get none. */
export async function notifyRecipients(
  tx: Queryable,
  links: SigningLinks,
  request: RequestRow,
  recipients: RecipientRow[],
  kind: "invitation" | "resend" | "recipient_changed",
): Promise<string[]> {
  // Embedded signers sign in the sender's app, hosted ones on their host's device: no link is e-mailed.
  const notified = recipients.filter((r) => !r.client_user_id && !r.host_email).map((r) => r.id);
  await queueEmails(tx, { requestId: request.id, recipientIds: notified, kind, links });
  return notified;
}

/**
 * Makes the locked draft wait for a person's approval instead of sending it — refused as sending it
 * would be, so that nothing waits that could not be sent.
 */
export async function proposeDraft(tx: Queryable, { request, recipients }: Locked, actor: AuditActor) {
  assertAllowed("propose", request.status);
  assertNotExpired(request.expires_at);
  await requestStore.propose(tx, request.id, actor.name || actor.id);
  await appendAudit(tx, request.id, "proposed", actor, {
    recipients: recipients.map((r) => ({ id: r.id, name: r.name, email: r.email, kind: r.kind })),
  });
}
