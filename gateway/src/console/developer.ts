/**
 * Settings → Developer, behind a console session: API keys, Recent Errors, API Usage and the
 * Configuration tab. Only an Organization Admin of a workspace with API access enabled may use it;
 * someone outside the workspace gets 404, a member or a disabled workspace 403 with the reason.
 */

import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type {
  AuthService,
  Session,
  UsageFigures,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { KeyVerifier } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";
import { csrfProtection, describeSession, requireSession } from "./session.js";

export interface DeveloperRoutesOptions {
  auth: Client<typeof AuthService>;
  verifier: KeyVerifier;
  publicUrl: string;
}

export function developerRoutes({ auth, verifier, publicUrl }: DeveloperRoutesOptions): Router {
  const router = express.Router({ mergeParams: true });
  router.use(requireSession(auth), csrfProtection(publicUrl), requireDeveloperAccess);
  router.use(express.json({ limit: 16 * 1024 }));

  router.get("/configuration", (_req, res) => {
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
  });

  router.get("/api-keys", async (_req, res) => {
    const { keys } = await auth.listApiKeys({ workspaceId: workspaceIdOf(res) });
    res.json({ items: keys.map((key) => ({ id: key.id, name: key.name, createdAt: iso(key.createTime) })) });
  });

  router.post("/api-keys", async (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== "string") {
      throw new ApiProblem("validation_failed", "a key needs a name", [
        { path: "name", message: "is required" },
      ]);
    }
    const { key, secret } = await auth.createApiKey({ workspaceId: workspaceIdOf(res), name });
    res.status(201).json({
      id: key?.id,
      name: key?.name,
      secret,
      accountId: key?.workspaceId,
      createdAt: iso(key?.createTime),
    });
  });

  router.delete("/api-keys/:keyId", async (req, res) => {
    await auth.deleteApiKey({ workspaceId: workspaceIdOf(res), keyId: req.params.keyId });
    // This replica forgets at once; the others hear auth's event.
    verifier.forgetKey(req.params.keyId as string);
    res.status(204).end();
  });

  router.get("/recent-errors", async (req, res) => {
    const limit = Number(req.query.limit ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new ApiProblem("invalid_request", "limit must be a whole number from 1 to 500");
    }
    const { errors } = await auth.listRecentErrors({ workspaceId: workspaceIdOf(res), limit });
    res.json({
      items: errors.map((e) => ({
        timestamp: iso(e.time),
        method: e.method,
        path: e.path,
        status: e.status,
        code: e.code,
        requestId: e.requestId,
      })),
    });
  });

  router.get("/api-usage", async (req, res) => {
    const usage = await auth.getApiUsage({
      workspaceId: workspaceIdOf(res),
      fromDay: typeof req.query.from === "string" ? req.query.from : "",
      toDay: typeof req.query.to === "string" ? req.query.to : "",
    });
    res.json({
      from: usage.fromDay,
      to: usage.toDay,
      total: figures(usage.total),
      days: usage.days.map((d) => ({ day: d.day, ...figures(d.figures) })),
      routes: usage.routes.map((r) => ({ method: r.method, route: r.route, ...figures(r.figures) })),
    });
  });
  return router;
}

function requireDeveloperAccess(req: Request, res: Response, next: NextFunction): void {
  const workspaceId = (req.params as { workspaceId: string }).workspaceId;
  const workspace = describeSession(res.locals.session as Session).workspaces.find(
    (w) => w.id === workspaceId,
  );
  if (!workspace) throw new ApiProblem("not_found", "no such workspace");
  if (workspace.role !== "org_admin") {
    throw new ApiProblem("forbidden", "only an Organization Admin can use the developer settings");
  }
  if (!workspace.apiAccessEnabled) {
    throw new ApiProblem("forbidden", "API access is disabled for this workspace");
  }
  res.locals.workspaceId = workspaceId;
  next();
}

function workspaceIdOf(res: Response): string {
  return res.locals.workspaceId as string;
}

function iso(time: Timestamp | undefined): string | undefined {
  return time ? timestampDate(time).toISOString() : undefined;
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
