/** SQL for templates. */

import type { HeldClaim } from "@countersign/domain";
import { type Queryable, workspaceRows } from "@countersign/kit";
import type { FieldDraft, RoleDraft } from "./template-rules.js";

export interface TemplateRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  document_id: string;
  roles: RoleDraft[];
  fields: FieldDraft[];
  version: number;
  created_at: Date;
  updated_at: Date;
}

type Content = Pick<TemplateRow, "name" | "description" | "document_id" | "roles" | "fields">;

const COLUMNS =
  "id, workspace_id, name, description, document_id, roles, fields, version, created_at, updated_at";

/** A template's content as its five columns' parameters, in the order the statements name them. */
const contentValues = (c: Content) => [
  c.name,
  c.description,
  c.document_id,
  JSON.stringify(c.roles),
  JSON.stringify(c.fields),
];

const byWorkspace = workspaceRows<TemplateRow>("templates", COLUMNS);

export const store = {
  /** The document each of these templates uses (templates that do not exist use none). */
  async documentsUsed(db: Queryable, templateIds: string[]): Promise<HeldClaim[]> {
    const { rows } = await db.query<{ id: string; document_id: string }>(
      "SELECT id, document_id FROM templates WHERE id = ANY($1::uuid[])",
      [templateIds],
    );
    return rows.map((r) => ({ holderId: r.id, documentId: r.document_id }));
  },

  async insert(db: Queryable, row: Content & Pick<TemplateRow, "id" | "workspace_id">): Promise<TemplateRow> {
    const { rows } = await db.query<TemplateRow>(
      `INSERT INTO templates (id, workspace_id, name, description, document_id, roles, fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.id, row.workspace_id, ...contentValues(row)],
    );
    return rows[0] as TemplateRow;
  },

  get: byWorkspace.get,
  page: byWorkspace.page,

  /** The updated row, or undefined when the row is gone or changed since `version` was read. */
  async update(db: Queryable, current: TemplateRow, next: Content): Promise<TemplateRow | undefined> {
    const { rows } = await db.query<TemplateRow>(
      `UPDATE templates
          SET name = $4, description = $5, document_id = $6, roles = $7, fields = $8,
              version = version + 1, updated_at = now()
        WHERE workspace_id = $1 AND id = $2 AND version = $3
        RETURNING ${COLUMNS}`,
      [current.workspace_id, current.id, current.version, ...contentValues(next)],
    );
    return rows[0];
  },

  /** Changes name and description only; absent values keep what is stored. */
  async relabel(
    db: Queryable,
    workspaceId: string,
    id: string,
    changes: { name?: string; description?: string },
  ): Promise<TemplateRow | undefined> {
    const { rows } = await db.query<TemplateRow>(
      `UPDATE templates
          SET name = COALESCE($3, name), description = COALESCE($4, description),
              version = version + 1, updated_at = now()
        WHERE workspace_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [workspaceId, id, changes.name ?? null, changes.description ?? null],
    );
    return rows[0];
  },

  async delete(db: Queryable, workspaceId: string, id: string): Promise<TemplateRow | undefined> {
    const { rows } = await db.query<TemplateRow>(
      `DELETE FROM templates WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id],
    );
    return rows[0];
  },
};
