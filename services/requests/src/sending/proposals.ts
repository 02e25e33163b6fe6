/**
 * A person's approval before an agent sends (docs/api.md "Agents' keys"): what an agent's API key
 * (requests:propose) would send waits, awaiting_approval, with who proposed it. A person approves it
 * — then it is sent, as they sent it — or rejects it, saying why — then it is cancelled, and no
 * recipient ever heard of it. Each step is in the audit trail: the key's name, then the person.
 */
import type {
  Actor,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Queryable } from "@countersign/kit";
import { type AuditActor, actorOf, appendAudit } from "../core/audit-trail.js";
import { enqueueRequestEvent } from "../core/events.js";
import { statedReason } from "../core/request-rules.js";
import { lockRequest, type RequestTransactions } from "../core/request-transactions.js";
import { sendDraft } from "../core/routing.js";
import type { SigningLinks } from "../core/signing-links.js";
import { assertAllowed } from "../core/state-machine.js";
import { requestStore } from "../core/store/request-store.js";

/** A person who decides, as a proposal names them: their e-mail. */
const personOf = (actor: AuditActor) => actor.email || actor.name || actor.id;

export class Proposals {
  constructor(
    private readonly transactions: RequestTransactions,
    private readonly links: SigningLinks,
  ) {}

  /** Sends a proposed request, as the person who approves it: they become its sender. */
  approve(workspaceId: string, requestId: string, actor: Actor | undefined): Promise<SignatureRequest> {
    const by = actorOf(actor);
    return this.transactions.mutate(workspaceId, requestId, async (tx, locked) => {
      assertAllowed("approve", locked.request.status);
      await decide(tx, locked.request.id, "approved", by, null);
      const email = actor?.email ?? "";
      await tx.query("UPDATE signature_requests SET sender_name = $2, sender_email = $3 WHERE id = $1", [
        locked.request.id,
        email || actor?.name || locked.request.sender_name,
        email,
      ]);
      await appendAudit(tx, locked.request.id, "proposal_approved", by, {
        proposedBy: locked.request.proposed_by,
      });
      // Read again under the lock: the e-mails it queues come from its new sender.
      await sendDraft(
        tx,
        this.links,
        await lockRequest(tx, workspaceId, requestId),
        by,
        undefined,
        "approve",
      );
    });
  }

  /** Ends a proposed request unsent, saying why. */
  reject(
    workspaceId: string,
    requestId: string,
    reason: string,
    actor: Actor | undefined,
  ): Promise<SignatureRequest> {
    const why = statedReason(reason);
    const by = actorOf(actor);
    return this.transactions.mutate(workspaceId, requestId, async (tx, { request, recipients }) => {
      assertAllowed("reject", request.status);
      await decide(tx, request.id, "rejected", by, why);
      const after = await requestStore.setStatus(tx, request.id, "cancelled", {
        cancelled: true,
        cancelReason: `rejected by ${personOf(by)}: ${why}`,
      });
      await appendAudit(tx, request.id, "proposal_rejected", by, {
        proposedBy: request.proposed_by,
        reason: why,
      });
      await enqueueRequestEvent(tx, "cancelled", after, recipients);
    });
  }
}

async function decide(
  tx: Queryable,
  requestId: string,
  decision: "approved" | "rejected",
  by: AuditActor,
  note: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE signature_requests SET approval_decision = $2, approval_decided_by = $3, approval_decided_at = now(),
       approval_note = $4 WHERE id = $1`,
    [requestId, decision, personOf(by), note],
  );
}
