/**
 * What each family of console routes inside a workspace is built from: the options
 * consoleWorkspaceRoutes hands them, a declared router at the workspace base behind the console
 * session, and the workspace the membership check found.
 */
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import express, { type RequestHandler, type Response } from "express";
import type { Contract } from "../contract/operation.js";
import { DeclaredRouter } from "../declared-router.js";
import type { KeyVerifier } from "../key-verifier.js";
import { CONSOLE_WORKSPACE_BASE, type PublicApi } from "../public-api.js";

export interface WorkspaceRoutesOptions {
  auth: Client<typeof AuthService>;
  requests: Client<typeof RequestsService>;
  api: PublicApi;
  contract: Contract;
  verifier: KeyVerifier;
  publicUrl: string;
}

/** The body of a console form: a few fields, never a file. */
export const FORM_BODY = express.json({ limit: 16 * 1024 });

/** A router for one family's routes, run after its own guards (who may use them, how a body is read). */
export function workspaceRouter(contract: Contract, ...guards: RequestHandler[]): DeclaredRouter {
  return new DeclaredRouter(contract, CONSOLE_WORKSPACE_BASE, "consoleSession", guards);
}

/** The workspace of the path, as requireMembership checked it. */
export function workspaceIdOf(res: Response): string {
  return res.locals.workspaceId as string;
}
