/**
 * Settings → Branding behind a console session: an Organization Admin reads and replaces how the
 * workspace's signing pages look, as an API key does at `/branding`.
 */
import express, { type Router } from "express";
import { LOGO_BODY_LIMIT } from "../contract/branding.js";
import { WorkspaceParams } from "../contract/console.js";
import {
  brandingActions,
  DELETE_LOGO,
  GET_BRANDING,
  PUT_BRANDING,
  PUT_LOGO,
  VERIFY_EMAIL_DOMAIN,
} from "../routes/branding.js";
import { requireOrgAdmin } from "./team.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

export function brandingConsoleRoutes({
  requests,
  contract,
  publicUrl,
}: Pick<WorkspaceRoutesOptions, "requests" | "contract" | "publicUrl">): Router {
  const routes = workspaceRouter(contract, requireOrgAdmin);
  const act = brandingActions(requests, publicUrl);
  const console = { tag: "Console: team", params: WorkspaceParams } as const;
  routes.on(
    "get",
    "/branding",
    { ...GET_BRANDING, ...console, problems: [...GET_BRANDING.problems] },
    async ({ res }) => {
      res.json(await act.get(workspaceIdOf(res)));
    },
  );
  routes.on(
    "put",
    "/branding",
    { ...PUT_BRANDING, ...console, problems: [...PUT_BRANDING.problems] },
    async ({ res, body }) => {
      res.json(await act.put(workspaceIdOf(res), body));
    },
    [FORM_BODY],
  );
  routes.on(
    "put",
    "/branding/logo",
    { ...PUT_LOGO, ...console, problems: [...PUT_LOGO.problems] },
    async ({ res, body }) => {
      res.json(await act.putLogo(workspaceIdOf(res), body));
    },
    [express.json({ limit: LOGO_BODY_LIMIT })],
  );
  routes.on(
    "post",
    "/branding/email-domain/verify",
    { ...VERIFY_EMAIL_DOMAIN, ...console, problems: [...VERIFY_EMAIL_DOMAIN.problems] },
    async ({ res }) => {
      res.json(await act.verifyEmailDomain(workspaceIdOf(res)));
    },
  );
  routes.on(
    "delete",
    "/branding/logo",
    { ...DELETE_LOGO, ...console, problems: [...DELETE_LOGO.problems] },
    async ({ res }) => {
      res.json(await act.deleteLogo(workspaceIdOf(res)));
    },
  );
  return routes.router;
}
