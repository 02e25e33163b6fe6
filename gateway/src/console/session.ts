/**
 * Console sessions: log-in with email and password sets an HttpOnly session cookie and a CSRF
 * cookie; every state-changing console call must echo the CSRF cookie in X-CSRF-Token (double
 * submit) and, when the browser says where it comes from, come from our own origin.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  Role,
  type Session,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { ConsoleSession, LogIn, WorkspaceParams } from "../contract/console.js";
import type { Contract } from "../contract/operation.js";
import { readCookie, setCookie } from "../cookies.js";
import { DeclaredRouter } from "../declared-router.js";
import { ApiProblem } from "../problems.js";
import type { RateLimiter } from "../rate-limiter.js";

export const SESSION_COOKIE = "cs_session";
export const CSRF_COOKIE = "cs_csrf";
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export interface ConsoleSessionOptions {
  auth: Client<typeof AuthService>;
  contract: Contract;
  publicUrl: string;
  /** Limits log-in attempts per client address. */
  loginLimiter: RateLimiter;
}

export function describeSession(session: Session) {
  return {
    user: { id: session.userId, email: session.email },
    workspaces: session.memberships.map((membership) => {
      const workspace = session.workspaces.find((w) => w.id === membership.workspaceId);
      return {
        id: membership.workspaceId,
        name: workspace?.name ?? "",
        apiAccessEnabled: workspace?.apiAccessEnabled ?? false,
        role: membership.role === Role.ORG_ADMIN ? "org_admin" : "member",
      };
    }),
  };
}

const SESSION_PROBLEMS = [400, 401, 413, 415, 422, 429, 500, 503] as const;

export function sessionRoutes({ auth, contract, publicUrl, loginLimiter }: ConsoleSessionOptions): Router {
  const routes = new DeclaredRouter(contract, "/console/api", "consoleSession");
  const secure = publicUrl.startsWith("https:");

  routes.on(
    "post",
    "/session",
    {
      summary: "Log in",
      description:
        "Sets the HttpOnly session cookie `cs_session` and the `cs_csrf` cookie to echo in `X-CSRF-Token`.",
      tag: "Console: session",
      body: LogIn,
      answers: {
        201: { description: "The session: the user and their workspaces.", schema: ConsoleSession },
      },
      problems: [...SESSION_PROBLEMS],
    },
    async ({ req, res, body }) => {
      const limit = loginLimiter.take(req.ip ?? "unknown");
      if (!limit.allowed) {
        throw new ApiProblem("rate_limited", "too many log-in attempts; wait a little", undefined, {
          "Retry-After": String(limit.retryAfterSeconds),
        });
      }
      const { token, session } = await auth.createSession(body);
      setCookie(res, SESSION_COOKIE, token, {
        httpOnly: true,
        secure,
        maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
      });
      setCookie(res, CSRF_COOKIE, randomBytes(24).toString("base64url"), {
        httpOnly: false,
        secure,
        maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
      });
      res.status(201).json(describeSession(session as Session));
    },
    [express.json({ limit: 16 * 1024 })],
  );

  routes.on(
    "get",
    "/session",
    {
      summary: "The current session",
      tag: "Console: session",
      answers: { 200: { description: "The user and their workspaces.", schema: ConsoleSession } },
      problems: [401, 500, 503],
    },
    ({ res }) => {
      res.json(describeSession(res.locals.session as Session));
    },
    [requireSession(auth)],
  );

  routes.on(
    "delete",
    "/session",
    {
      summary: "Log out",
      tag: "Console: session",
      answers: { 204: { description: "Logged out; both cookies are cleared." } },
      problems: [401, 403, 500, 503],
    },
    async ({ req, res }) => {
      await auth.deleteSession({ token: readCookie(req, SESSION_COOKIE) ?? "" });
      setCookie(res, SESSION_COOKIE, "", { httpOnly: true, secure, maxAgeSeconds: 0 });
      setCookie(res, CSRF_COOKIE, "", { httpOnly: false, secure, maxAgeSeconds: 0 });
      res.status(204).end();
    },
    [requireSession(auth), csrfProtection(publicUrl)],
  );
  return routes.router;
}

export function requireSession(auth: Client<typeof AuthService>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) throw new ApiProblem("unauthorized", "log in first");
    const { session } = await auth.getSession({ token });
    res.locals.session = session;
    next();
  };
}

export type ConsoleWorkspace = ReturnType<typeof describeSession>["workspaces"][number];

/** After requireSession: the workspace in the path must be one of the user's (else 404, as if none). */
export function requireMembership(req: Request, res: Response, next: NextFunction): void {
  // Read as the routes declare it, before they run: the same id, normalised the same way.
  const workspaceId = WorkspaceParams.shape.workspaceId.safeParse(req.params.workspaceId).data;
  const workspace = describeSession(res.locals.session as Session).workspaces.find(
    (w) => w.id === workspaceId,
  );
  if (!workspace) throw new ApiProblem("not_found", "no such workspace");
  res.locals.workspaceId = workspace.id;
  res.locals.workspace = workspace satisfies ConsoleWorkspace;
  next();
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function csrfProtection(publicUrl: string) {
  const ownOrigin = new URL(publicUrl).origin;
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    if (origin && origin !== ownOrigin && origin !== originOf(req)) {
      throw new ApiProblem("forbidden", "cross-site request refused");
    }
    const cookie = Buffer.from(readCookie(req, CSRF_COOKIE) ?? "");
    const header = Buffer.from(req.get("x-csrf-token") ?? "");
    if (cookie.length === 0 || cookie.length !== header.length || !timingSafeEqual(cookie, header)) {
      throw new ApiProblem("forbidden", "missing or wrong X-CSRF-Token header");
    }
    next();
  };
}

/** The origin the request was sent to, for deployments reached under more than one name. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? ""}`;
}
