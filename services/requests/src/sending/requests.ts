/**
 * Signature requests once they exist: read, listed, sent, resent, cancelled, re-addressed, reminded
 * and expired as the state machine allows. Each operation runs in one transaction under the
 * request's row lock and writes, with the change, its audit entry, its event and its e-mails.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { hasDonePart, REQUEST_STATUSES, signerLocaleOf } from "@countersign/domain";
import type {
  Actor,
  RecipientChange,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  busyError,
  type Database,
  isUuid,
  notFound,
  type Queryable,
  validationError,
} from "@countersign/kit";
import { actorOf, appendAudit, readAudit, SYSTEM, verifyChain } from "../core/audit-trail.js";
import { abandonParkedCompletion, completionState, retryParkedCompletion } from "../core/completion-queue.js";
import { enqueueRequestEvent } from "../core/events.js";
import { toSignatureRequest } from "../core/messages.js";
import { queueEmails } from "../core/notice-queue.js";
import { LIMITS, localeViolations, personViolations } from "../core/request-rules.js";
import { lockRequest, type RequestTransactions } from "../core/request-transactions.js";
import { notifyRecipients, proposeDraft, sendDraft } from "../core/routing.js";
import { revokeLinks, type SigningLinks } from "../core/signing-links.js";
import { actsInRouting, assertAllowed, isRecipientsTurn } from "../core/state-machine.js";
import { recipientStore } from "../core/store/recipient-store.js";
import {
  REQUEST_ORDERS,
  type RequestFilter,
  type RequestOrder,
  requestStore,
} from "../core/store/request-store.js";
import type { RecipientRow } from "../core/store/rows.js";

/** The most request ids one list may name. */
const MAX_LISTED_IDS = 100;
/** The longest search a list takes: words to find, not a document. */
const MAX_SEARCH_LENGTH = 200;
/** The end of year 9999, UTC: the latest time a list may be asked about. */
const LATEST_LISTED_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface RequestsDeps {
  db: Database;
  links: SigningLinks;
  transactions: RequestTransactions;
  /** At most one reminder per recipient in this interval. */
  reminderIntervalMs?: number;
}

export class Requests {
  private readonly reminderIntervalMs: number;
  private readonly transactions: RequestTransactions;

  constructor(private readonly deps: RequestsDeps) {
    this.reminderIntervalMs = deps.reminderIntervalMs ?? 10 * 60_000;
    this.transactions = deps.transactions;
  }

  async get(workspaceId: string, requestId: string): Promise<SignatureRequest> {
    if (!isUuid(requestId)) throw notFound("signature request");
    const request = await requestStore.getRequest(this.deps.db, workspaceId, requestId);
    if (!request) throw notFound("signature request");
    return toSignatureRequest(request, await recipientStore.recipientsOf(this.deps.db, [requestId]));
  }

  async list(workspaceId: string, filter: RequestFilter, pageIndex: number, pageSize: number, order = "") {
    const sortedBy = order || "newest";
    if (!Object.hasOwn(REQUEST_ORDERS, sortedBy)) {
      throw new ConnectError(
        `order must be one of ${Object.keys(REQUEST_ORDERS).join(", ")}`,
        Code.InvalidArgument,
      );
    }
    if ((filter.search ?? "").length > MAX_SEARCH_LENGTH) {
      throw new ConnectError(`search must be at most ${MAX_SEARCH_LENGTH} characters`, Code.InvalidArgument);
    }
    // PostgreSQL text cannot hold NUL: such a search could match nothing, and must not reach it.
    if (filter.search?.includes("\u0000")) {
      throw new ConnectError("search must not contain the NUL character (U+0000)", Code.InvalidArgument);
    }
    for (const status of [filter.status, ...filter.statuses]) {
      if (status && !(REQUEST_STATUSES as readonly string[]).includes(status)) {
        throw new ConnectError(`status must be one of ${REQUEST_STATUSES.join(", ")}`, Code.InvalidArgument);
      }
    }
    for (const [name, time] of [
      ["changedSince", filter.changedSince],
      ["changedBefore", filter.changedBefore],
      ["createdAfter", filter.createdAfter],
      ["createdBefore", filter.createdBefore],
    ] as const) {
      // What a database's timestamps can hold, and what a client can mean.
      if (time && !(time.getTime() >= 0 && time.getTime() <= LATEST_LISTED_TIME)) {
        throw new ConnectError(`${name} must be from 1970 to the end of 9999`, Code.InvalidArgument);
      }
    }
    if (filter.requestIds.length > MAX_LISTED_IDS) {
      throw new ConnectError(`at most ${MAX_LISTED_IDS} request ids may be listed`, Code.InvalidArgument);
    }
    // An id that is not a UUID names no request: it is left out rather than refused.
    const requestIds = filter.requestIds.filter(isUuid);
    if (filter.requestIds.length > 0 && requestIds.length === 0)
      return { signatureRequests: [], totalCount: 0 };
    const page = await requestStore.page(
      this.deps.db,
      workspaceId,
      { ...filter, requestIds },
      pageIndex,
      pageSize,
      sortedBy as RequestOrder,
    );
    const recipients = await recipientStore.recipientsOf(
      this.deps.db,
      page.rows.map((r) => r.id),
    );
    return {
      signatureRequests: page.rows.map((row) =>
        toSignatureRequest(
          row,
          recipients.filter((r) => r.request_id === row.id),
        ),
      ),
      totalCount: page.totalCount,
    };
  }

