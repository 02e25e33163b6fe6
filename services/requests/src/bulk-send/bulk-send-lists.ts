/**
 * Bulk send lists: rows kept under a name to be sent later, as DocuSign's bulk send lists are. A
 * list is only data — its rows are checked against a template when a batch is started from it
 * (bulk-sends.ts) — so keeping one checks its size and names alone. Its rows are stored as one
 * protobuf, exactly as they will be sent.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Actor,
  type BulkSendList,
  BulkSendListSchema,
  type BulkSendRow,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  type Database,
  type FieldViolation,
  isUuid,
  notFound,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { BULK_LIMITS, creatorOf } from "./bulk-sends.js";

interface ListRow {
  id: string;
  name: string;
  rows?: Uint8Array;
  row_count: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

function listViolations(name: string, rows: BulkSendRow[]): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (!name.trim()) violations.push({ path: "name", message: "is required" });
  else if (name.length > BULK_LIMITS.nameLength) {
    violations.push({ path: "name", message: `must be at most ${BULK_LIMITS.nameLength} characters` });
  }
  if (rows.length === 0) violations.push({ path: "rows", message: "must hold at least one row" });
  if (rows.length > BULK_LIMITS.rows) {
    violations.push({
      path: "rows",
      message: `holds ${rows.length} rows; a list takes at most ${BULK_LIMITS.rows}`,
    });
  }
  return violations;
}

/** The rows as kept: numbered by their place, from 1. */
function numbered(rows: BulkSendRow[]): Uint8Array {
  return toBinary(
    BulkSendListSchema,
    create(BulkSendListSchema, { rows: rows.map((row, i) => ({ ...row, line: i + 1 })) }),
  );
}

function toList(row: ListRow): BulkSendList {
  return create(BulkSendListSchema, {
    id: row.id,
    name: row.name,
    rows: row.rows ? fromBinary(BulkSendListSchema, row.rows).rows : [],
    rowCount: row.row_count,
    createdBy: row.created_by,
    createTime: timestampFromDate(row.created_at),
    updateTime: timestampFromDate(row.updated_at),
  });
}

const COLUMNS = "id, name, row_count, created_by, created_at, updated_at";

export class BulkSendLists {
  constructor(private readonly db: Database) {}

  async create(workspaceId: string, name: string, rows: BulkSendRow[], actor: Actor | undefined) {
    const violations = listViolations(name, rows);
    if (violations.length > 0) throw validationError(violations, "the bulk send list is not valid");
    const id = uuidv7();
    await this.db.query(
      `INSERT INTO bulk_send_lists (id, workspace_id, name, rows, row_count, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, workspaceId, name.trim(), numbered(rows), rows.length, creatorOf(actor)],
    );
    return this.get(workspaceId, id);
  }

  async get(workspaceId: string, id: string): Promise<BulkSendList> {
    const { rows } = isUuid(id)
      ? await this.db.query<ListRow>(
          `SELECT ${COLUMNS}, rows FROM bulk_send_lists WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, id],
        )
      : { rows: [] };
    const found = rows[0];
    if (!found) throw notFound("bulk send list");
    return toList(found);
  }

  async list(workspaceId: string): Promise<BulkSendList[]> {
    const { rows } = await this.db.query<ListRow>(
      `SELECT ${COLUMNS} FROM bulk_send_lists WHERE workspace_id = $1 ORDER BY id DESC`,
      [workspaceId],
    );
    return rows.map(toList);
  }

  async update(workspaceId: string, id: string, name: string, rows: BulkSendRow[]): Promise<BulkSendList> {
    const violations = listViolations(name, rows);
    if (violations.length > 0) throw validationError(violations, "the bulk send list is not valid");
    const { rowCount } = isUuid(id)
      ? await this.db.query(
          `UPDATE bulk_send_lists SET name = $3, rows = $4, row_count = $5, updated_at = now()
            WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, id, name.trim(), numbered(rows), rows.length],
        )
      : { rowCount: 0 };
    if (rowCount === 0) throw notFound("bulk send list");
    return this.get(workspaceId, id);
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    const { rowCount } = isUuid(id)
      ? await this.db.query("DELETE FROM bulk_send_lists WHERE workspace_id = $1 AND id = $2", [
          workspaceId,
          id,
        ])
      : { rowCount: 0 };
    if (rowCount === 0) throw notFound("bulk send list");
  }
}
