/** The caller's own account (workspace): GET /api/v1/account and GET /v1/accounts/{accountId}. */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { Request, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";
import type { PublicApi } from "../public-api.js";

export function accountRoutes(api: PublicApi, auth: Client<typeof AuthService>): void {
  const describe = async (res: Response, workspaceId: string) => {
    const { workspace } = await auth.getWorkspace({ workspaceId });
    res.json({
      id: workspace?.id,
      name: workspace?.name,
      createdAt: workspace?.createTime ? timestampDate(workspace.createTime).toISOString() : undefined,
    });
  };
  api.single("get", "/api/v1/account", (_req: Request, res: Response) =>
    describe(res, (res.locals.caller as Caller).workspaceId),
  );
  api.single("get", "/v1/accounts/:accountId", (req: Request, res: Response) => {
    const caller = res.locals.caller as Caller;
    // Another workspace's account looks exactly like one that does not exist.
    if (req.params.accountId !== caller.workspaceId) {
      throw new ApiProblem("not_found", "no such account, or this key does not belong to it");
    }
    return describe(res, caller.workspaceId);
  });
}