  /** Sends a draft; `propose` (an agent's key) makes it wait for a person's approval instead. */
  send(
    workspaceId: string,
    requestId: string,
    actor: Actor | undefined,
    { validateOnly = false, propose = false } = {},
  ): Promise<SignatureRequest> {
    return this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, locked) => {
        if (propose) await proposeDraft(tx, locked, actorOf(actor));
        else await sendDraft(tx, this.deps.links, locked, actorOf(actor));
      },
      validateOnly,
    );
  }

  resend(
    workspaceId: string,
    requestId: string,
    actor: Actor | undefined,
    validateOnly = false,
  ): Promise<SignatureRequest> {
    return this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, { request, recipients }) => {
        assertAllowed("resend", request.status);
        if ((await completionState(tx, request.id)) === "parked") {
          // Everyone has signed; what is resent is the sealing that failed.
          await retryParkedCompletion(tx, request.id);
          await appendAudit(tx, request.id, "completion_retried", actorOf(actor), {});
          return;
        }
        const waiting = recipients.filter((r) => actsInRouting(r.kind) && isRecipientsTurn(r.status, r.kind));
        const notified = await notifyRecipients(tx, this.deps.links, request, waiting, "resend");
        await requestStore.touch(tx, request.id);
        await appendAudit(tx, request.id, "resent", actorOf(actor), { notified });
      },
      validateOnly,
    );
  }

  cancel(
    workspaceId: string,
    requestId: string,
    reason: string,
    actor: Actor | undefined,
    validateOnly = false,
  ) {
    if (reason.length > LIMITS.reasonLength) {
      throw validationError([
        { path: "reason", message: `must be at most ${LIMITS.reasonLength} characters` },
      ]);
    }
    return this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, { request, recipients }) => {
        assertAllowed("cancel", request.status);
        const completion = await completionState(tx, request.id);
        if (completion === "queued") {
          throw new ConnectError(
            "cannot cancel a request every signer has signed; it is being completed",
            Code.FailedPrecondition,
          );
        }
        if (completion === "parked") await abandonParkedCompletion(tx, request.id);
        await revokeLinks(tx, request.id);
        const after = await requestStore.setStatus(tx, request.id, "cancelled", {
          cancelled: true,
          cancelReason: reason,
        });
        await appendAudit(tx, request.id, "cancelled", actorOf(actor), { reason, from: request.status });
        await enqueueRequestEvent(tx, "cancelled", after, recipients);
      },
      validateOnly,
    );
  }

  updateRecipients(
    workspaceId: string,
    requestId: string,
    changes: RecipientChange[],
    actor: Actor | undefined,
    validateOnly = false,
  ) {
    const violations = changes.flatMap((change, i) => {
      const at = (p: string) => `recipients[${i}].${p}`;
      const found = personViolations({ name: change.name, email: change.email?.trim() }, at);
      if (change.locale !== undefined) found.push(...localeViolations(change.locale, at));
      if (change.name === undefined && change.email === undefined && change.locale === undefined)
        found.push({ path: `recipients[${i}]`, message: "names nothing to change (name, email, locale)" });
      if (changes.findIndex((c) => c.id === change.id) !== i)
        found.push({ path: at("id"), message: "is changed twice in one update" });
      return found;
    });
    if (changes.length === 0)
      violations.push({ path: "recipients", message: "lists no recipient to change" });
    if (violations.length > 0) throw validationError(violations, "the recipient changes are not valid");

    return this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, { request, recipients }) => {
        assertAllowed("update_recipients", request.status);
        const missing = changes
          .map((change, i) => ({ change, i }))
          .filter(({ change }) => !recipients.some((r) => r.id === change.id))
          .map(({ i }) => ({ path: `recipients[${i}].id`, message: "is not a recipient of this request" }));
        if (missing.length > 0) throw validationError(missing, "the recipient changes are not valid");
        for (const change of changes) {
          const recipient = recipients.find((r) => r.id === change.id) as RecipientRow;
          // Who has done their part (a copy recipient has none until the end) is part of the record.
          if ((recipient.kind !== "cc" && hasDonePart(recipient)) || recipient.status === "declined") {
            throw new ConnectError(
              `recipient ${recipient.id} has ${recipient.status} already and cannot be changed`,
              Code.FailedPrecondition,
            );
          }
        }
        const log = actorOf(actor);
        for (const change of changes) {
          const before = recipients.find((r) => r.id === change.id) as RecipientRow;
          const name = change.name?.trim() ?? before.name;
          const email = change.email?.trim() ?? before.email;
          const locale = change.locale === undefined ? before.locale : (signerLocaleOf(change.locale) ?? "");
          if (locale !== before.locale) {
            // Their next e-mail and page are in the new language; the links they have still work.
            await recipientStore.setRecipientLocale(tx, before.id, locale);
            await appendAudit(tx, request.id, "recipient_updated", log, {
              recipientId: before.id,
              before: { locale: before.locale },
              after: { locale },
            });
          }
          if (name === before.name && email === before.email) continue;
          await recipientStore.renameRecipient(tx, before, name, email);
          await revokeLinks(tx, request.id, [before.id]);
          await appendAudit(tx, request.id, "recipient_updated", log, {
            recipientId: before.id,
            before: { name: before.name, email: before.email },
            after: { name, email },
          });
          if (isRecipientsTurn(before.status, before.kind) && actsInRouting(before.kind)) {
            await notifyRecipients(
              tx,
              this.deps.links,
              request,
              [{ ...before, name, email }],
              "recipient_changed",
            );
          }
        }
        await requestStore.touch(tx, request.id);
      },
      validateOnly,
    );
  }

  async remind(
    workspaceId: string,
    recipientId: string,
    note: string,
    actor: Actor | undefined,
    validateOnly = false,
  ) {
    if (note.length > LIMITS.noteLength) {
      throw validationError([
        { path: "message", message: `must be at most ${LIMITS.noteLength} characters` },
      ]);
    }
    const requestId = isUuid(recipientId)
      ? await recipientStore.requestIdOfRecipient(this.deps.db, workspaceId, recipientId)
      : undefined;
    if (!requestId) throw notFound("recipient");
    const remindedAt = new Date();
    await this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, { request, recipients }) => {
        assertAllowed("remind", request.status);
        const recipient = recipients.find((r) => r.id === recipientId) as RecipientRow;
        if (!actsInRouting(recipient.kind) || !isRecipientsTurn(recipient.status, recipient.kind)) {
          throw new ConnectError(
            `cannot remind recipient ${recipient.id}: they are ${recipient.kind === "cc" ? "a copy recipient" : recipient.status}; only a signer or viewer whose turn it is can be reminded`,
            Code.FailedPrecondition,
          );
        }
        if (recipient.client_user_id) {
          throw new ConnectError(
            `recipient ${recipient.id} signs embedded in your app (clientUserId) and gets no e-mail`,
            Code.FailedPrecondition,
          );
        }
        if (recipient.host_email) {
          throw new ConnectError(
            `recipient ${recipient.id} signs in person, hosted by ${recipient.host_email}, and gets no e-mail`,
            Code.FailedPrecondition,
          );
        }
        const last = recipient.reminded_at?.getTime();
        if (last !== undefined && remindedAt.getTime() - last < this.reminderIntervalMs) {
          const seconds = Math.ceil((last + this.reminderIntervalMs - remindedAt.getTime()) / 1000);
          throw busyError(
            `recipient ${recipient.id} was reminded less than ${Math.round(this.reminderIntervalMs / 60_000)} minutes ago; try again in ${seconds} s`,
            seconds,
          );
        }
        await queueEmails(tx, {
          requestId,
          recipientIds: [recipientId],
          kind: "reminder",
          note,
          links: this.deps.links,
        });
        await recipientStore.setReminded(tx, recipientId, remindedAt);
        await appendAudit(tx, requestId, "reminded", actorOf(actor), { recipientId, note });
      },
      validateOnly,
    );
    return { recipientId, remindedAt };
  }

  /**
   * The link of the most recent e-mail to each signer whose turn it is, in the recipients' order:
   * what an operator opens to sign without the mailbox (the tour, a test). Rebuilt from the link's
   * id, as the e-mail's was; an embedded signer has none.
   */
  async signingLinks(workspaceId: string, requestId: string) {
    const request = isUuid(requestId)
      ? await requestStore.getRequest(this.deps.db, workspaceId, requestId)
      : undefined;
    if (!request) throw notFound("signature request");
    const recipients = await recipientStore.recipientsOf(this.deps.db, [requestId]);
    const links = new Map(
      (await recipientStore.liveEmailLinks(this.deps.db, requestId)).map((link) => [link.recipient_id, link]),
    );
    return recipients.flatMap((recipient) => {
      const link = links.get(recipient.id);
      if (!link || !actsInRouting(recipient.kind) || !isRecipientsTurn(recipient.status, recipient.kind))
        return [];
      return [{ recipientId: recipient.id, url: this.deps.links.urlOf(link.id), createdAt: link.created_at }];
    });
  }

  async auditTrail(workspaceId: string, requestId: string) {
    await this.transactions.get(workspaceId, requestId);
    const entries = await readAudit(this.deps.db, requestId);
    return { entries, verified: verifyChain(entries) };
  }

  /** Expires one due request; the sweeper calls it with the request locked. */
  async expireLocked(tx: Queryable, workspaceId: string, requestId: string): Promise<void> {
    const { request, recipients } = await lockRequest(tx, workspaceId, requestId);
    assertAllowed("expire", request.status);
    await revokeLinks(tx, requestId);
    const after = await requestStore.setStatus(tx, requestId, "expired");
    await appendAudit(tx, requestId, "expired", SYSTEM, {
      expiresAt: request.expires_at,
      from: request.status,
    });
    await enqueueRequestEvent(tx, "expired", after, recipients);
  }
}
