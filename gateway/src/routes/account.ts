/** The caller's own account (workspace): GET /api/v1/account and GET /v1/accounts/{accountId}. */
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { Account, AccountParams } from "../contract/account.js";
import { iso } from "../json-time.js";
import { ok, type PublicApi } from "../public-api.js";

export function accountRoutes(api: PublicApi, auth: Client<typeof AuthService>): void {
  const spec = {
    summary: "Get the key's account",
    tag: "Account",
    scope: null,
    answers: { 200: { description: "The account (workspace).", schema: Account } },
    problems: [401, 403, 404, 429, 500, 503],
  } as const;
  const describe = async ({ workspaceId }: { workspaceId: string }) => {
    const { workspace } = await auth.getWorkspace({ workspaceId });
    if (!workspace) throw new Error("auth answered without a workspace");
    return ok({ id: workspace.id, name: workspace.name, createdAt: iso(workspace.createTime) });
  };
  api.single("get", "/api/v1/account", { ...spec, problems: [...spec.problems] }, describe);
  // The path's account must be the key's: any other answers 404 (see PublicApi).
  api.single(
    "get",
    "/v1/accounts/:accountId",
    { ...spec, problems: [...spec.problems], params: AccountParams },
    describe,
  );
}
