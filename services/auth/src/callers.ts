/**
 * Who may call auth, and what. The gateway verifies keys and access tokens, runs console sessions
 * (those single sign-on opens too), Settings → Developer (integrations too), DocuSign's OAuth
 * endpoints and an Organization Admin's running of their workspace's team, API access and single
 * sign-on; creating workspaces and adding members with a password are the operator's (the CLI) alone.
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
    "GetSingleSignOn",
    "UpdateSingleSignOn",
    "FindSingleSignOn",
    "BeginSingleSignOn",
    "FinishSingleSignOn",
    "CreateApiKey",
    "ListApiKeys",
    "DeleteApiKey",
    "VerifyApiKey",
    "CreateIntegration",
    "ListIntegrations",
    "DeleteIntegration",
    "DescribeConsent",
    "GrantConsent",
    "WithdrawConsent",
    "ExchangeJwtAssertion",
    "GetUserInfo",
    "ListRecentErrors",
    "GetApiUsage",
    "ClaimIdempotencyKey",
    "CompleteIdempotencyKey",
    "ReleaseIdempotencyKey",
  ],
  operator: "*",
});
