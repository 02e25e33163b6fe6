/**
 * Who may call auth, and what. The gateway verifies keys, runs console sessions and Settings →
 * Developer; workspaces and their members are the operator's (the CLI) alone.
 */
import type { CallerPolicy } from "@countersign/kit";

export const AUTH_CALLERS: CallerPolicy = {
  gateway: [
    "GetWorkspace",
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
};
