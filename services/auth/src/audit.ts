/**
 * The audit of a workspace's administration: each change to its members, invitations, roles, API
 * access, API keys and integrations is written in the transaction that makes it, with who made it — a person of
 * the console, or the operator through the CLI (no person: the RPC came without an actor).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type AuditEntry, AuditEntrySchema } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { type Queryable, uuidv7 } from "@countersign/kit";
import { requireUuid } from "./validation.js";

export type AuditAction =
  | "member.added"
  | "member.invited"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "invitation.revoked"
  | "workspace.renamed"
  | "workspace.api_access_enabled"
  | "workspace.api_access_disabled"
  | "api_key.created"
  | "api_key.deleted"
  | "integration.created"
  | "integration.deleted"
  | "integration.consent_granted"
  | "integration.consent_withdrawn"
  | "single_sign_on.changed"
  | "single_sign_on.refused";

/** How the operator (the CLI, acting with no person's session) is named in entries. */
export const OPERATOR = "operator";

export interface AuditChange {
  workspaceId: string;
  /** The person who made the change; empty for the operator. */
  actorUserId: string;
  /** Who acted when no person of ours did and it was not the operator: someone an identity provider named. */
  actorLabel?: string;
  action: AuditAction;
  target: string;
  detail?: string;
}

/** Writes an entry in the transaction `tx` that makes the change. */
export async function audit(tx: Queryable, change: AuditChange): Promise<void> {
  const actorId = change.actorUserId ? requireUuid(change.actorUserId, "actor") : null;
  const inserted = await tx.query(
    `INSERT INTO audit_entries (id, workspace_id, actor_id, actor_email, action, target, detail)
     SELECT $1, $2, $3, COALESCE((SELECT email FROM users WHERE id = $3), $7), $4, $5, $6
     WHERE $3::uuid IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = $3)`,
    [
      uuidv7(),
      change.workspaceId,
      actorId,
      change.action,
      change.target,
      change.detail ?? "",
      change.actorLabel ?? OPERATOR,
    ],
  );
  // An actor the gateway named but auth does not know is a caller's fault, not an anonymous change.
  if (inserted.rowCount === 0) throw new Error(`the audit's actor ${change.actorUserId} is not a person`);
}

const MAX_ENTRIES = 500;

export async function auditEntries(db: Queryable, workspaceId: string, limit: number): Promise<AuditEntry[]> {
  requireUuid(workspaceId, "workspace");
  const { rows } = await db.query<{
    id: string;
    created_at: Date;
    actor_email: string;
    action: string;
    target: string;
    detail: string;
  }>(
    `SELECT id, created_at, actor_email, action, target, detail FROM audit_entries
     WHERE workspace_id = $1 ORDER BY id DESC LIMIT $2`,
    [workspaceId, Math.min(Math.max(limit || 100, 1), MAX_ENTRIES)],
  );
  return rows.map((row) =>
    create(AuditEntrySchema, {
      id: row.id,
      time: timestampFromDate(row.created_at),
      actor: row.actor_email,
      action: row.action,
      target: row.target,
      detail: row.detail,
    }),
  );
}
