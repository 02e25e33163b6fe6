/**
 * SQL for workspaces, people, sessions and API keys. Rows come back as plain records; the domain
 * modules turn them into messages.
 */
import type { Queryable } from "@countersign/kit";

export interface WorkspaceRow {
  id: string;
  name: string;
  api_access_enabled: boolean;
  created_at: Date;
}

export interface MemberRow {
  workspace_id: string;
  user_id: string;
  email: string;
  role: "org_admin" | "member";
  created_at: Date;
}

/** A session's person, and the workspace whose single sign-on opened it (null: a password log-in). */
export interface SessionUser {
  id: string;
  email: string;
  single_sign_on_workspace_id: string | null;
  created_at: Date;
}

export interface UserRow {
  id: string;
  email: string;
  /** Null for a person who joined through single sign-on and never chose a password. */
  password_hash: string | null;
}

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  created_at: Date;
  hint: string;
  last_used_at: Date | null;
  expires_at: Date | null;
  /** None for full access. */
  scopes: string[];
  test: boolean;
}

const API_KEY_COLUMNS = "id, workspace_id, name, created_at, hint, last_used_at, expires_at, scopes, test";

const WORKSPACE_COLUMNS = "id, name, api_access_enabled, created_at";
const MEMBER_COLUMNS = "m.workspace_id, m.user_id, u.email, m.role, m.created_at";

