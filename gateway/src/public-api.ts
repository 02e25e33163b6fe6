/**
 * The two native route families share one set of handlers: every route exists under `/api/v1`
 * (workspace from the key) and under `/v1/accounts/{accountId}` (workspace from the path, which
 * must be the key's, else 404). Registering through here keeps the families identical, reads each
 * request by its declared contract, documents it, and records each call's route for API Usage.
 *
 * The console uses the same handlers under `/console/api/workspaces/{workspaceId}`, by session
 * cookie instead of key: `consoleRouter` is mounted there behind the session, CSRF and membership
 * checks, and its calls are neither rate-limited per key nor counted in API Usage.
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import type { z } from "zod";
import { AccountParams } from "./contract/account.js";
import { WorkspaceParams } from "./contract/console.js";
import {
  type Contract,
  type Input,
  type OperationSpec,
  readInput,
  type Security,
} from "./contract/operation.js";
import { type BodySchema, type Method, type ObjectSchema, routeTemplate } from "./declared-router.js";
import type { Caller } from "./key-verifier.js";
import { ApiProblem } from "./problems.js";
import { UPLOAD_TYPES } from "./upload-body.js";

export const RESOURCE_BASE = "/api/v1";
export const ACCOUNT_BASE = "/v1/accounts/:accountId";
export const CONSOLE_WORKSPACE_BASE = "/console/api/workspaces/:workspaceId";

export interface Call<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>
  extends Input<P, Q, B> {
  req: Request;
  res: Response;
  /** The caller's workspace. */
  workspaceId: string;
}

export class PublicApi {
  readonly router: Router = express.Router();
  /** The console family, mounted at CONSOLE_WORKSPACE_BASE after the checks that set `res.locals.workspaceId`. */
  readonly consoleRouter: Router = express.Router({ mergeParams: true });

  /**
   * guards run first on every request to the API (reporting, authentication, rate limits);
   * afterBody once a JSON body is parsed (idempotency, which needs the body).
   */
  constructor(
    private readonly contract: Contract,
    jsonLimitBytes: number,
    guards: RequestHandler[] = [],
    afterBody: RequestHandler[] = [],
  ) {
    this.router.use(...guards, readBody(jsonLimitBytes), ...afterBody);
    this.consoleRouter.use(readBody(jsonLimitBytes));
  }

  /** A route that exists exactly once (such as GET /v1/ping), outside the two families. */
  single<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: OperationSpec<P, Q, B>,
    handler: (call: Call<P, Q, B>) => Promise<void> | void,
  ): void {
    this.register(this.router, method, path, path, spec, handler, { extraParameters: [] });
  }

  /** A route in both families, and in the console's unless `inConsole` is false. */
  route<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: OperationSpec<P, Q, B>,
    handler: (call: Call<P, Q, B>) => Promise<void> | void,
    { inConsole = true }: { inConsole?: boolean } = {},
  ): void {
    const idempotent = method === "post" ? ["IdempotencyKey"] : [];
    const { router, consoleRouter } = this;
    const family = { extraParameters: idempotent };
    this.register(
      router,
      method,
      `${RESOURCE_BASE}${path}`,
      `${RESOURCE_BASE}${path}`,
      spec,
      handler,
      family,
    );
    this.register(router, method, `${ACCOUNT_BASE}${path}`, `${ACCOUNT_BASE}${path}`, spec, handler, {
      ...family,
      pathParams: AccountParams,
    });
    if (!inConsole) return;
    this.register(consoleRouter, method, path, `${CONSOLE_WORKSPACE_BASE}${path}`, spec, handler, {
      extraParameters: method === "get" ? [] : ["CsrfToken"],
      pathParams: WorkspaceParams,
      security: "consoleSession",
    });
  }

  /** `path` is where `router` matches; `documented` is the whole path, as clients call it. */
  private register<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    router: Router,
    method: Method,
    path: string,
    documented: string,
    spec: OperationSpec<P, Q, B>,
    handler: (call: Call<P, Q, B>) => Promise<void> | void,
    family: { extraParameters: string[]; pathParams?: z.ZodObject; security?: Security },
  ): void {
    const template = routeTemplate(documented);
    this.contract.add({
      method,
      path: template,
      security: family.security ?? "apiKey",
      extraParameters: family.extraParameters,
      pathParams: family.pathParams,
      spec: spec as never,
    });
    const checks = spec.body ? [requireJson] : [];
    router[method](path, ...checks, async (req: Request, res: Response) => {
      res.locals.route = template;
      const workspaceId = workspaceOf(req, res);
      await handler({ req, res, workspaceId, ...readInput(spec, req) });
    });
  }
}

/**
 * The caller's workspace: the console's, checked against the session before any route; else the
 * key's, and the account in the path, read as declared, must be it.
 */
function workspaceOf(req: Request, res: Response): string {
  if (typeof res.locals.workspaceId === "string") return res.locals.workspaceId;
  const caller = res.locals.caller as Caller;
  if (req.params.accountId === undefined) return caller.workspaceId;
  const accountId = AccountParams.shape.accountId.safeParse(req.params.accountId);
  // Another workspace's account looks exactly like one that does not exist.
  if (!accountId.success || accountId.data !== caller.workspaceId) {
    throw new ApiProblem("not_found", "no such account, or this key does not belong to it");
  }
  return caller.workspaceId;
}

function hasBody(req: Request): boolean {
  return Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
}

function unsupportedType(): ApiProblem {
  return new ApiProblem(
    "unsupported_media_type",
    'send the body as JSON with "Content-Type: application/json"',
  );
}

/**
 * Every body that reaches the public API is checked before routing, so the limits hold for every
 * route alike: JSON is parsed (decompressed first when it says so) up to the limit on its decoded
 * size (413 past it, 400 when malformed); upload types pass on as streams; anything else is 415.
 */
function readBody(limitBytes: number) {
  const parseJson = express.json({ limit: limitBytes, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (req.is("application/json")) return parseJson(req, res, next);
    if (req.is(UPLOAD_TYPES)) return next();
    throw unsupportedType();
  };
}

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is("application/json")) throw unsupportedType();
  next();
}
