/**
 * Signature requests: made from a template, then sent, resent, cancelled, reminded, re-addressed
 * and expired as the state machine allows. Each operation runs in one transaction under the
 * request's row lock and writes, with the change, its audit entry, its event and its e-mails.
 */

import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import type {
  Actor,
  CreateSignatureRequestRequest,
  RecipientChange,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  type Database,
  type FieldViolation,
  isUuid,
  type Logger,
  notFound,
  type PageSizes,
  type Queryable,
  roleKey,
  uuidv7,
  validationError,
} from "@countersign/kit";
import {
  type AuditActor,
  actorOf,
  appendAudit,
  type ChainEnd,
  EMPTY_CHAIN,
  readAudit,
  SYSTEM,
  verifyChain,
} from "./audit-trail.js";
import { enqueueRequestEvent } from "./events.js";
import { toSignatureRequest } from "./messages.js";
import { queueNotification } from "./notifications.js";
import { layoutFromDocuments, layoutFromTemplate, placementOnDocuments } from "./request-layouts.js";
import {
  bindRoles,
  LIMITS,
  personViolations,
  type RecipientDraft,
  requestViolations,
  returnUrlViolations,
} from "./request-rules.js";
import { linkGone, revokeLinks, type SigningLinks } from "./signing-links.js";
import { assertAllowed, isRecipientsTurn, isTerminal, REQUEST_STATUSES } from "./state-machine.js";
import {
  type NewRecipientRow,
  type RecipientRow,
  type RequestRow,
  type StoredField,
  store,
} from "./store.js";

export interface RequestsOptions {
  db: Database;
  templates: Client<typeof TemplatesService>;
  documents: Client<typeof DocumentsService>;
  links: SigningLinks;
  logger: Logger;
  /** Called after a commit that wrote events or e-mails, so they go out without waiting for a poll. */
  afterCommit: () => void;
  /** At most one reminder per recipient in this interval. */
  reminderIntervalMs?: number;
  /** How long an embedded signing URL can be opened. */
  embeddedUrlTtlMs?: number;
}

interface Locked {
  request: RequestRow;
  recipients: RecipientRow[];
}

function holderOf(requestId: string): string {
  return `request:${requestId}`;
}

export class Requests {
  private readonly reminderIntervalMs: number;
  private readonly embeddedUrlTtlMs: number;

  constructor(private readonly deps: RequestsOptions) {
    this.reminderIntervalMs = deps.reminderIntervalMs ?? 10 * 60_000;
    this.embeddedUrlTtlMs = deps.embeddedUrlTtlMs ?? 5 * 60_000;
  }

