/**
 * Settings → Developer, behind a console session: API keys, Recent Errors, API Usage and the
 * Configuration tab with its test e-mail (webhook endpoints are the public API's routes, in the console's family).
 * Only an Organization Admin of a workspace with API access enabled may use it; someone outside
 * the workspace gets 404 (requireMembership), a member or a disabled workspace 403 with the reason.
 */

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { keyAccess } from "@countersign/domain";
import type { UsageFigures } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { SealCertificate } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import {
  ApiKeyCreated,
  ApiKeyInput,
  ApiKeyList,
  ApiUsage,
  ApiUsageQuery,
  Configuration,
  KeyParams,
  MAX_SEAL_FILE_BASE64_CHARS,
  RecentErrors,
  RecentErrorsQuery,
  SealCertificateInfo,
  SealCertificateUpload,
  TestEmailInput,
  TestEmailResult,
  WorkspaceParams,
} from "../contract/console.js";
import { iso, isoOrNull } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { RateLimiter } from "../rate-limiter.js";
import { actorOf, type ConsoleWorkspace, userEmailOf } from "./session.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

const DEVELOPER_PROBLEMS = [400, 401, 403, 404, 500, 503] as const;
const TAG = "Console: developer";

export function developerRoutes({
  auth,
  requests,
  contract,
  verifier,
  publicUrl,
}: Omit<WorkspaceRoutesOptions, "api">): Router {
  // A test e-mail goes to any address: a few a minute per workspace check the settings, no more.
  const testEmails = new RateLimiter(0.1, 5);
  const routes = workspaceRouter(contract, requireDeveloperAccess);
  const smallBody = [FORM_BODY];

  routes.on(
    "get",
    "/configuration",
    {
      summary: "The Account ID and the base URLs of the API families",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "The Configuration tab.", schema: Configuration } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    ({ res }) => {
      const accountId = workspaceIdOf(res);
      res.json({
        accountId,
        baseUrls: {
          accountScoped: `${publicUrl}/v1/accounts/${accountId}`,
          resourceStyle: `${publicUrl}/api/v1`,
          compatibility: `${publicUrl}/restapi`,
          tools: `${publicUrl}/mcp/v1`,
        },
      });
    },
  );

  routes.on(
    "post",
    "/test-email",
    {
      summary: "Send a test e-mail through the service's mail settings",
      description:
        "Sent at once, not queued: the answer is how the exchange with the SMTP server ended, with its reply. Five at a time per workspace, then one every 10 s.",
      tag: TAG,
      params: WorkspaceParams,
      body: TestEmailInput,
      answers: { 200: { description: "How the exchange ended.", schema: TestEmailResult } },
      problems: [...DEVELOPER_PROBLEMS, 413, 415, 422, 429],
    },
    async ({ res, body }) => {
      const workspaceId = workspaceIdOf(res);
      const limit = testEmails.take(workspaceId);
      if (!limit.allowed) {
        throw new ApiProblem("rate_limited", "too many test e-mails; wait a little", undefined, {
          "Retry-After": String(limit.retryAfterSeconds),
        });
      }
      const result = await requests.sendTestEmail({ workspaceId, to: body.to });
      res.json({
        sent: result.sent,
        transport: result.transport === "smtp" ? "smtp" : "outbox",
        server: result.server,
        detail: result.detail,
        durationMs: result.durationMs,
      });
    },
    smallBody,
  );

  routes.on(
    "get",
    "/seal-certificate",
    {
      summary: "The certificate completed PDFs are sealed with: who it names, who issued it, when it expires",
      description:
        "The workspace's own seal where one was uploaded, else the deployment's; its key is never shown.",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "The Configuration tab's seal.", schema: SealCertificateInfo } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res }) => {
      const { certificate } = await requests.getSealCertificate({ workspaceId: workspaceIdOf(res) });
      res.json(sealCertificateInfo(certificate));
    },
  );

  routes.on(
    "put",
    "/seal-certificate",
    {
      summary: "Seal this workspace's documents with a certificate of its own (a PKCS#12 file)",
      description:
        "Checked before it is kept; documents completed from then on are sealed with it, on every sealing process. The file and its password are kept encrypted and never shown again.",
      tag: TAG,
      params: WorkspaceParams,
      body: SealCertificateUpload,
      answers: { 200: { description: "The workspace's seal from now on.", schema: SealCertificateInfo } },
      problems: [...DEVELOPER_PROBLEMS, 413, 415, 422],
    },
    async ({ res, body }) => {
      const { certificate } = await requests.replaceSealCertificate({
        workspaceId: workspaceIdOf(res),
        pkcs12: Buffer.from(body.pkcs12, "base64"),
        password: body.password,
        uploadedBy: userEmailOf(res),
      });
      res.json(sealCertificateInfo(certificate));
    },
    // The file's base64 and a password, with room for the JSON around them.
    [express.json({ limit: MAX_SEAL_FILE_BASE64_CHARS + 4 * 1024 })],
  );

  routes.on(
    "delete",
    "/seal-certificate",
    {
      summary: "Seal this workspace's documents with the deployment's certificate again",
      description:
        "Removes the workspace's own seal, if it has one; documents completed from then on carry the deployment's.",
      tag: TAG,
      params: WorkspaceParams,
      answers: {
        200: {
          description: "The deployment's seal, which the workspace uses again.",
          schema: SealCertificateInfo,
        },
      },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res }) => {
      const { certificate } = await requests.removeSealCertificate({ workspaceId: workspaceIdOf(res) });
      res.json(sealCertificateInfo(certificate));
    },
  );

  routes.on(
    "get",
    "/api-keys",
    {
      summary: "List API keys (name, hint, scopes, creation, last use and expiry)",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "The keys; secrets are never shown again.", schema: ApiKeyList } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res }) => {
      const { keys } = await auth.listApiKeys({ workspaceId: workspaceIdOf(res) });
      res.json({
        items: keys.map((key) => ({
          id: key.id,
          name: key.name,
          createdAt: iso(key.createTime),
          hint: key.hint,
          expiresAt: isoOrNull(key.expireTime),
          ...keyAccess(key.scopes),
          test: key.test,
          lastUsedAt: isoOrNull(key.lastUseTime),
        })),
      });
    },
  );

  routes.on(
    "post",
    "/api-keys",
    {
      summary: "Create an API key",
      description: "The secret is in this answer and never again.",
      tag: TAG,
      params: WorkspaceParams,
      body: ApiKeyInput,
      answers: { 201: { description: "The new key with its secret.", schema: ApiKeyCreated } },
      problems: [...DEVELOPER_PROBLEMS, 413, 415, 422],
    },
    async ({ res, body }) => {
      const { key, secret } = await auth.createApiKey({
        workspaceId: workspaceIdOf(res),
        ...actorOf(res),
        name: body.name,
        expireTime: body.expiresAt ? timestampFromDate(new Date(body.expiresAt)) : undefined,
        scopes: body.scopes,
        test: body.test ?? false,
      });
      if (!key) throw new Error("auth answered without the key it created");
      res.status(201).json({
        id: key.id,
        name: key.name,
        secret,
        accountId: key.workspaceId,
        createdAt: iso(key.createTime),
        hint: key.hint,
        expiresAt: isoOrNull(key.expireTime),
        ...keyAccess(key.scopes),
        test: key.test,
      });
    },
    smallBody,
  );

  routes.on(
    "delete",
    "/api-keys/:keyId",
    {
      summary: "Delete an API key",
      description: "Takes effect at once on every gateway replica: the key then answers 401.",
      tag: TAG,
      params: KeyParams,
      answers: { 204: { description: "Deleted." } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res, params }) => {
      await auth.deleteApiKey({
        workspaceId: workspaceIdOf(res),
        keyId: params.keyId,
        ...actorOf(res),
      });
      // This replica forgets at once; the others hear auth's event.
      verifier.forgetKey(params.keyId);
      res.status(204).end();
    },
  );

  routes.on(
    "get",
    "/recent-errors",
    {
      summary: "Recent Errors: the API calls that answered 4xx or 5xx, and sealing attempts that failed",
      tag: TAG,
      params: WorkspaceParams,
      query: RecentErrorsQuery,
      answers: { 200: { description: "Newest first.", schema: RecentErrors } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res, query }) => {
      const { errors } = await auth.listRecentErrors({ workspaceId: workspaceIdOf(res), limit: query.limit });
      res.json({
        items: errors.map((e) => ({
          timestamp: iso(e.time),
          source: e.source === "sealing" || e.source === "email" ? e.source : "api",
          method: e.method,
          path: e.path,
          status: e.status,
          code: e.code,
          detail: e.detail,
          requestId: e.requestId,
          keyName: e.keyName,
          problem: e.problem,
        })),
      });
    },
  );

  routes.on(
    "get",
    "/api-usage",
    {
      summary: "API Usage: calls per day, per route and per key or integration, error rate, p50/p95 latency",
      tag: TAG,
      params: WorkspaceParams,
      query: ApiUsageQuery,
      answers: { 200: { description: "The figures for the days asked.", schema: ApiUsage } },
      problems: [...DEVELOPER_PROBLEMS],
    },
    async ({ res, query }) => {
      const usage = await auth.getApiUsage({
        workspaceId: workspaceIdOf(res),
        fromDay: query.from ?? "",
        toDay: query.to ?? "",
      });
      res.json({
        from: usage.fromDay,
        to: usage.toDay,
        total: figures(usage.total),
        days: usage.days.map((d) => ({ day: d.day, ...figures(d.figures) })),
        routes: usage.routes.map((r) => ({ method: r.method, route: r.route, ...figures(r.figures) })),
        callers: usage.callers.map((c) => ({
          id: c.callerId,
          name: c.name,
          kind: c.kind === "api_key" || c.kind === "integration" ? c.kind : ("deleted" as const),
          calls: Number(c.callCount),
          errors: Number(c.errorCount),
        })),
      });
    },
  );
  return routes.router;
}

