/**
 * Settings → Developer → Embedding behind a console session: an Organization Admin of a workspace
 * with API access reads and replaces the origins that may frame its signing page, as an API key
 * does at `/embedding-settings`.
 */
import type { Router } from "express";
import { WorkspaceParams } from "../contract/console.js";
import { embeddingJson, GET_EMBEDDING, PUT_EMBEDDING } from "../routes/embedding-settings.js";
import { requireDeveloperAccess } from "./developer.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

export function embeddingSettingsConsoleRoutes({
  requests,
  contract,
}: Pick<WorkspaceRoutesOptions, "requests" | "contract">): Router {
  const routes = workspaceRouter(contract, requireDeveloperAccess, FORM_BODY);
  const console = { tag: "Console: developer", params: WorkspaceParams } as const;
  routes.on(
    "get",
    "/embedding-settings",
    { ...GET_EMBEDDING, ...console, problems: [...GET_EMBEDDING.problems] },
    async ({ res }) => {
      const { settings } = await requests.getEmbeddingSettings({ workspaceId: workspaceIdOf(res) });
      res.json(embeddingJson(settings));
    },
  );
  routes.on(
    "put",
    "/embedding-settings",
    { ...PUT_EMBEDDING, ...console, problems: [...PUT_EMBEDDING.problems] },
    async ({ res, body }) => {
      const { settings } = await requests.updateEmbeddingSettings({
        workspaceId: workspaceIdOf(res),
        settings: body,
      });
      res.json(embeddingJson(settings));
    },
  );
  return routes.router;
}
