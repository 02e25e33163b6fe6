/** SQL for document metadata. */
import type { Queryable } from "@countersign/kit";

export interface DocumentRow {
  id: string;
  workspace_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  page_count: number;
  kind: "original" | "signed" | "certificate";
  blob_key: string;
  created_at: Date;
}

const COLUMNS =
  "id, workspace_id, filename, content_type, size_bytes, sha256, page_count, kind, blob_key, created_at";

export const store = {
  async insert(db: Queryable, row: Omit<DocumentRow, "created_at">): Promise<DocumentRow> {
    const { rows } = await db.query<DocumentRow>(
      `INSERT INTO documents (id, workspace_id, filename, content_type, size_bytes, sha256, page_count, kind, blob_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        row.id,
        row.workspace_id,
        row.filename,
        row.content_type,
        row.size_bytes,
        row.sha256,
        row.page_count,
        row.kind,
        row.blob_key,
      ],
    );
    return rows[0] as DocumentRow;
  },

  async get(db: Queryable, workspaceId: string, id: string): Promise<DocumentRow | undefined> {
    const { rows } = await db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return rows[0];
  },

  async page(db: Queryable, workspaceId: string, pageIndex: number, pageSize: number) {
    const [{ rows }, count] = [
      await db.query<DocumentRow>(
        `SELECT ${COLUMNS} FROM documents WHERE workspace_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
        [workspaceId, pageSize, pageIndex * pageSize],
      ),
      await db.query<{ n: number }>("SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1", [
        workspaceId,
      ]),
    ];
    return { rows, totalCount: count.rows[0]?.n ?? 0 };
  },

  async delete(db: Queryable, workspaceId: string, id: string): Promise<DocumentRow | undefined> {
    const { rows } = await db.query<DocumentRow>(
      `DELETE FROM documents WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id],
    );
    return rows[0];
  },
};
