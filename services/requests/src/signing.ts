/**
 * A signer acting through their session: signing (their values checked and kept, the next routing
 * group notified, completion queued after the last signature) and declining (the request ends).
 * Each runs in one transaction under the request's row lock, with its audit entry and event.
 */
import type { Actor, FieldValue } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, type Queryable, uuidv7, validationError } from "@countersign/kit";
import { appendAudit } from "./audit-trail.js";
import { notifyRecipients } from "./dispatch.js";
import { enqueueRequestEvent } from "./events.js";
import { readSignerValues, type StoredValue } from "./field-values.js";
import { LIMITS } from "./request-rules.js";
import { type Locked, lockRequest, type RequestTransactions } from "./request-transactions.js";
import { revokeLinks, type SigningLinks } from "./signing-links.js";
import { type SessionRef, type SigningSessions, signerActor } from "./signing-sessions.js";
import { assertAllowed, assertRecipientAllowed } from "./state-machine.js";
import { type RecipientRow, store } from "./store.js";

export interface SigningDeps {
  db: Database;
  links: SigningLinks;
  sessions: SigningSessions;
  transactions: RequestTransactions;
  /** Called after a commit that queued events, e-mails or a completion. */
  afterCommit: () => void;
}

export class Signing {
  constructor(private readonly deps: SigningDeps) {}

  async submit(
    sessionToken: string,
    consent: boolean,
    given: Record<string, FieldValue>,
    actor: Actor | undefined,
  ) {
    const session = await this.deps.sessions.resolve(this.deps.db, sessionToken);
    await this.inSession(session, async (tx, locked, signer) => {
      assertAllowed("sign", locked.request.status);
      assertRecipientAllowed("sign", signer.status);
      const signedAt = new Date();
      const fields = locked.request.fields.filter((f) => f.recipientId === signer.id);
      const { values, violations } = readSignerValues(fields, given, consent, signer, signedAt);
      if (violations.length > 0) throw validationError(violations, "the signature is not complete");

      const by = signerActor(signer.id, actor);
      await saveValues(tx, locked.request.id, signer.id, values);
      const signed = await store.markSigned(tx, signer.id, {
        ip: by.ip,
        userAgent: by.userAgent,
        consentedAt: signedAt,
        signedAt,
      });
      const recipients = locked.recipients.map((r) => (r.id === signer.id ? signed : r));
      const request =
        locked.request.status === "sent"
          ? await store.setStatus(tx, locked.request.id, "in_progress")
          : locked.request;
      await appendAudit(tx, request.id, "signed", by, {
        consentedAt: signedAt,
        fieldIds: [...values.keys()],
      });
      await enqueueRequestEvent(tx, "signed", request, recipients, signed);
      await this.routeOn(tx, { request, recipients }, signed);
    });
    return this.answer(session);
  }

  async decline(sessionToken: string, reason: string, actor: Actor | undefined) {
    const trimmed = reason.trim();
    if (!trimmed || trimmed.length > LIMITS.reasonLength) {
      throw validationError([
        {
          path: "reason",
          message: trimmed ? `must be at most ${LIMITS.reasonLength} characters` : "is required",
        },
      ]);
    }
    const session = await this.deps.sessions.resolve(this.deps.db, sessionToken);
    await this.inSession(session, async (tx, locked, signer) => {
      assertAllowed("decline", locked.request.status);
      assertRecipientAllowed("decline", signer.status);
      const declined = await store.markDeclined(tx, signer.id, trimmed);
      await revokeLinks(tx, locked.request.id);
      const request = await store.setStatus(tx, locked.request.id, "declined");
      const recipients = locked.recipients.map((r) => (r.id === signer.id ? declined : r));
      await appendAudit(tx, request.id, "declined", signerActor(signer.id, actor), { reason: trimmed });
      await enqueueRequestEvent(tx, "declined", request, recipients, declined);
    });
    return this.answer(session);
  }

  /**
   * After a signature: once every signer of the lowest unfinished routing group has signed, the
   * next group is notified; once every signer has signed, completion is queued.
   */
  private async routeOn(tx: Queryable, { request, recipients }: Locked, signed: RecipientRow): Promise<void> {
    const signers = recipients.filter((r) => r.kind === "signer");
    const unsigned = signers.filter((r) => r.status !== "signed");
    if (unsigned.length === 0) {
      await tx.query(
        "INSERT INTO completions (request_id, workspace_id, document_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [request.id, request.workspace_id, uuidv7()],
      );
      await appendAudit(tx, request.id, "all_signed", signerActor(signed.id, undefined), {});
      return;
    }
    if (unsigned.some((r) => r.status !== "pending")) return;
    const next = Math.min(...unsigned.map((r) => r.routing_order));
    const group = unsigned.filter((r) => r.routing_order === next);
    const sent = await store.setRecipientStatus(
      tx,
      group.map((r) => r.id),
      "sent",
    );
    const notified = await notifyRecipients(tx, this.deps.links, request, sent, "invitation");
    await appendAudit(tx, request.id, "routed", signerActor(signed.id, undefined), {
      routingOrder: next,
      notified,
    });
  }

  private async inSession(
    session: SessionRef,
    change: (tx: Queryable, locked: Locked, signer: RecipientRow) => Promise<void>,
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const locked = await lockRequest(tx, session.workspaceId, session.requestId);
      const signer = locked.recipients.find((r) => r.id === session.recipientId) as RecipientRow;
      await change(tx, locked, signer);
    });
    this.deps.afterCommit();
  }

  private async answer(session: SessionRef) {
    return {
      signatureRequest: await this.deps.transactions.get(session.workspaceId, session.requestId),
      recipientId: session.recipientId,
      returnUrl: session.returnUrl,
    };
  }
}

async function saveValues(
  tx: Queryable,
  requestId: string,
  recipientId: string,
  values: Map<string, StoredValue>,
): Promise<void> {
  if (values.size === 0) return;
  await tx.query(
    `INSERT INTO field_values (request_id, field_id, recipient_id, value)
     SELECT $1, f.id, $2, f.value FROM unnest($3::text[], $4::jsonb[]) AS f(id, value)`,
    [requestId, recipientId, [...values.keys()], [...values.values()].map((v) => JSON.stringify(v))],
  );
}
