/**
 * Settings → Requests behind a console session: an Organization Admin reads and replaces the
 * workspace's settings for requests (defaults, retention), as an API key does at `/request-settings`.
 */
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import express, { type Response, type Router } from "express";
import { WorkspaceParams } from "../contract/console.js";
import type { Contract } from "../contract/operation.js";
import { DeclaredRouter } from "../declared-router.js";
import { CONSOLE_WORKSPACE_BASE } from "../public-api.js";
import { GET_SETTINGS, PUT_SETTINGS, replaceSettings, settingsJson } from "../routes/request-settings.js";
import { requireOrgAdmin } from "./team.js";

export function requestSettingsConsoleRoutes({
  requests,
  auth,
  contract,
}: {
  requests: Client<typeof RequestsService>;
  auth: Client<typeof AuthService>;
  contract: Contract;
}): Router {
  const routes = new DeclaredRouter(contract, CONSOLE_WORKSPACE_BASE, "consoleSession", [
    requireOrgAdmin,
    express.json({ limit: 16 * 1024 }),
  ]);
  const workspaceId = (res: Response) => res.locals.workspaceId as string;
  routes.on(
    "get",
    "/request-settings",
    { ...GET_SETTINGS, tag: "Console: team", params: WorkspaceParams, problems: [...GET_SETTINGS.problems] },
    async ({ res }) => {
      res.json(settingsJson((await requests.getRequestSettings({ workspaceId: workspaceId(res) })).settings));
    },
  );
  routes.on(
    "put",
    "/request-settings",
    { ...PUT_SETTINGS, tag: "Console: team", params: WorkspaceParams, problems: [...PUT_SETTINGS.problems] },
    async ({ res, body }) => {
      res.json(await replaceSettings({ requests, auth }, workspaceId(res), body));
    },
  );
  return routes.router;
}
