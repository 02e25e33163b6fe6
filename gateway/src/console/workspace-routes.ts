/**
 * Everything the console does inside one workspace, under `/console/api/workspaces/{workspaceId}`:
 * a session, the CSRF header on state-changing calls and membership of the workspace are checked
 * once, before Settings → Developer and before the public API's routes in the console's family.
 * Webhook endpoints belong to Settings → Developer, so they are for Organization Admins of a
 * workspace with API access only, as the Developer tab's own routes are.
 */
import express, { type Router } from "express";
import { approvalRoutes } from "./approvals.js";
import { brandingConsoleRoutes } from "./branding.js";
import { csrfProtection } from "./csrf.js";
import { developerRoutes, requireDeveloperAccess } from "./developer.js";
import { embeddingSettingsConsoleRoutes } from "./embedding-settings.js";
import { integrationRoutes } from "./integrations.js";
import { requestSettingsConsoleRoutes } from "./request-settings.js";
import { requireMembership, requireSession } from "./session.js";
import { singleSignOnSettingsRoutes } from "./single-sign-on.js";
import { teamRoutes } from "./team.js";
import type { WorkspaceRoutesOptions } from "./workspace-router.js";

export function consoleWorkspaceRoutes({
  auth,
  requests,
  api,
  contract,
  verifier,
  publicUrl,
}: WorkspaceRoutesOptions): Router {
  const router = express.Router({ mergeParams: true });
  router.use(requireSession(auth, publicUrl), csrfProtection(publicUrl), requireMembership);
  router.use(developerRoutes({ auth, requests, contract, verifier, publicUrl }));
  router.use(embeddingSettingsConsoleRoutes({ requests, contract }));
  router.use(integrationRoutes({ auth, contract, verifier }));
  router.use(teamRoutes({ auth, contract }));
  router.use(requestSettingsConsoleRoutes({ requests, auth, contract }));
  router.use(brandingConsoleRoutes({ requests, contract, publicUrl }));
  router.use(singleSignOnSettingsRoutes({ auth, contract, publicUrl }));
  router.use(approvalRoutes({ requests, contract }));
  router.use("/webhook-endpoints", requireDeveloperAccess);
  router.use(api.consoleRouter);
  return router;
}
