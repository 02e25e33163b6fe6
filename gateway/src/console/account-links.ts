/**
 * The console's pages reached from an e-mail, before anyone is logged in: an invitation to join a
 * workspace (read, then accepted with a password, which logs in) and a forgotten password (asked
 * for, then chosen with the link's token). Tokens travel in bodies, never in URLs, so no access log
 * or Referer carries them; the pages read them from the link's fragment. Every route is limited per
 * client address with log-in's own limiter: each one takes or tries a password, or sends e-mail.
 */
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  Role,
  type Session,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import {
  ConsoleSession,
  InvitationAcceptance,
  InvitationToken,
  InvitationView,
  PasswordReset,
  PasswordResetRequest,
} from "../contract/console.js";
import type { Contract } from "../contract/operation.js";
import { DeclaredRouter } from "../declared-router.js";
import { iso } from "../json-time.js";
import { type RateLimiter, takeForAddress } from "../rate-limiter.js";
import { csrfTokenFor } from "./csrf.js";
import { describeSession } from "./session.js";
import { sessionCookie } from "./session-cookie.js";

const PROBLEMS = [400, 404, 413, 415, 422, 429, 500, 503] as const;
const TAG = "Console: session";

export interface AccountLinkOptions {
  auth: Client<typeof AuthService>;
  contract: Contract;
  publicUrl: string;
  limiter: RateLimiter;
}

export function accountLinkRoutes({ auth, contract, publicUrl, limiter }: AccountLinkOptions): Router {
  const limited = (req: Request, _res: Response, next: NextFunction) => {
    takeForAddress(limiter, req, () => "too many attempts; wait a little");
    next();
  };
  const routes = new DeclaredRouter(contract, "/console/api", "none", [
    limited,
    express.json({ limit: 16 * 1024 }),
  ]);
  const cookie = sessionCookie(publicUrl);

  routes.on(
    "post",
    "/invitations/lookup",
    {
      summary: "Read an invitation from its link's token",
      description: "A used, withdrawn, replaced or expired link is 404.",
      tag: TAG,
      body: InvitationToken,
      answers: { 200: { description: "What the invitation is to.", schema: InvitationView } },
      problems: [...PROBLEMS],
    },
    async ({ res, body }) => {
      const { invitation, workspaceName, hasLogIn } = await auth.getInvitation({ token: body.token });
      if (!invitation) throw new Error("auth answered without the invitation");
      res.json({
        email: invitation.email,
        role: invitation.role === Role.ORG_ADMIN ? "org_admin" : "member",
        workspaceName,
        invitedBy: invitation.invitedBy,
        expiresAt: iso(invitation.expireTime),
        hasLogIn,
      });
    },
  );

  routes.on(
    "post",
    "/invitations/accept",
    {
      summary: "Accept an invitation and log in",
      description: `A new person chooses their password; a person with a log-in gives theirs (a wrong one is 401). Sets the session cookie \`${cookie.name}\`, as log-in does.`,
      tag: TAG,
      body: InvitationAcceptance,
      answers: { 201: { description: "The session, with the new workspace.", schema: ConsoleSession } },
      problems: [...PROBLEMS, 401],
    },
    async ({ req, res, body }) => {
      const { token, session } = await auth.acceptInvitation({ ...body, clientAddress: req.ip ?? "" });
      cookie.write(res, token);
      res.status(201).json({ ...describeSession(session as Session), csrfToken: csrfTokenFor(token) });
    },
  );

  routes.on(
    "post",
    "/password-reset",
    {
      summary: "E-mail a link to choose a new password",
      description:
        "Answers 202 whether or not the address has a log-in, so it tells nobody who has one. The link works once, for an hour.",
      tag: TAG,
      body: PasswordResetRequest,
      answers: { 202: { description: "If the address has a log-in, the e-mail is on its way." } },
      problems: [...PROBLEMS],
    },
    async ({ res, body }) => {
      await auth.requestPasswordReset({ email: body.email });
      res.status(202).end();
    },
  );

  routes.on(
    "post",
    "/password-reset/complete",
    {
      summary: "Choose a new password with a reset link's token",
      description: "Every session of the person ends; they log in with the new password.",
      tag: TAG,
      body: PasswordReset,
      answers: { 204: { description: "The password is changed." } },
      problems: [...PROBLEMS],
    },
    async ({ res, body }) => {
      await auth.resetPassword(body);
      res.status(204).end();
    },
  );
  return routes.router;
}