export const store = {
  async insertWorkspace(db: Queryable, row: Omit<WorkspaceRow, "created_at">): Promise<WorkspaceRow> {
    const { rows } = await db.query<WorkspaceRow>(
      `INSERT INTO workspaces (id, name, api_access_enabled) VALUES ($1, $2, $3) RETURNING ${WORKSPACE_COLUMNS}`,
      [row.id, row.name, row.api_access_enabled],
    );
    return rows[0] as WorkspaceRow;
  },

  async workspace(db: Queryable, id: string, lock?: { forUpdate: true }): Promise<WorkspaceRow | undefined> {
    const { rows } = await db.query<WorkspaceRow>(
      `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
      [id],
    );
    return rows[0];
  },

  async workspaces(db: Queryable, ids?: readonly string[]): Promise<WorkspaceRow[]> {
    const { rows } = ids
      ? await db.query<WorkspaceRow>(
          `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`,
          [ids],
        )
      : await db.query<WorkspaceRow>(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces ORDER BY created_at, id`);
    return rows;
  },

  async updateWorkspace(
    db: Queryable,
    id: string,
    change: { name?: string; apiAccessEnabled?: boolean },
  ): Promise<WorkspaceRow | undefined> {
    const { rows } = await db.query<WorkspaceRow>(
      `UPDATE workspaces SET name = COALESCE($2, name), api_access_enabled = COALESCE($3, api_access_enabled)
       WHERE id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
      [id, change.name ?? null, change.apiAccessEnabled ?? null],
    );
    return rows[0];
  },

  async setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
    await db.query("UPDATE users SET password_hash = $2 WHERE id = $1", [userId, passwordHash]);
  },

  async userByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>("SELECT id, email, password_hash FROM users WHERE email = $1", [
      email,
    ]);
    return rows[0];
  },

  async insertUser(db: Queryable, row: UserRow): Promise<void> {
    await db.query("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)", [
      row.id,
      row.email,
      row.password_hash,
    ]);
  },

  async upsertMembership(
    db: Queryable,
    workspaceId: string,
    userId: string,
    role: string,
  ): Promise<MemberRow> {
    await db.query(
      `INSERT INTO memberships (workspace_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [workspaceId, userId, role],
    );
    const { rows } = await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.workspace_id = $1 AND m.user_id = $2`,
      [workspaceId, userId],
    );
    return rows[0] as MemberRow;
  },

  async member(db: Queryable, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    const { rows } = await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.workspace_id = $1 AND m.user_id = $2`,
      [workspaceId, userId],
    );
    return rows[0];
  },

  async deleteMembership(db: Queryable, workspaceId: string, userId: string): Promise<void> {
    await db.query("DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2", [workspaceId, userId]);
  },

  /** The workspace's Organization Admins, locked: two admins demoting each other at once cannot leave none. */
  async lockAdmins(db: Queryable, workspaceId: string): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      `SELECT user_id FROM memberships WHERE workspace_id = $1 AND role = 'org_admin' FOR UPDATE`,
      [workspaceId],
    );
    return rows.map((row) => row.user_id);
  },

  async deleteSessions(db: Queryable, userId: string): Promise<void> {
    await db.query("DELETE FROM sessions WHERE user_id = $1", [userId]);
  },

  async members(db: Queryable, by: { workspaceId: string } | { userId: string }): Promise<MemberRow[]> {
    const [column, value] =
      "workspaceId" in by ? ["m.workspace_id", by.workspaceId] : ["m.user_id", by.userId];
    const { rows } = await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE ${column} = $1 ORDER BY m.created_at, u.email`,
      [value],
    );
    return rows;
  },

  /** Stores a session; when it was created, by the database's clock. */
  async insertSession(
    db: Queryable,
    session: { tokenHash: Buffer; userId: string; expiresAt: Date; singleSignOnWorkspaceId?: string },
  ): Promise<Date> {
    const { rows } = await db.query<{ created_at: Date }>(
      `INSERT INTO sessions (token_hash, user_id, expires_at, single_sign_on_workspace_id)
       VALUES ($1, $2, $3, $4) RETURNING created_at`,
      [session.tokenHash, session.userId, session.expiresAt, session.singleSignOnWorkspaceId ?? null],
    );
    return (rows[0] as { created_at: Date }).created_at;
  },

  async sessionUser(db: Queryable, tokenHash: Buffer): Promise<SessionUser | undefined> {
    const { rows } = await db.query<SessionUser>(
      `SELECT u.id, u.email, s.single_sign_on_workspace_id, s.created_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
    );
    return rows[0];
  },

  /**
   * Whether a session single sign-on opened at `openedAt` still counts: single sign-on is on and
   * its provider has not changed since.
   */
  async singleSignOnStands(db: Queryable, workspaceId: string, openedAt: Date): Promise<boolean> {
    const { rowCount } = await db.query(
      "SELECT 1 FROM single_sign_on WHERE workspace_id = $1 AND enabled AND provider_changed_at <= $2",
      [workspaceId, openedAt],
    );
    return rowCount > 0;
  },

  /** Of these workspaces, the ones whose members may not log in with a password. */
  async passwordLoginOff(db: Queryable, workspaceIds: string[]): Promise<Set<string>> {
    if (workspaceIds.length === 0) return new Set();
    const { rows } = await db.query<{ workspace_id: string }>(
      `SELECT workspace_id FROM single_sign_on
       WHERE workspace_id = ANY($1::uuid[]) AND NOT password_login_enabled`,
      [workspaceIds],
    );
    return new Set(rows.map((r) => r.workspace_id));
  },

  async deleteSession(db: Queryable, tokenHash: Buffer): Promise<void> {
    await db.query("DELETE FROM sessions WHERE token_hash = $1 OR expires_at < now()", [tokenHash]);
  },

  async insertApiKey(
    db: Queryable,
    row: Omit<ApiKeyRow, "created_at" | "last_used_at">,
    secretHash: Buffer,
  ): Promise<ApiKeyRow> {
    const { rows } = await db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, workspace_id, name, secret_hash, hint, expires_at, scopes, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${API_KEY_COLUMNS}`,
      [row.id, row.workspace_id, row.name, secretHash, row.hint, row.expires_at, row.scopes, row.test],
    );
    return rows[0] as ApiKeyRow;
  },

  async apiKeys(db: Queryable, workspaceId: string): Promise<ApiKeyRow[]> {
    const { rows } = await db.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE workspace_id = $1 ORDER BY id DESC`,
      [workspaceId],
    );
    return rows;
  },

  /** Deletes a key; answers its name and hint, or undefined when the workspace has no such key. */
  async deleteApiKey(
    db: Queryable,
    workspaceId: string,
    id: string,
  ): Promise<{ name: string; hint: string } | undefined> {
    const { rows } = await db.query<{ name: string; hint: string }>(
      "DELETE FROM api_keys WHERE workspace_id = $1 AND id = $2 RETURNING name, hint",
      [workspaceId, id],
    );
    return rows[0];
  },

  async apiKeyBySecretHash(
    db: Queryable,
    secretHash: Buffer,
  ): Promise<(ApiKeyRow & { api_access_enabled: boolean; workspace_name: string }) | undefined> {
    const { rows } = await db.query<ApiKeyRow & { api_access_enabled: boolean; workspace_name: string }>(
      `SELECT k.id, k.workspace_id, k.name, k.created_at, k.hint, k.last_used_at, k.expires_at, k.scopes,
              k.test, w.api_access_enabled, w.name AS workspace_name
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.secret_hash = $1`,
      [secretHash],
    );
    return rows[0];
  },
};
