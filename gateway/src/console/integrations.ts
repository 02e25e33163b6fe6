/**
 * Integrations in Settings → Developer (for Organization Admins, as API keys are): register a
 * program's public key, see who consented to it and when it was last used, withdraw a consent,
 * delete it. And the consent page's two calls, for any member logged in to the console: what an
 * integration asks, and the person's yes, answered with where to send their browser.
 */
import type { Client } from "@connectrpc/connect";
import type {
  AuthService,
  Integration,
  Session,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, { type Response, type Router } from "express";
import { WorkspaceParams } from "../contract/console.js";
import {
  ConsentDescription,
  ConsentGranted,
  ConsentInput,
  ConsentParams,
  ConsentQuery,
  IntegrationInput,
  IntegrationList,
  IntegrationParams,
  Integration as IntegrationShape,
  SCOPES,
} from "../contract/integrations.js";
import type { Contract } from "../contract/operation.js";
import { DeclaredRouter } from "../declared-router.js";
import { iso, isoOrNull } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { csrfProtection } from "./csrf.js";
import { requireDeveloperAccess } from "./developer.js";
import { actorOf, describeSession, requireSession } from "./session.js";
import { type WorkspaceRoutesOptions, workspaceIdOf, workspaceRouter } from "./workspace-router.js";

const TAG = "Console: developer";
const PROBLEMS = [400, 401, 403, 404, 500, 503] as const;

/** Mounted at the console's workspace base, after the session, CSRF and membership checks. */
export function integrationRoutes({
  auth,
  contract,
  verifier,
}: Pick<WorkspaceRoutesOptions, "auth" | "contract" | "verifier">): Router {
  const routes = workspaceRouter(contract, requireDeveloperAccess);

  routes.on(
    "get",
    "/integrations",
    {
      summary: "List integrations: programs that log in with DocuSign's JWT grant",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "Newest first, with who consented.", schema: IntegrationList } },
      problems: [...PROBLEMS],
    },
    async ({ res }) => {
      const { integrations } = await auth.listIntegrations({ workspaceId: workspaceIdOf(res) });
      res.json({ items: integrations.map(describe) });
    },
  );

  routes.on(
    "post",
    "/integrations",
    {
      summary: "Register an integration by its RSA public key",
      description:
        "Its `integrationKey` is the assertion's `iss`. Each person it acts as consents once, on the consent page (`GET /oauth/auth`).",
      tag: TAG,
      params: WorkspaceParams,
      body: IntegrationInput,
      answers: { 201: { description: "The integration as registered.", schema: IntegrationShape } },
      problems: [...PROBLEMS, 413, 415, 422],
    },
    async ({ res, body }) => {
      const { integration } = await auth.createIntegration({
        workspaceId: workspaceIdOf(res),
        name: body.name,
        publicKeyPem: body.publicKey,
        redirectUris: body.redirectUris,
        ...actorOf(res),
      });
      if (!integration) throw new Error("auth answered without the integration it registered");
      res.status(201).json(describe(integration));
    },
    [express.json({ limit: 32 * 1024 })],
  );

  routes.on(
    "delete",
    "/integrations/:integrationId",
    {
      summary: "Delete an integration",
      description:
        "Its consents and access tokens end with it: every gateway replica refuses its tokens at once.",
      tag: TAG,
      params: IntegrationParams,
      answers: { 204: { description: "Deleted." } },
      problems: [...PROBLEMS],
    },
    async ({ res, params }) => {
      await auth.deleteIntegration({
        workspaceId: workspaceIdOf(res),
        integrationId: params.integrationId,
        ...actorOf(res),
      });
      // This replica forgets at once; the others hear auth's event.
      verifier.forgetIntegration(params.integrationId);
      res.status(204).end();
    },
  );

  routes.on(
    "delete",
    "/integrations/:integrationId/consents/:userId",
    {
      summary: "Withdraw a person's consent to an integration",
      description: "The access tokens it had issued as them stop working at once.",
      tag: TAG,
      params: ConsentParams,
      answers: { 204: { description: "Withdrawn." } },
      problems: [...PROBLEMS],
    },
    async ({ res, params }) => {
      await auth.withdrawConsent({
        workspaceId: workspaceIdOf(res),
        integrationId: params.integrationId,
        userId: params.userId,
        ...actorOf(res),
      });
      verifier.forgetIntegration(params.integrationId);
      res.status(204).end();
    },
  );
  return routes.router;
}

