/**
 * Sweeps through rows that fall due by a time of their own (a request's expiry, a reminder's day, a
 * retention period) rather than rows queued as jobs: each found by a declared query, locked one at
 * a time in a transaction of its own (SKIP LOCKED, so replicas share the work) and acted on in that
 * transaction. One that fails is logged and skipped for the rest of the sweep, and cannot hold back
 * the others. The locking is written here alone; a sweep declares only what is due.
 */
import type { Database, Queryable } from "./database.js";
import type { Logger } from "./logger.js";

/** What is due, as a query: `SELECT select FROM from WHERE where ORDER BY order`. */
export interface DueRows {
  select: string;
  from: string;
  where: string;
  order: string;
  /** The alias of the table whose row is locked (and held while it is acted on). */
  lock: string;
  /** The expression of a row's id (a uuid), to skip those that failed in this sweep. */
  id: string;
}

/** The next due row, locked for the transaction, none of whose ids is in `skip`. */
export async function lockNextDue<Row extends object>(
  tx: Queryable,
  rows: DueRows,
  skip: readonly string[] = [],
): Promise<Row | undefined> {
  const { rows: found } = await tx.query<Row>(
    `SELECT ${rows.select} FROM ${rows.from}
      WHERE (${rows.where}) AND NOT (${rows.id} = ANY($1::uuid[]))
      ORDER BY ${rows.order} LIMIT 1 FOR UPDATE OF ${rows.lock} SKIP LOCKED`,
    [skip],
  );
  return found[0];
}

export interface DueWork<Due> {
  rows: DueRows;
  idOf: (due: Due) => string;
  act: (tx: Queryable, due: Due) => Promise<void>;
  /** The log's name for the id ("signatureRequestId") and what it says of a failure. */
  logField: string;
  failure: string;
}

/** Acts on every row due now, until none is or `stopping` is aborted; how many it acted on. */
export async function workThroughDue<Due extends object>(
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
        const due = await lockNextDue<Due>(tx, work.rows, failed);
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
