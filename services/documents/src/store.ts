/** SQL for document metadata. */
import { callIsTest, type Queryable, workspaceRows } from "@countersign/kit";

export interface DocumentRow {
  id: string;
  workspace_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  page_count: number;
  kind: "original" | "signed" | "certificate" | "attachment";
  blob_key: string;
  page_sizes: [number, number][] | null;
  /** What was taken out of an original to make it safe to sign, in words. */
  removed: string[];
  /** The file the PDF was converted from, kept beside it; null for a PDF uploaded as one. */
  source_filename: string | null;
  source_content_type: string | null;
  source_size_bytes: number | null;
  source_sha256: string | null;
  source_blob_key: string | null;
  created_at: Date;
}

const SOURCE_COLUMNS =
  "source_filename, source_content_type, source_size_bytes, source_sha256, source_blob_key";

const COLUMNS = `id, workspace_id, filename, content_type, size_bytes, sha256, page_count, kind, blob_key, page_sizes, removed, ${SOURCE_COLUMNS}, created_at`;

export interface ClaimRow {
  document_id: string;
  workspace_id: string;
  holder: string;
  created_at: Date;
}

/** Postgres's code for a foreign key violation: a claim on a missing document, a delete of a claimed one. */
const FOREIGN_KEY_VIOLATION = "23503";

function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string }).code === FOREIGN_KEY_VIOLATION;
}

const byWorkspace = workspaceRows<DocumentRow>("documents", COLUMNS);
/** Lists keep to the caller's mode; a read by id does not (a live template's document serves tests too). */
const listedInMode = workspaceRows<DocumentRow>("documents", COLUMNS, { modeColumn: "test" });

export const store = {
  /** The stored row; undefined when a document with this id exists already. */
  async insert(db: Queryable, row: Omit<DocumentRow, "created_at">): Promise<DocumentRow | undefined> {
    const { rows } = await db.query<DocumentRow>(
      `INSERT INTO documents (id, workspace_id, filename, content_type, size_bytes, sha256, page_count, kind, blob_key, page_sizes, removed, ${SOURCE_COLUMNS}, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
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
        JSON.stringify(row.page_sizes),
        row.removed,
        row.source_filename,
        row.source_content_type,
        row.source_size_bytes,
        row.source_sha256,
        row.source_blob_key,
        callIsTest(),
      ],
    );
    return rows[0];
  },

  get: byWorkspace.get,
  page: listedInMode.page,

  /** The deleted row, undefined when there is none, or "claimed" when something still uses it. */
  async delete(db: Queryable, workspaceId: string, id: string): Promise<DocumentRow | "claimed" | undefined> {
    try {
      const { rows } = await db.query<DocumentRow>(
        `DELETE FROM documents WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [workspaceId, id],
      );
      return rows[0];
    } catch (err) {
      if (isForeignKeyViolation(err)) return "claimed";
      throw err;
    }
  },

  async setPageSizes(db: Queryable, id: string, pageSizes: [number, number][]): Promise<void> {
    await db.query("UPDATE documents SET page_sizes = $2 WHERE id = $1", [id, JSON.stringify(pageSizes)]);
  },

  /** Records the claim; false when the document is gone (deleted since it was read). */
  async claim(db: Queryable, documentId: string, holder: string): Promise<boolean> {
    try {
      await db.query(
        "INSERT INTO document_claims (document_id, holder) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        [documentId, holder],
      );
      return true;
    } catch (err) {
      if (isForeignKeyViolation(err)) return false;
      throw err;
    }
  },

  async release(db: Queryable, workspaceId: string, documentId: string, holder: string): Promise<void> {
    await db.query(
      `DELETE FROM document_claims c USING documents d
        WHERE c.document_id = d.id AND d.workspace_id = $1 AND c.document_id = $2 AND c.holder = $3`,
      [workspaceId, documentId, holder],
    );
  },

  /** Claims by holder prefix made before a time, ordered by holder and document, after a position. */
  async claimsPage(
    db: Queryable,
    holderPrefix: string,
    before: Date,
    after: { holder: string; documentId: string } | undefined,
    limit: number,
  ): Promise<ClaimRow[]> {
    const { rows } = await db.query<ClaimRow>(
      `SELECT c.document_id, d.workspace_id, c.holder, c.created_at
         FROM document_claims c JOIN documents d ON d.id = c.document_id
        WHERE starts_with(c.holder, $1) AND c.created_at < $2
          AND (c.holder, c.document_id) > ($3, $4::uuid)
        ORDER BY c.holder, c.document_id LIMIT $5`,
      [
        holderPrefix,
        before,
        after?.holder ?? "",
        after?.documentId ?? "00000000-0000-0000-0000-000000000000",
        limit,
      ],
    );
    return rows;
  },

  async holders(db: Queryable, documentId: string): Promise<string[]> {
    const { rows } = await db.query<{ holder: string }>(
      "SELECT holder FROM document_claims WHERE document_id = $1 ORDER BY created_at LIMIT 5",
      [documentId],
    );
    return rows.map((r) => r.holder);
  },
};