  async create(input: CreateSignatureRequestRequest): Promise<SignatureRequest> {
    const now = new Date();
    const expiresAt = input.expireTime ? timestampDate(input.expireTime) : undefined;
    const drafts: RecipientDraft[] = input.recipients.map((r) => ({
      name: r.name,
      email: r.email.trim(),
      role: r.role,
      kind: r.kind || "signer",
      routingOrder: r.routingOrder,
      clientUserId: r.clientUserId,
    }));
    const violations = requestViolations({
      title: input.title,
      message: input.message,
      templateId: input.templateId,
      documentCount: input.documentIds.length,
      recipients: drafts,
      expiresAt,
      now,
    });
    const fromDocuments = input.templateId
      ? undefined
      : layoutFromDocuments(input.documentIds, input.fields, drafts);
    violations.push(...(fromDocuments?.violations ?? []));
    if (violations.length > 0) throw validationError(violations, "the signature request is not valid");

    const layout =
      fromDocuments?.layout ?? layoutFromTemplate(await this.templateOf(input.workspaceId, input.templateId));
    const { byRole, violations: bindings } = bindRoles(layout, drafts);
    if (bindings.length > 0)
      throw validationError(bindings, "the recipients do not fill the template's roles");

    const id = uuidv7();
    const recipients: NewRecipientRow[] = drafts.map((d) => {
      // A signer takes the role's spelling and routing order; a copy recipient's role is a free label.
      const role =
        d.kind === "signer" ? layout.roles.find((r) => roleKey(r.name) === roleKey(d.role)) : undefined;
      return {
        id: uuidv7(),
        name: d.name.trim(),
        email: d.email,
        role: role?.name ?? d.role.trim(),
        kind: d.kind as "signer" | "cc",
        routing_order: d.routingOrder || role?.order || 1,
        client_user_id: d.clientUserId,
      };
    });
    const fields: StoredField[] = layout.fields.map(({ role, ...f }) => ({
      ...f,
      recipientId: recipients[byRole.get(roleKey(role)) ?? -1]?.id ?? "",
    }));

    const claimed: string[] = [];
    const release = () =>
      Promise.all(
        claimed.map((documentId) =>
          this.deps.documents
            .releaseDocument({ workspaceId: input.workspaceId, documentId, holder: holderOf(id) })
            .catch((err: unknown) =>
              this.deps.logger.warn(
                { err, requestId: id },
                "could not release a document of a failed request",
              ),
            ),
        ),
      );
    try {
      const pages = await this.claimDocuments(input.workspaceId, id, layout.documentIds, claimed);
      if (fromDocuments) {
        const misplaced = placementOnDocuments(layout.fields, pages);
        if (misplaced.length > 0) throw validationError(misplaced, "the fields do not lie on the documents");
      }
    } catch (err) {
      await release();
      throw err;
    }
    const actor = actorOf(input.actor);
    let created: Locked;
    try {
      created = await this.deps.db.transaction(async (tx) => {
        const inserted = await store.insertRequest(
          tx,
          {
            id,
            workspaceId: input.workspaceId,
            title: input.title.trim(),
            message: input.message,
            templateId: layout.templateId,
            documentIds: layout.documentIds,
            fields,
            expiresAt: expiresAt ?? null,
          },
          recipients,
        );
        const chain = await appendAudit(
          tx,
          id,
          "created",
          actor,
          {
            templateId: layout.templateId,
            documentIds: layout.documentIds,
            recipients: recipients.map((r) => ({
              id: r.id,
              name: r.name,
              email: r.email,
              role: r.role,
              kind: r.kind,
            })),
          },
          EMPTY_CHAIN,
        );
        return input.send ? this.sendLocked(tx, inserted, actor, chain) : inserted;
      });
    } catch (err) {
      await release();
      throw err;
    }
    this.deps.afterCommit();
    return toSignatureRequest(created.request, created.recipients);
  }

  async get(workspaceId: string, requestId: string): Promise<SignatureRequest> {
    if (!isUuid(requestId)) throw notFound("signature request");
    const request = await store.getRequest(this.deps.db, workspaceId, requestId);
    if (!request) throw notFound("signature request");
    return toSignatureRequest(request, await store.recipientsOf(this.deps.db, [requestId]));
  }

  async list(workspaceId: string, status: string, pageIndex: number, pageSize: number) {
    if (status && !(REQUEST_STATUSES as readonly string[]).includes(status)) {
      throw new ConnectError(`status must be one of ${REQUEST_STATUSES.join(", ")}`, Code.InvalidArgument);
    }
    const page = await store.page(this.deps.db, workspaceId, status, pageIndex, pageSize);
    const recipients = await store.recipientsOf(
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

  send(workspaceId: string, requestId: string, actor: Actor | undefined): Promise<SignatureRequest> {
    return this.mutate(workspaceId, requestId, async (tx, locked) => {
      await this.sendLocked(tx, locked, actorOf(actor));
    });
  }

  resend(workspaceId: string, requestId: string, actor: Actor | undefined): Promise<SignatureRequest> {
    return this.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("resend", request.status);
      const waiting = recipients.filter((r) => r.kind === "signer" && isRecipientsTurn(r.status));
      const notified = await this.notify(tx, request, waiting, "resend");
      await store.touch(tx, request.id);
      await appendAudit(tx, request.id, "resent", actorOf(actor), { notified });
    });
  }

