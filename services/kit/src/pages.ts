/**
 * One page of a list and the total in one query: the total rides on every row as a window count,
 * computed before LIMIT. Only a page past the end, which has no row to carry it, costs a second query.
 * Every list declares the largest page it gives, and a page asked for outside it is refused here,
 * where it is read, whatever the caller checked: no list reads a table whole.
 */
import { inCallMode } from "./data-mode.js";
import type { Queryable } from "./database.js";
import { validationError } from "./errors.js";

export interface PageQuery {
  /** The table, or a join, to select from. */
  from: string;
  columns: string;
  /** A condition on the parameters $1…$n given in `params`. */
  where: string;
  orderBy: string;
  params: unknown[];
  /** The most rows a page may hold. */
  maxPageSize: number;
}

/** Why a page cannot be asked for: a pageIndex that is not a whole number from 0, a pageSize outside 1…max. */
export function pageViolations(
  pageIndex: number,
  pageSize: number,
  maxPageSize: number,
): { path: string; message: string }[] {
  return [
    ...(Number.isSafeInteger(pageIndex) && pageIndex >= 0
      ? []
      : [{ path: "pageIndex", message: "must be 0 or more" }]),
    ...(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= maxPageSize
      ? []
      : [{ path: "pageSize", message: `must be from 1 to ${maxPageSize}` }]),
  ];
}

export async function selectPage<R>(
  db: Queryable,
  query: PageQuery,
  pageIndex: number,
  pageSize: number,
): Promise<{ rows: R[]; totalCount: number }> {
  const violations = pageViolations(pageIndex, pageSize, query.maxPageSize);
  if (violations.length > 0) throw validationError(violations);
  const n = query.params.length;
  const { rows } = await db.query<R & { total_count: string | number }>(
    `SELECT ${query.columns}, count(*) OVER () AS total_count FROM ${query.from}
      WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...query.params, pageSize, pageIndex * pageSize],
  );
  if (rows.length > 0) {
    const totalCount = Number(rows[0]?.total_count);
    return { rows: rows.map(({ total_count: _, ...row }) => row as R), totalCount };
  }
  if (pageIndex === 0) return { rows: [], totalCount: 0 };
  const count = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${query.from} WHERE ${query.where}`,
    query.params,
  );
  return { rows: [], totalCount: count.rows[0]?.n ?? 0 };
}

/**
 * The two reads every table a workspace owns offers, by its primary key `id`: one row of the
 * workspace (locked for the transaction with `lock`), and its rows a page at a time, newest first.
 * A table whose rows are test or live data (`modeColumn`) is read in the call's mode only.
 */
export function workspaceRows<R>(
  table: string,
  columns: string,
  { maxPageSize = 100, modeColumn }: { maxPageSize?: number; modeColumn?: string } = {},
) {
  const inMode = () => (modeColumn ? inCallMode(modeColumn) : "");
  return {
    async get(db: Queryable, workspaceId: string, id: string, lock = false): Promise<R | undefined> {
      const { rows } = await db.query<R & object>(
        `SELECT ${columns} FROM ${table} WHERE workspace_id = $1 AND id = $2${inMode()}${lock ? " FOR UPDATE" : ""}`,
        [workspaceId, id],
      );
      return rows[0];
    },

    page(db: Queryable, workspaceId: string, pageIndex: number, pageSize: number) {
      const query = { from: table, columns, where: `workspace_id = $1${inMode()}`, orderBy: "id DESC" };
      return selectPage<R>(db, { ...query, params: [workspaceId], maxPageSize }, pageIndex, pageSize);
    },
  };
}
