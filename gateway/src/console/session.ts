/**
 * Console sessions: log-in with email and password sets an HttpOnly session cookie and answers the
 * session's CSRF token, which every state-changing console call must send in X-CSRF-Token
 * (csrf.ts); the page keeps it in memory and reads it again from GET /console/api/session.
 */
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  Role,
  type Session,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { acceptDataMode, enterDataMode } from "@countersign/kit";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { ConsoleSession, LogIn, WorkspaceParams } from "../contract/console.js";
import type { Contract } from "../contract/operation.js";
import { readCookie } from "../cookies.js";
import { DeclaredRouter } from "../declared-router.js";
import { ApiProblem } from "../problems.js";
import { type RateLimiter, takeForAddress } from "../rate-limiter.js";
import { csrfProtection, csrfTokenFor } from "./csrf.js";
import { sessionCookie } from "./session-cookie.js";

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
    singleSignOnWorkspaceId: session.singleSignOnWorkspaceId || null,
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

/** What log-in and GET /session answer: the session, and the CSRF token that belongs to its token. */
function sessionAnswer(session: Session, token: string) {
  return { ...describeSession(session), csrfToken: csrfTokenFor(token) };
}

const SESSION_PROBLEMS = [400, 401, 413, 415, 422, 429, 500, 503] as const;

export function sessionRoutes({ auth, contract, publicUrl, loginLimiter }: ConsoleSessionOptions): Router {
  const routes = new DeclaredRouter(contract, "/console/api", "consoleSession");
  const cookie = sessionCookie(publicUrl);

  routes.on(
    "post",
    "/session",
    {
      summary: "Log in",
      description: `Sets the HttpOnly session cookie \`${cookie.name}\` and answers the session's \`csrfToken\`, to send in \`X-CSRF-Token\` on every state-changing console call.`,
      tag: "Console: session",
      body: LogIn,
      answers: {
        201: {
          description: "The session: the user, their workspaces and the CSRF token.",
          schema: ConsoleSession,
        },
      },
      problems: [...SESSION_PROBLEMS],
    },
    async ({ req, res, body }) => {
      takeForAddress(loginLimiter, req, () => "too many log-in attempts; wait a little");
      const { token, session } = await auth.createSession({ ...body, clientAddress: req.ip ?? "" });
      cookie.write(res, token);
      res.status(201).json(sessionAnswer(session as Session, token));
    },
    [express.json({ limit: 16 * 1024 })],
  );

  routes.on(
    "get",
    "/session",
    {
      summary: "The current session",
      tag: "Console: session",
      answers: {
        200: { description: "The user, their workspaces and the CSRF token.", schema: ConsoleSession },
      },
      problems: [401, 500, 503],
    },
    ({ res }) => {
      res.json(sessionAnswer(res.locals.session as Session, res.locals.sessionToken as string));
    },
    [requireSession(auth, publicUrl)],
  );

  routes.on(
    "delete",
    "/session",
    {
      summary: "Log out",
      tag: "Console: session",
      answers: { 204: { description: "Logged out; the session cookie is cleared." } },
      problems: [401, 403, 500, 503],
    },
    async ({ res }) => {
      await auth.deleteSession({ token: res.locals.sessionToken as string });
      cookie.clear(res);
      res.status(204).end();
    },
    [requireSession(auth, publicUrl), csrfProtection(publicUrl)],
  );
  return routes.router;
}

/** The console's Test data switch (console/data-mode.ts): test, or live when absent. */
const DATA_MODE_COOKIE = "cs_data_mode";

export function requireSession(auth: Client<typeof AuthService>, publicUrl: string) {
  const cookie = sessionCookie(publicUrl);
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = cookie.read(req);
    if (!token) throw new ApiProblem("unauthorized", "log in first");
    const { session } = await auth.getSession({ token });
    res.locals.session = session;
    res.locals.sessionToken = token;
    // The console shows live data, or test data when its switch asks for it (as a test key sees it).
    enterDataMode(acceptDataMode(readCookie(req, DATA_MODE_COOKIE)) ?? "live");
    next();
  };
}

export type ConsoleWorkspace = ReturnType<typeof describeSession>["workspaces"][number];

/**
 * The person behind a console call, as auth's audit names them: every change the console asks of
 * auth carries it, or the audit would credit it to the operator (the CLI). After requireSession.
 */
export function actorOf(res: Response): { actorUserId: string } {
  return { actorUserId: (res.locals.session as Session).userId };
}

/** After requireSession: the logged-in user's e-mail, where a record names them to people. */
export function userEmailOf(res: Response): string {
  return (res.locals.session as Session).email;
}

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
