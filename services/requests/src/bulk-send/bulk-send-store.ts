/**
 * The bulk_sends and bulk_send_rows tables. A row's counts are read from its rows each time (at
 * most 1000 a batch), so a batch's progress never disagrees with them.
 */
import type { JobState, JobTable, Queryable } from "@countersign/kit";
import { inCallMode, selectPage } from "@countersign/kit";

export type BatchStatus = "running" | "completed" | "cancelled";
export type RowStatus = "pending" | "sent" | "failed" | "cancelled";

export interface BatchRow {
  id: string;
  workspace_id: string;
  template_id: string;
  name: string;
  title: string;
  status: BatchStatus;
  created_by: string;
  created_at: Date;
  ended_at: Date | null;
  pending: number;
  sent: number;
  failed: number;
  cancelled: number;
}

export interface NewBatch {
  id: string;
  workspaceId: string;
  templateId: string;
  name: string;
  title: string;
  createdBy: string;
  operationKey: string | null;
  /** Started with a test key: its requests are test data. */
  test: boolean;
  rows: { line: number; input: Uint8Array; recipients: string[] }[];
}

export interface ResultRow {
  line: number;
  status: RowStatus;
  request_id: string | null;
  error: string;
  recipients: string[];
}

/** A row as the queue claims it: the request to make, and the claim's number (1 for the first try). */
export interface LeasedRow extends JobState {
  id: string;
  bulk_send_id: string;
  workspace_id: string;
  line: number;
  input: Uint8Array;
  /** The request is made in test mode, as its bulk send was started. */
  test: boolean;
}

/** The rows as jobs of the kit's queue: one request each, the workspaces' bulk sends in turn. */
export const ROW_JOBS: JobTable = {
  name: "bulk_send_rows",
  key: "id",
  columns: ["bulk_send_id", "workspace_id", "line", "input", "test"],
  order: "bulk_send_id, line",
  party: "workspace_id",
};

const BATCH_COLUMNS = `b.id, b.workspace_id, b.template_id, b.name, b.title, b.status, b.created_by, b.created_at, b.ended_at,
  count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
  count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
  count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
  count(*) FILTER (WHERE r.status = 'cancelled')::int AS cancelled`;