/** After requireMembership. */
export function requireDeveloperAccess(_req: Request, res: Response, next: NextFunction): void {
  const workspace = res.locals.workspace as ConsoleWorkspace;
  if (workspace.role !== "org_admin") {
    throw new ApiProblem("forbidden", "only an Organization Admin can use the developer settings");
  }
  if (!workspace.apiAccessEnabled) {
    throw new ApiProblem("forbidden", "API access is disabled for this workspace");
  }
  next();
}

function figures(f: UsageFigures | undefined) {
  const calls = Number(f?.callCount ?? 0n);
  const errors = Number(f?.errorCount ?? 0n);
  return {
    calls,
    errors,
    errorRate: calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000,
    p50Ms: f?.p50Ms ?? 0,
    p95Ms: f?.p95Ms ?? 0,
  };
}

/** A seal certificate as the console shows it. */
function sealCertificateInfo(certificate: SealCertificate | undefined) {
  return {
    certificate: certificate
      ? {
          subject: certificate.subject,
          issuer: certificate.issuer,
          notBefore: iso(certificate.notBefore),
          notAfter: iso(certificate.notAfter),
          padesLevel: certificate.padesLevel === "B-LTA" ? ("B-LTA" as const) : ("B-B" as const),
          sha256Fingerprint: certificate.sha256Fingerprint,
          selfSigned: certificate.selfSigned,
          reportedAt: iso(certificate.reportTime),
          owner: certificate.workspaceOwned ? ("workspace" as const) : ("deployment" as const),
          uploadedBy: certificate.workspaceOwned ? certificate.uploadedBy : null,
        }
      : null,
  };
}
