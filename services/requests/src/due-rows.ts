/**
 * The sweeps' way through what is due (expiry, scheduled reminders, expiry warnings): one row at a
 * time, each in a transaction of its own that locks it (SKIP LOCKED, so replicas share the work).
 * One that fails is logged and skipped for the rest of this sweep, and cannot hold back the others.
 */
import type { Database, Logger, Queryable } from "@countersign/kit";

export interface DueWork<Due> {
  /** The next due row, locked, none of whose ids is in `skip`. */
  next: (tx: Queryable, skip: string[]) => Promise<Due | undefined>;
  idOf: (due: Due) => string;
  act: (tx: Queryable, due: Due) => Promise<void>;
  /** The log's name for the id ("signatureRequestId") and what it says of a failure. */
  logField: string;
  failure: string;
}

/** Acts on every row due now, until none is or `stopping` is aborted; how many it acted on. */
export async function workThroughDue<Due>(
  deps: { db: Database; logger: Logger; afterCommit: () => void },
  work: DueWork<Due>,
  stopping?: AbortSignal,
): Promise<number> {
  let done = 0;
  const failed: string[] = [];
  while (!stopping?.aborted) {
    let current: string | undefined;
    try {
      const acted = await deps.db.transaction(async (tx) => {
        const due = await work.next(tx, failed);
        if (!due) return false;
        current = work.idOf(due);
        await work.act(tx, due);
        return true;
      });
      if (!acted) break;
      done += 1;
      deps.afterCommit();
    } catch (err) {
      if (current === undefined) throw err;
      failed.push(current);
      deps.logger.error({ err, [work.logField]: current }, work.failure);
    }
  }
  return done;
}
