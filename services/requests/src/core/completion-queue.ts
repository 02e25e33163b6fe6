/**
 * The completions table as the rest of the service sees it: a request every signer has signed is
 * queued for completion in the transaction of the last signature (the completion feature works the
 * rows off after commit), and a completion parked after its last attempt is queued again or abandoned.
 */
import { currentTraceparent, type Queryable, uuidv7 } from "@countersign/kit";
import { requestStore } from "./store/request-store.js";

/** Queues the completion of a request every signer has signed; a second call changes nothing. */
export async function queueCompletion(tx: Queryable, request: { id: string; workspace_id: string }) {
  await tx.query(
    `INSERT INTO completions (request_id, workspace_id, document_id, traceparent) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [request.id, request.workspace_id, uuidv7(), currentTraceparent()],
  );
}

/** Where a request's completion stands: none queued, queued (or running), or parked after its last attempt. */
export async function completionState(
  tx: Queryable,
  requestId: string,
): Promise<"none" | "queued" | "parked"> {
  const { rows } = await tx.query<{ parked_at: Date | null }>(
    "SELECT parked_at FROM completions WHERE request_id = $1 AND done_at IS NULL",
    [requestId],
  );
  const [row] = rows;
  return !row ? "none" : row.parked_at ? "parked" : "queued";
}

/** A parked completion queued again from its first attempt; the request no longer reports it failed. */
export async function retryParkedCompletion(tx: Queryable, requestId: string): Promise<void> {
  await tx.query(
    `UPDATE completions SET parked_at = NULL, attempts = 0, next_attempt_at = now(), claimed_until = '-infinity'
      WHERE request_id = $1 AND parked_at IS NOT NULL AND done_at IS NULL`,
    [requestId],
  );
  await requestStore.setCompletionFailure(tx, requestId, null);
}

/** A parked completion abandoned: its request was cancelled. */
export async function abandonParkedCompletion(tx: Queryable, requestId: string): Promise<void> {
  await tx.query(
    "UPDATE completions SET done_at = now(), last_error = 'request cancelled' WHERE request_id = $1 AND done_at IS NULL",
    [requestId],
  );
}
