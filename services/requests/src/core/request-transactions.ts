/**
 * The frame every operation on one request runs in: a transaction that first locks the request
 * row (so concurrent operations see each other's result), then the change, then a nudge to the
 * relay and the e-mail sender once it is committed.
 */
import type { SignatureRequest } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, isUuid, notFound, type Queryable } from "@countersign/kit";
import { rolledBack } from "./dry-run.js";
import { toSignatureRequest } from "./messages.js";
import { recipientStore } from "./store/recipient-store.js";
import { requestStore } from "./store/request-store.js";
import type { RecipientRow, RequestRow } from "./store/rows.js";

/** A request and its recipients, read under the request's row lock. */
export interface Locked {
  request: RequestRow;
  recipients: RecipientRow[];
}

/** Reads a request with its row locked for the transaction; another workspace's is not found. */
export async function lockRequest(tx: Queryable, workspaceId: string, requestId: string): Promise<Locked> {
  const request = await requestStore.getRequest(tx, workspaceId, requestId, true);
  if (!request) throw notFound("signature request");
  return { request, recipients: await recipientStore.recipientsOf(tx, [requestId]) };
}

async function readRequest(db: Queryable, workspaceId: string, requestId: string): Promise<SignatureRequest> {
  if (!isUuid(requestId)) throw notFound("signature request");
  const request = await requestStore.getRequest(db, workspaceId, requestId);
  if (!request) throw notFound("signature request");
  return toSignatureRequest(request, await recipientStore.recipientsOf(db, [requestId]));
}

export class RequestTransactions {
  constructor(
    private readonly db: Database,
    /** Called after a commit that wrote events or e-mails, so they go out without waiting for a poll. */
    private readonly afterCommit: () => void,
  ) {}

  get(workspaceId: string, requestId: string): Promise<SignatureRequest> {
    return readRequest(this.db, workspaceId, requestId);
  }

  /**
   * Runs `change` on the locked request in one transaction; the request as it is afterwards. A dry
   * run (`validateOnly`) rolls the transaction back and answers the request as it would have been.
   */
  async mutate(
    workspaceId: string,
    requestId: string,
    change: (tx: Queryable, locked: Locked) => Promise<void>,
    validateOnly = false,
  ): Promise<SignatureRequest> {
    if (!isUuid(requestId)) throw notFound("signature request");
    if (validateOnly) {
      return rolledBack(this.db, async (tx) => {
        await change(tx, await lockRequest(tx, workspaceId, requestId));
        return readRequest(tx, workspaceId, requestId);
      });
    }
    await this.db.transaction(async (tx) => change(tx, await lockRequest(tx, workspaceId, requestId)));
    this.afterCommit();
    return this.get(workspaceId, requestId);
  }
}