  cancel(workspaceId: string, requestId: string, reason: string, actor: Actor | undefined) {
    if (reason.length > LIMITS.reasonLength) {
      throw validationError([
        { path: "reason", message: `must be at most ${LIMITS.reasonLength} characters` },
      ]);
    }
    return this.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("cancel", request.status);
      await revokeLinks(tx, request.id);
      const after = await store.setStatus(tx, request.id, "cancelled", {
        cancelled: true,
        cancelReason: reason,
      });
      await appendAudit(tx, request.id, "cancelled", actorOf(actor), { reason, from: request.status });
      await enqueueRequestEvent(tx, "cancelled", after, recipients);
    });
  }

  updateRecipients(
    workspaceId: string,
    requestId: string,
    changes: RecipientChange[],
    actor: Actor | undefined,
  ) {
    const violations = changes.flatMap((change, i) => {
      const at = (p: string) => `recipients[${i}].${p}`;
      const found = personViolations({ name: change.name, email: change.email?.trim() }, at);
      if (change.name === undefined && change.email === undefined)
        found.push({ path: `recipients[${i}]`, message: "names nothing to change (name, email)" });
      if (changes.findIndex((c) => c.id === change.id) !== i)
        found.push({ path: at("id"), message: "is changed twice in one update" });
      return found;
    });
    if (changes.length === 0)
      violations.push({ path: "recipients", message: "lists no recipient to change" });
    if (violations.length > 0) throw validationError(violations, "the recipient changes are not valid");

    return this.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("update_recipients", request.status);
      const missing = changes
        .map((change, i) => ({ change, i }))
        .filter(({ change }) => !recipients.some((r) => r.id === change.id))
        .map(({ i }) => ({ path: `recipients[${i}].id`, message: "is not a recipient of this request" }));
      if (missing.length > 0) throw validationError(missing, "the recipient changes are not valid");
      for (const change of changes) {
        const recipient = recipients.find((r) => r.id === change.id) as RecipientRow;
        if (recipient.status === "signed" || recipient.status === "declined") {
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
        if (name === before.name && email === before.email) continue;
        await store.renameRecipient(tx, before.id, name, email);
        await revokeLinks(tx, request.id, [before.id]);
        await appendAudit(tx, request.id, "recipient_updated", log, {
          recipientId: before.id,
          before: { name: before.name, email: before.email },
          after: { name, email },
        });
        if (isRecipientsTurn(before.status) && before.kind === "signer") {
          await this.notify(tx, request, [{ ...before, name, email }], "recipient_changed");
        }
      }
      await store.touch(tx, request.id);
    });
  }

  async remind(workspaceId: string, recipientId: string, note: string, actor: Actor | undefined) {
    if (note.length > LIMITS.noteLength) {
      throw validationError([
        { path: "message", message: `must be at most ${LIMITS.noteLength} characters` },
      ]);
    }
    const requestId = isUuid(recipientId)
      ? await store.requestIdOfRecipient(this.deps.db, workspaceId, recipientId)
      : undefined;
    if (!requestId) throw notFound("recipient");
    const remindedAt = new Date();
    await this.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("remind", request.status);
      const recipient = recipients.find((r) => r.id === recipientId) as RecipientRow;
      if (recipient.kind !== "signer" || !isRecipientsTurn(recipient.status)) {
        throw new ConnectError(
          `cannot remind recipient ${recipient.id}: they are ${recipient.kind === "cc" ? "a copy recipient" : recipient.status}; only a signer whose turn it is can be reminded`,
          Code.FailedPrecondition,
        );
      }
      if (recipient.client_user_id) {
        throw new ConnectError(
          `recipient ${recipient.id} signs embedded in your app (clientUserId) and gets no e-mail`,
          Code.FailedPrecondition,
        );
      }
      const last = recipient.reminded_at?.getTime();
      if (last !== undefined && remindedAt.getTime() - last < this.reminderIntervalMs) {
        const seconds = Math.ceil((last + this.reminderIntervalMs - remindedAt.getTime()) / 1000);
        throw new ConnectError(
          `recipient ${recipient.id} was reminded less than ${Math.round(this.reminderIntervalMs / 60_000)} minutes ago; try again in ${seconds} s`,
          Code.ResourceExhausted,
          undefined,
          [{ desc: RetryAfterSchema, value: create(RetryAfterSchema, { seconds }) }],
        );
      }
      const linkId = await this.deps.links.issue(tx, { requestId, recipientId, kind: "email" });
      await queueNotification(tx, { requestId, recipientId, kind: "reminder", linkId, note });
      await store.setReminded(tx, recipientId, remindedAt);
      await appendAudit(tx, requestId, "reminded", actorOf(actor), { recipientId, note });
    });
    return { recipientId, remindedAt };
  }

  async embeddedSigningUrl(
    workspaceId: string,
    requestId: string,
    recipientId: string,
    returnUrl: string,
    actor: Actor | undefined,
  ): Promise<{ url: string; expiresAt: Date }> {
    const violations = returnUrlViolations(returnUrl);
    if (!isUuid(recipientId))
      violations.push({ path: "recipientId", message: "is not a recipient of this request" });
    if (violations.length > 0) throw validationError(violations);
    const expiresAt = new Date(Date.now() + this.embeddedUrlTtlMs);
    let linkId = "";
    await this.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("embedded_signing_url", request.status);
      const recipient = recipients.find((r) => r.id === recipientId);
      if (!recipient)
        throw validationError([{ path: "recipientId", message: "is not a recipient of this request" }]);
      if (recipient.kind !== "signer" || !isRecipientsTurn(recipient.status)) {
        const why =
          recipient.kind === "cc"
            ? "is a copy recipient and does not sign"
            : recipient.status === "pending"
              ? "cannot sign yet: an earlier routing group has not finished"
              : `has ${recipient.status} already`;
        throw new ConnectError(`recipient ${recipient.id} ${why}`, Code.FailedPrecondition);
      }
      linkId = await this.deps.links.issue(tx, {
        requestId,
        recipientId,
        kind: "embedded",
        returnUrl,
        openBy: expiresAt,
      });
      await appendAudit(tx, requestId, "embedded_signing_url_created", actorOf(actor), {
        recipientId,
        expiresAt,
      });
    });
    return { url: this.deps.links.urlOf(linkId), expiresAt };
  }

  /** The request and recipient a link is for; GONE when the link no longer opens. */
  async openLink(token: string, actor: Actor | undefined) {
    const now = new Date();
    return this.deps.db.transaction(async (tx) => {
      const link = await this.deps.links.find(tx, token);
      const { rows } = await tx.query<{ workspace_id: string }>(
        "SELECT workspace_id FROM signature_requests WHERE id = $1",
        [link.request_id],
      );
      const locked = await this.lock(tx, rows[0]?.workspace_id ?? "", link.request_id);
      const gone = linkGone(link, now);
      if (gone) throw gone;
      if (isTerminal(locked.request.status)) {
        throw new ConnectError(
          `this request is ${locked.request.status}; there is nothing left to sign`,
          Code.FailedPrecondition,
        );
      }
      if (link.kind === "embedded")
        await tx.query("UPDATE signing_links SET opened_at = now() WHERE id = $1", [link.id]);
      await appendAudit(
        tx,
        link.request_id,
        "link_opened",
        {
          type: "recipient",
          id: link.recipient_id,
          ip: actor?.ip ?? "",
          userAgent: actor?.userAgent ?? "",
        },
        { kind: link.kind },
      );
      return {
        signatureRequest: toSignatureRequest(locked.request, locked.recipients),
        recipientId: link.recipient_id,
        returnUrl: link.return_url,
      };
    });
  }

  async auditTrail(workspaceId: string, requestId: string) {
    await this.get(workspaceId, requestId);
    const entries = await readAudit(this.deps.db, requestId);
    return { entries, verified: verifyChain(entries) };
  }

  /** Expires one due request; the sweeper calls it with the request locked. */
  async expireLocked(tx: Queryable, workspaceId: string, requestId: string): Promise<void> {
    const { request, recipients } = await this.lock(tx, workspaceId, requestId);
    assertAllowed("expire", request.status);
    await revokeLinks(tx, requestId);
    const after = await store.setStatus(tx, requestId, "expired");
    await appendAudit(tx, requestId, "expired", SYSTEM, {
      expiresAt: request.expires_at,
      from: request.status,
    });
    await enqueueRequestEvent(tx, "expired", after, recipients);
  }

  /** Sends a draft; returns the request and recipients as they are after it. */
  private async sendLocked(
    tx: Queryable,
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
    const pending = recipients.filter((r) => r.kind === "signer" && r.status === "pending");
    const first = Math.min(...pending.map((r) => r.routing_order));
    const group = pending.filter((r) => r.routing_order === first);
    const changed = await store.setRecipientStatus(
      tx,
      group.map((r) => r.id),
      "sent",
    );
    const notified = await this.notify(tx, request, group, "invitation");
    const after = {
      request: await store.setStatus(tx, request.id, "sent", { sent: true }),
      recipients: recipients.map((r) => changed.find((c) => c.id === r.id) ?? r),
    };
    await appendAudit(tx, request.id, "sent", actor, { routingOrder: first, notified }, chain);
    await enqueueRequestEvent(tx, "sent", after.request, after.recipients);
    return after;
  }

  /** New e-mail links and queued e-mails for these recipients; embedded signers get none. */
  private async notify(
    tx: Queryable,
    request: RequestRow,
    recipients: RecipientRow[],
    kind: "invitation" | "resend" | "recipient_changed",
  ): Promise<string[]> {
    const notified: string[] = [];
    for (const recipient of recipients) {
      if (recipient.client_user_id) continue;
      const linkId = await this.deps.links.issue(tx, {
        requestId: request.id,
        recipientId: recipient.id,
        kind: "email",
      });
      await queueNotification(tx, { requestId: request.id, recipientId: recipient.id, kind, linkId });
      notified.push(recipient.id);
    }
    return notified;
  }

  private async mutate(
    workspaceId: string,
    requestId: string,
    change: (tx: Queryable, locked: Locked) => Promise<void>,
  ): Promise<SignatureRequest> {
    if (!isUuid(requestId)) throw notFound("signature request");
    await this.deps.db.transaction(async (tx) => change(tx, await this.lock(tx, workspaceId, requestId)));
    this.deps.afterCommit();
    return this.get(workspaceId, requestId);
  }

  private async lock(tx: Queryable, workspaceId: string, requestId: string): Promise<Locked> {
    const request = await store.getRequest(tx, workspaceId, requestId, true);
    if (!request) throw notFound("signature request");
    return { request, recipients: await store.recipientsOf(tx, [requestId]) };
  }

  /** Claims each document for the request, noting each claim in `claimed`; their page sizes by id. */
  private async claimDocuments(
    workspaceId: string,
    requestId: string,
    documentIds: string[],
    claimed: string[],
  ): Promise<Map<string, PageSizes>> {
    const pages = new Map<string, PageSizes>();
    const missing: FieldViolation[] = [];
    for (const [i, documentId] of documentIds.entries()) {
      try {
        const { document } = await this.deps.documents.claimDocument({
          workspaceId,
          documentId,
          holder: holderOf(requestId),
        });
        claimed.push(documentId);
        pages.set(documentId, document?.pages.map(({ width, height }) => ({ width, height })) ?? []);
      } catch (err) {
        if (!(err instanceof ConnectError && err.code === Code.NotFound)) throw err;
        missing.push({ path: `documentIds[${i}]`, message: "there is no such document in this workspace" });
      }
    }
    if (missing.length > 0) throw validationError(missing, "the signature request is not valid");
    return pages;
  }

  private async templateOf(workspaceId: string, templateId: string) {
    try {
      const { template } = await this.deps.templates.getTemplate({ workspaceId, templateId });
      if (!template) throw new Error("the templates service answered without a template");
      return template;
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.NotFound) {
        throw validationError([
          { path: "templateId", message: "there is no such template in this workspace" },
        ]);
      }
      throw err;
    }
  }
}
