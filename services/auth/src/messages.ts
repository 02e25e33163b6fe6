/** Rows to countersign.auth.v1 messages. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ApiKey,
  ApiKeySchema,
  type Member,
  MemberSchema,
  Role,
  type Workspace,
  WorkspaceSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { ApiKeyRow, MemberRow, WorkspaceRow } from "./store.js";

export function toWorkspace(row: WorkspaceRow): Workspace {
  return create(WorkspaceSchema, {
    id: row.id,
    name: row.name,
    apiAccessEnabled: row.api_access_enabled,
    createTime: timestampFromDate(row.created_at),
  });
}

export function toMember(row: MemberRow): Member {
  return create(MemberSchema, {
    userId: row.user_id,
    email: row.email,
    workspaceId: row.workspace_id,
    role: roleOf(row.role),
    createTime: timestampFromDate(row.created_at),
  });
}

export function roleOf(name: "org_admin" | "member"): Role {
  return name === "org_admin" ? Role.ORG_ADMIN : Role.MEMBER;
}

export function toApiKey(row: ApiKeyRow): ApiKey {
  return create(ApiKeySchema, {
    id: row.id,
    name: row.name,
    workspaceId: row.workspace_id,
    createTime: timestampFromDate(row.created_at),
    hint: row.hint,
    lastUseTime: row.last_used_at ? timestampFromDate(row.last_used_at) : undefined,
    expireTime: row.expires_at ? timestampFromDate(row.expires_at) : undefined,
    scopes: row.scopes,
    test: row.test,
  });
}

/** A role as the audit and e-mails say it. */
export function roleLabel(role: "org_admin" | "member"): string {
  return role === "org_admin" ? "Organization Admin" : "Member";
}

export function roleName(role: Role): "org_admin" | "member" | undefined {
  if (role === Role.ORG_ADMIN) return "org_admin";
  if (role === Role.MEMBER) return "member";
  return undefined;
}
