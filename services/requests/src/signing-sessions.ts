/**
 * Signing sessions: the embedded signing URL a sender asks for on behalf of a signer, and opening
 * a link (from an e-mail or embedded), which answers GONE once the link was replaced, used, has
 * expired or its request has ended.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Actor } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, isUuid, validationError } from "@countersign/kit";
import { actorOf, appendAudit } from "./audit-trail.js";
import { toSignatureRequest } from "./messages.js";
import { returnUrlViolations } from "./request-rules.js";
import { lockRequest, type RequestTransactions } from "./request-transactions.js";
import { linkGone, type SigningLinks } from "./signing-links.js";
import { assertAllowed, isRecipientsTurn, isTerminal } from "./state-machine.js";

export interface SigningSessionsDeps {
  db: Database;
  links: SigningLinks;
  transactions: RequestTransactions;
  /** How long an embedded signing URL can be opened. */
  embeddedUrlTtlMs?: number;
}

export class SigningSessions {
  private readonly embeddedUrlTtlMs: number;
  private readonly transactions: RequestTransactions;

  constructor(private readonly deps: SigningSessionsDeps) {
    this.embeddedUrlTtlMs = deps.embeddedUrlTtlMs ?? 5 * 60_000;
    this.transactions = deps.transactions;
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
    await this.transactions.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
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
      const locked = await lockRequest(tx, rows[0]?.workspace_id ?? "", link.request_id);
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
}
