/**
 * Console log-in through a workspace's OpenID Connect identity provider. The browser's part is two
 * navigations: `/console/sso/start` sends it to the provider with a state that a cookie binds to
 * this browser, and `/console/sso/callback/{workspaceId}` hands what the provider sent back, with that cookie's
 * state, to auth — the relying party, which holds the client secret, the nonce and the PKCE
 * verifier and checks the answer — then sets the session cookie. A refusal lands on the log-in
 * page with a word for why (`?sso_error=`); the details go to the workspace's audit, not to the
 * browser. Settings → Single sign-on reads and saves the workspace's settings.
 */
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  Role,
  type SingleSignOn,
  SingleSignOnRefusal,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { Logger } from "@countersign/kit";
import express, { type Request, type Response, type Router } from "express";
import {
  SingleSignOnChoices,
  SingleSignOnInput,
  SingleSignOnSearch,
  SingleSignOnSettings,
  WorkspaceParams,
} from "../contract/console.js";
import type { Contract } from "../contract/operation.js";
import { id } from "../contract/values.js";
import { readCookie, setCookie } from "../cookies.js";
import { DeclaredRouter } from "../declared-router.js";
import { isoOrNull } from "../json-time.js";
import { type RateLimiter, takeForAddress } from "../rate-limiter.js";
import { actorOf } from "./session.js";
import { sessionCookie } from "./session-cookie.js";
import { requireOrgAdmin } from "./team.js";
import { FORM_BODY, workspaceIdOf, workspaceRouter } from "./workspace-router.js";

export const SSO_BASE = "/console/sso";
const STATE_MAX_AGE_SECONDS = 10 * 60;

/** The words the log-in page knows for a refused log-in: no detail reaches the browser. */
const SSO_ERRORS: Record<SingleSignOnRefusal, string> = {
  [SingleSignOnRefusal.UNSPECIFIED]: "failed",
  [SingleSignOnRefusal.EXPIRED]: "expired",
  [SingleSignOnRefusal.PROVIDER_ERROR]: "provider",
  [SingleSignOnRefusal.ANSWER_REJECTED]: "rejected",
  [SingleSignOnRefusal.NOT_ALLOWED]: "not_allowed",
  [SingleSignOnRefusal.UNAVAILABLE]: "unavailable",
};

/**
 * The URLs a workspace's single sign-on has at this deployment. Each workspace has a redirect URI
 * of its own, so that a code can come back only to the workspace whose client it was issued to.
 */
export function singleSignOnUrls(publicUrl: string, workspaceId: string) {
  const base = publicUrl.replace(/\/$/, "");
  const id = encodeURIComponent(workspaceId);
  return {
    redirectUri: `${base}${SSO_BASE}/callback/${id}`,
    startUrl: `${base}${SSO_BASE}/start?workspace=${id}`,
  };
}

/**
 * The state cookie rides the provider's redirect back, a cross-site top-level GET: SameSite=Lax lets
 * it, Strict would not. Its path keeps it off every other request.
 */
function stateCookie(publicUrl: string) {
  const secure = new URL(publicUrl).protocol === "https:";
  const name = secure ? "__Secure-cs_sso_state" : "cs_sso_state";
  const options = { httpOnly: true, secure, path: SSO_BASE, sameSite: "lax" as const };
  return {
    read: (req: Request) => readCookie(req, name),
    write: (res: Response, state: string) =>
      setCookie(res, name, state, { ...options, maxAgeSeconds: STATE_MAX_AGE_SECONDS }),
    clear: (res: Response) => setCookie(res, name, "", { ...options, maxAgeSeconds: 0 }),
  };
}

export interface SingleSignOnRoutesOptions {
  auth: Client<typeof AuthService>;
  contract: Contract;
  publicUrl: string;
  /** Starting a log-in writes a row; finding workspaces by domain answers names: both per address. */
  limiter: RateLimiter;
  logger: Logger;
}

/** The browser's navigations, under /console/sso. */
export function singleSignOnLogInRoutes({
  auth,
  publicUrl,
  limiter,
  logger,
}: SingleSignOnRoutesOptions): Router {
  const router = express.Router();
  const state = stateCookie(publicUrl);
  const session = sessionCookie(publicUrl);
  const consoleUrl = (path: string) => `${publicUrl.replace(/\/$/, "")}/console${path}`;
  const refused = (res: Response, word: string) => res.redirect(303, consoleUrl(`/?sso_error=${word}`));

  router.get("/start", async (req, res) => {
    res.locals.route = `${SSO_BASE}/start`;
    res.setHeader("Cache-Control", "no-store");
    if (!limiter.take(req.ip ?? "unknown").allowed) return refused(res, "busy");
    const workspaceId = id().safeParse(req.query.workspace);
    if (!workspaceId.success) return refused(res, "unavailable");
    // Another site may link here, but may not start a log-in by itself (a log-in CSRF would land a
    // person in someone else's session): such a visit is asked on the log-in page first.
    const site = req.get("sec-fetch-site");
    if (site !== undefined && site !== "same-origin" && site !== "none") {
      return res.redirect(303, consoleUrl(`/?sso_workspace=${workspaceId.data}`));
    }
    try {
      const { redirectUri } = singleSignOnUrls(publicUrl, workspaceId.data);
      const begun = await auth.beginSingleSignOn({ workspaceId: workspaceId.data, redirectUri });
      state.write(res, begun.state);
      res.redirect(303, begun.authorizationUrl);
    } catch (error) {
      logger.warn({ err: error, workspaceId: workspaceId.data }, "single sign-on could not start");
      refused(res, "unavailable");
    }
  });

  router.get("/callback/:workspaceId", async (req, res) => {
    res.locals.route = `${SSO_BASE}/callback/{workspaceId}`;
    res.setHeader("Cache-Control", "no-store");
    state.clear(res);
    let finished: Awaited<ReturnType<typeof auth.finishSingleSignOn>>;
    try {
      finished = await auth.finishSingleSignOn({
        state: state.read(req) ?? "",
        callbackUrl: req.originalUrl,
        clientAddress: req.ip ?? "",
      });
    } catch (error) {
      // A person mid-log-in gets the log-in page with a sentence, not a problem document.
      logger.warn({ err: error }, "single sign-on could not finish");
      return refused(res, "unavailable");
    }
    if (finished.refusal !== SingleSignOnRefusal.UNSPECIFIED || !finished.token) {
      return refused(res, SSO_ERRORS[finished.refusal]);
    }
    session.write(res, finished.token);
    res.redirect(303, consoleUrl(`/w/${finished.workspaceId}/requests`));
  });
  return router;
}

