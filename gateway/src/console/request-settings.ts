/**
 * Settings → Requests behind a console session: an Organization Admin reads and replaces the
 * workspace's settings for requests (defaults, retention), as an API key does at `/request-settings`.
 */
import type { Router } from "express";
import { WorkspaceParams } from "../contract/console.js";
import { GET_SETTINGS, PUT_SETTINGS, replaceSettings, settingsJson } from "../routes/request-settings.js";
import { requireOrgAdmin } from "./team.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

export function requestSettingsConsoleRoutes({
  requests,
  auth,
  contract,
}: Pick<WorkspaceRoutesOptions, "requests" | "auth" | "contract">): Router {
  const routes = workspaceRouter(contract, requireOrgAdmin, FORM_BODY);
  routes.on(
    "get",
    "/request-settings",
    { ...GET_SETTINGS, tag: "Console: team", params: WorkspaceParams, problems: [...GET_SETTINGS.problems] },
    async ({ res }) => {
      res.json(
        settingsJson((await requests.getRequestSettings({ workspaceId: workspaceIdOf(res) })).settings),
      );
    },
  );
  routes.on(
    "put",
    "/request-settings",
    { ...PUT_SETTINGS, tag: "Console: team", params: WorkspaceParams, problems: [...PUT_SETTINGS.problems] },
    async ({ res, body }) => {
      res.json(await replaceSettings({ requests, auth }, workspaceIdOf(res), body));
    },
  );
  return routes.router;
}
