/**
 * Sweeps through rows that fall due by a time of their own (a request's expiry, a reminder's day, a
 * retention period) rather than rows queued as jobs: each found by a declared query, locked one at
 * a time in a transaction of its own (SKIP LOCKED, so replicas share the work) and acted on in that
 * transaction. One that fails is logged and skipped for the rest of the sweep, and cannot hold back
 * the others. The locking is written here alone (selectDue), for the sweeps, the job queues'
 * claims (job-queue.ts) and webhook deliveries alike; each declares only what is due.
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

/**
 * The SELECT of up to `limit` due rows, locked, passing by the rows other transactions hold (SKIP
 * LOCKED: replicas share the work and none waits on another), none of whose ids is in the uuid array
 * `skip`, when given. `limit` and `skip` are SQL: a number or a parameter ("$1").
 */
export function selectDue(rows: DueRows, limit: string, skip?: string): string {
  const skipping = skip ? ` AND NOT (${rows.id} = ANY(${skip}::uuid[]))` : "";
  return `SELECT ${rows.select} FROM ${rows.from}
           WHERE (${rows.where})${skipping}
           ORDER BY ${rows.order} LIMIT ${limit} FOR UPDATE OF ${rows.lock} SKIP LOCKED`;
}

/** The next due row, locked for the transaction, none of whose ids is in `skip`. */
export async function lockNextDue<Row extends object>(
  tx: Queryable,
  rows: DueRows,
  skip: readonly string[] = [],
): Promise<Row | undefined> {
  const { rows: found } = await tx.query<Row>(selectDue(rows, "1", "$1"), [skip]);
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
