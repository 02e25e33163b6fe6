/**
 * Legal holds: a request held is passed by the workspace's retention — its documents and audit trail
 * stay — until the hold is released. Placing and releasing are audited with who did it and why.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  Actor,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { actorOf, appendAudit } from "../core/audit-trail.js";
import { statedReason } from "../core/request-rules.js";
import type { RequestTransactions } from "../core/request-transactions.js";
import { retentionStore } from "./retention-store.js";

export class LegalHolds {
  constructor(private readonly transactions: RequestTransactions) {}

  place(
    workspaceId: string,
    requestId: string,
    reason: string,
    actor: Actor | undefined,
  ): Promise<SignatureRequest> {
    const why = statedReason(reason);
    return this.transactions.mutate(workspaceId, requestId, async (tx, { request }) => {
      if (request.documents_deleted_at)
        throw new ConnectError(
          "the workspace's retention has deleted this request's documents: there is nothing left to hold",
          Code.FailedPrecondition,
        );
      if (await retentionStore.beingDeleted(tx, request.id))
        throw new ConnectError(
          "the workspace's retention is deleting this request's documents at this moment: a hold can no longer keep them",
          Code.FailedPrecondition,
        );
      const by = actorOf(actor);
      await retentionStore.setLegalHold(tx, request.id, {
        reason: why,
        by: by.email || by.name || "the workspace",
      });
      await appendAudit(tx, request.id, "legal_hold_placed", by, {
        reason: why,
        ...(request.legal_hold_reason === null ? {} : { replaces: request.legal_hold_reason }),
      });
    });
  }

  release(workspaceId: string, requestId: string, actor: Actor | undefined): Promise<SignatureRequest> {
    return this.transactions.mutate(workspaceId, requestId, async (tx, { request }) => {
      if (request.legal_hold_at === null) return;
      await retentionStore.setLegalHold(tx, request.id, undefined);
      await appendAudit(tx, request.id, "legal_hold_released", actorOf(actor), {
        reason: request.legal_hold_reason,
        placedAt: request.legal_hold_at,
      });
    });
  }
}
