/**
 * Who may call auth, and what. The gateway verifies keys, runs console sessions and Settings →
 * Developer, and an Organization Admin's running of their workspace's team and API access; creating
 * workspaces and adding members with a password are the operator's (the CLI) alone.
 */
import { callersOf } from "@countersign/domain";

export const AUTH_CALLERS = callersOf({
  gateway: [
    "GetWorkspace",
    "UpdateWorkspace",
    "ListMembers",
    "UpdateMember",
    "RemoveMember",
    "InviteMember",
    "ListInvitations",
    "RevokeInvitation",
    "GetInvitation",
    "AcceptInvitation",
    "ListAuditEntries",
    "RequestPasswordReset",
    "ResetPassword",
    "CreateSession",
    "GetSession",
    "DeleteSession",
    "CreateApiKey",
    "ListApiKeys",
    "DeleteApiKey",
    "VerifyApiKey",
    "ListRecentErrors",
    "GetApiUsage",
    "ClaimIdempotencyKey",
    "CompleteIdempotencyKey",
    "ReleaseIdempotencyKey",
  ],
  operator: "*",
});