/** Finding a workspace's single sign-on from the log-in page, under /console/api. */
export function singleSignOnSearchRoutes({
  auth,
  contract,
  publicUrl,
  limiter,
}: Omit<SingleSignOnRoutesOptions, "logger">): Router {
  const routes = new DeclaredRouter(contract, "/console/api", "none");
  routes.on(
    "post",
    "/single-sign-on/search",
    {
      summary: "Find single sign-on for an e-mail address",
      description:
        "The workspaces with single sign-on on whose allowed e-mail domains include the address's domain, each with the link that starts a log-in. No session needed; limited per client address.",
      tag: "Console: session",
      body: SingleSignOnSearch,
      answers: {
        200: { description: "The workspaces, by name; none is an empty list.", schema: SingleSignOnChoices },
      },
      problems: [400, 413, 415, 422, 429, 500, 503],
    },
    async ({ req, res, body }) => {
      takeForAddress(limiter, req, () => "too many searches; wait a little");
      const { workspaces } = await auth.findSingleSignOn({ email: body.email });
      res.json({
        items: workspaces.map((w) => ({
          workspaceId: w.id,
          name: w.name,
          startUrl: singleSignOnUrls(publicUrl, w.id).startUrl,
        })),
      });
    },
    [express.json({ limit: 4 * 1024 })],
  );
  return routes.router;
}

/** Settings → Single sign-on, for Organization Admins, under the console's workspace base. */
export function singleSignOnSettingsRoutes({
  auth,
  contract,
  publicUrl,
}: Omit<SingleSignOnRoutesOptions, "limiter" | "logger">): Router {
  const routes = workspaceRouter(contract, requireOrgAdmin, FORM_BODY);
  const answer = (settings: SingleSignOn | undefined, id: string) => settingsJson(settings, publicUrl, id);
  routes.on(
    "get",
    "/single-sign-on",
    {
      summary: "Read the workspace's single sign-on",
      tag: "Console: team",
      params: WorkspaceParams,
      answers: {
        200: {
          description: "The settings; the client secret only as whether one is set.",
          schema: SingleSignOnSettings,
        },
      },
      problems: [401, 403, 404, 500, 503],
    },
    async ({ res }) => {
      const { singleSignOn } = await auth.getSingleSignOn({ workspaceId: workspaceIdOf(res) });
      res.json(answer(singleSignOn, workspaceIdOf(res)));
    },
  );
  routes.on(
    "put",
    "/single-sign-on",
    {
      summary: "Replace the workspace's single sign-on",
      description:
        "The issuer's discovery document is read before anything is saved: an issuer that does not answer, or names another issuer, is 409 with the reason. Switching password log-in off needs single sign-on on and a session that logged in through it (409 otherwise).",
      tag: "Console: team",
      params: WorkspaceParams,
      body: SingleSignOnInput,
      answers: { 200: { description: "The settings as saved.", schema: SingleSignOnSettings } },
      problems: [400, 401, 403, 404, 409, 413, 415, 422, 500, 503],
    },
    async ({ res, body }) => {
      const { singleSignOn } = await auth.updateSingleSignOn({
        workspaceId: workspaceIdOf(res),
        enabled: body.enabled,
        issuer: body.issuer,
        clientId: body.clientId,
        clientSecret: body.clientSecret ?? "",
        allowedDomains: body.allowedDomains,
        newMemberRole: body.newMemberRole === "org_admin" ? Role.ORG_ADMIN : Role.MEMBER,
        passwordLoginEnabled: body.passwordLoginEnabled,
        ...actorOf(res),
        actorSessionToken: res.locals.sessionToken as string,
      });
      res.json(answer(singleSignOn, workspaceIdOf(res)));
    },
  );
  return routes.router;
}

function settingsJson(settings: SingleSignOn | undefined, publicUrl: string, workspaceId: string) {
  return {
    enabled: settings?.enabled ?? false,
    issuer: settings?.issuer ?? "",
    clientId: settings?.clientId ?? "",
    clientSecretSet: settings?.clientSecretSet ?? false,
    allowedDomains: settings?.allowedDomains ?? [],
    newMemberRole: settings?.newMemberRole === Role.ORG_ADMIN ? "org_admin" : "member",
    passwordLoginEnabled: settings?.passwordLoginEnabled ?? true,
    updatedAt: isoOrNull(settings?.updateTime),
    ...singleSignOnUrls(publicUrl, workspaceId),
  };
}