export const bulkSendStore = {
  /** Stores a batch and all its rows, pending. */
  async insert(tx: Queryable, batch: NewBatch): Promise<void> {
    await tx.query(
      `INSERT INTO bulk_sends (id, workspace_id, template_id, name, title, status, created_by, operation_key, test)
       VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, $8)`,
      [
        batch.id,
        batch.workspaceId,
        batch.templateId,
        batch.name,
        batch.title,
        batch.createdBy,
        batch.operationKey,
        batch.test,
      ],
    );
    const rows = batch.rows.map((r) => ({
      line: r.line,
      input: Buffer.from(r.input).toString("base64"),
      recipients: r.recipients,
    }));
    await tx.query(
      `INSERT INTO bulk_send_rows (bulk_send_id, workspace_id, line, input, recipients, status, test)
       SELECT $1, $2, r.line, decode(r.input, 'base64'), r.recipients, 'pending', $4
         FROM jsonb_to_recordset($3::jsonb) AS r(line int, input text, recipients jsonb)`,
      [batch.id, batch.workspaceId, JSON.stringify(rows), batch.test],
    );
  },

  async byId(db: Queryable, workspaceId: string, id: string): Promise<BatchRow | undefined> {
    const { rows } = await db.query<BatchRow>(
      `SELECT ${BATCH_COLUMNS} FROM bulk_sends b JOIN bulk_send_rows r ON r.bulk_send_id = b.id
        WHERE b.workspace_id = $1 AND b.id = $2${inCallMode("b.test")} GROUP BY b.id`,
      [workspaceId, id],
    );
    return rows[0];
  },

  async idByOperationKey(db: Queryable, workspaceId: string, key: string): Promise<string | undefined> {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM bulk_sends WHERE workspace_id = $1 AND operation_key = $2${inCallMode("test")}`,
      [workspaceId, key],
    );
    return rows[0]?.id;
  },

  async page(
    db: Queryable,
    workspaceId: string,
    offset: number,
    limit: number,
  ): Promise<{ batches: BatchRow[]; total: number }> {
    const [{ rows: batches }, { rows: counted }] = await Promise.all([
      db.query<BatchRow>(
        `SELECT ${BATCH_COLUMNS} FROM bulk_sends b JOIN bulk_send_rows r ON r.bulk_send_id = b.id
          WHERE b.id IN (SELECT id FROM bulk_sends WHERE workspace_id = $1${inCallMode("test")} ORDER BY id DESC OFFSET $2 LIMIT $3)
          GROUP BY b.id ORDER BY b.id DESC`,
        [workspaceId, offset, limit],
      ),
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM bulk_sends WHERE workspace_id = $1${inCallMode("test")}`,
        [workspaceId],
      ),
    ]);
    return { batches, total: counted[0]?.total ?? 0 };
  },

  async rows(
    db: Queryable,
    batchId: string,
    status: RowStatus | undefined,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ rows: ResultRow[]; totalCount: number }> {
    return selectPage<ResultRow>(
      db,
      {
        from: "bulk_send_rows",
        columns: "line, status, request_id, error, recipients",
        where: "bulk_send_id = $1 AND ($2::text IS NULL OR status = $2)",
        orderBy: "line",
        params: [batchId, status ?? null],
        // A batch holds at most 1000 rows: one page may be the whole batch.
        maxPageSize: 1000,
      },
      pageIndex,
      pageSize,
    );
  },

  /** Cancels a running batch and its rows not yet taken up; false when it was not running. */
  async cancel(tx: Queryable, batchId: string): Promise<boolean> {
    const { rowCount } = await tx.query(
      "UPDATE bulk_sends SET status = 'cancelled', ended_at = now() WHERE id = $1 AND status = 'running'",
      [batchId],
    );
    if (rowCount === 0) return false;
    await tx.query(
      "UPDATE bulk_send_rows SET status = 'cancelled', done_at = now() WHERE bulk_send_id = $1 AND status = 'pending'",
      [batchId],
    );
    return true;
  },

  /** Records the request a row made; a row a cancellation reached meanwhile made it all the same. */
  async markSent(tx: Queryable, row: LeasedRow, requestId: string): Promise<void> {
    await tx.query(
      `UPDATE bulk_send_rows SET status = 'sent', request_id = $2, error = '', done_at = COALESCE(done_at, now())
        WHERE id = $1`,
      [row.id, requestId],
    );
  },

  /** A row that cannot be sent, and why, in the sender's words. */
  async markFailed(tx: Queryable, row: LeasedRow, error: string): Promise<void> {
    await tx.query(
      `UPDATE bulk_send_rows SET status = 'failed', error = $2, done_at = COALESCE(done_at, now())
        WHERE id = $1 AND status = 'pending'`,
      [row.id, error],
    );
  },

  /** What the sender reads of a row that is to be tried again. */
  async noteRetry(tx: Queryable, row: LeasedRow, error: string): Promise<void> {
    await tx.query("UPDATE bulk_send_rows SET error = $2 WHERE id = $1 AND status = 'pending'", [
      row.id,
      error,
    ]);
  },

  /** Completes the batch if it is running and has no pending row left. */
  async completeFinished(tx: Queryable, batchId: string): Promise<void> {
    await tx.query(
      `UPDATE bulk_sends b SET status = 'completed', ended_at = now()
        WHERE b.id = $1 AND b.status = 'running'
          AND NOT EXISTS (SELECT 1 FROM bulk_send_rows r WHERE r.bulk_send_id = b.id AND r.status = 'pending')`,
      [batchId],
    );
  },
};
