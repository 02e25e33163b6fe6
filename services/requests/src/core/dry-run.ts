/**
 * A dry run (validate_only): the work done in a transaction that is rolled back at its end. It is
 * checked by the same code and the same database rules as the real thing and answers what the real
 * thing would, while nothing is kept — and no e-mail or event leaves, for they are written in that
 * same transaction (the outbox) and go out only once it commits.
 */
import type { Database, Queryable } from "@countersign/kit";

/** Thrown to end the transaction: what rolls it back, carrying nothing. */
const ROLLBACK = Symbol("dry run");

export async function rolledBack<T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T> {
  let answer: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      answer = { value: await work(tx) };
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  if (!answer) throw new Error("a dry run ended without an answer");
  return answer.value;
}