/** The consent page's calls, at `/console/api/oauth/consent`: any member, of the integration's workspace. */
export function consentRoutes({
  auth,
  contract,
  publicUrl,
}: {
  auth: Client<typeof AuthService>;
  contract: Contract;
  publicUrl: string;
}): Router {
  const routes = new DeclaredRouter(contract, "/console/api", "consoleSession", [
    requireSession(auth, publicUrl),
  ]);
  const tag = "Console: session";

  routes.on(
    "get",
    "/oauth/consent",
    {
      summary: "What an integration asks a person to consent to",
      description:
        "The consent page opens with `GET /oauth/auth`'s query. An unknown `client_id` or a `redirect_uri` the integration did not register is 404; someone outside its workspace 403.",
      tag,
      query: ConsentQuery,
      answers: {
        200: { description: "Who asks, for what, in which workspace.", schema: ConsentDescription },
      },
      problems: [400, 401, 403, 404, 500, 503],
    },
    async ({ res, query }) => {
      const scopes = readScopes(query.scope ?? "signature");
      const consent = await auth.describeConsent({
        integrationId: query.client_id,
        redirectUri: query.redirect_uri,
        userId: sessionUserOf(res),
      });
      requireCovered(res, consent.workspaceId);
      res.json({
        integrationName: consent.integrationName,
        workspaceId: consent.workspaceId,
        workspaceName: consent.workspaceName,
        scopes,
        consentedScopes: consent.consentedScopes,
      });
    },
  );

  routes.on(
    "post",
    "/oauth/consent",
    {
      summary: "Consent to an integration acting as the logged-in person",
      tag,
      body: ConsentInput,
      answers: { 200: { description: "Where to send the browser.", schema: ConsentGranted } },
      problems: [400, 401, 403, 404, 413, 415, 422, 500, 503],
    },
    async ({ res, body }) => {
      const scopes = readScopes(body.scope);
      const { workspaceId } = await auth.describeConsent({
        integrationId: body.clientId,
        redirectUri: body.redirectUri,
        userId: sessionUserOf(res),
      });
      requireCovered(res, workspaceId);
      await auth.grantConsent({
        integrationId: body.clientId,
        redirectUri: body.redirectUri,
        userId: sessionUserOf(res),
        scopes,
      });
      // Checked by auth as one the integration registered; the authorization code grant is not
      // offered (docs/restapi.md), so the browser goes back with the state alone.
      const redirect = new URL(body.redirectUri);
      if (body.state !== undefined) redirect.searchParams.set("state", body.state);
      res.json({ redirect: redirect.href });
    },
    [csrfProtection(publicUrl), express.json({ limit: 16 * 1024 })],
  );
  return routes.router;
}

/** OAuth's space-separated scope list, each one we know of. */
function readScopes(scope: string): (typeof SCOPES)[number][] {
  const asked = [...new Set(scope.split(" ").filter(Boolean))];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new ApiProblem("invalid_request", `scope: Countersign does not offer ${unknown.join(", ")}`);
  }
  if (!asked.includes("signature"))
    throw new ApiProblem("invalid_request", 'scope: must include "signature"');
  return asked as (typeof SCOPES)[number][];
}

function describe(integration: Integration) {
  return {
    integrationKey: integration.id,
    name: integration.name,
    publicKey: integration.publicKeyPem,
    redirectUris: integration.redirectUris,
    createdAt: iso(integration.createTime),
    lastUsedAt: isoOrNull(integration.lastUseTime),
    consents: integration.consents.map((consent) => ({
      userId: consent.userId,
      email: consent.email,
      scopes: consent.scopes,
      grantedAt: iso(consent.grantTime),
    })),
  };
}

/**
 * A consent lets an integration act as the person in its workspace: the session must cover that
 * workspace (one opened by another workspace's single sign-on, or by a password where this one
 * allows none, does not), as every workspace route's membership check asks.
 */
function requireCovered(res: Response, workspaceId: string): void {
  if (!describeSession(res.locals.session as Session).workspaces.some((w) => w.id === workspaceId)) {
    throw new ApiProblem(
      "forbidden",
      "this session does not cover the integration's workspace: log in to that workspace, then consent",
    );
  }
}

function sessionUserOf(res: Response): string {
  return actorOf(res).actorUserId;
}
