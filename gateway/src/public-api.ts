/**
 * The two native route families share one set of handlers: every route exists under `/api/v1`
 * (workspace from the key) and under `/v1/accounts/{accountId}` (workspace from the path, which
 * must be the key's, else 404). Registering through here keeps the families identical and records
 * each call's route template for API Usage.
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import type { Caller } from "./key-verifier.js";
import { ApiProblem } from "./problems.js";

export type Method = "get" | "post" | "patch" | "put" | "delete";
export type Handler = (req: Request, res: Response, workspaceId: string) => Promise<void> | void;

export const RESOURCE_BASE = "/api/v1";
export const ACCOUNT_BASE = "/v1/accounts/:accountId";

/** `/v1/accounts/:accountId/templates` → `/v1/accounts/{accountId}/templates`, as OpenAPI writes it. */
export function routeTemplate(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export interface RouteOptions {
  /**
   * "json" (the default for POST, PATCH, PUT) refuses bodies of any other type with 415; "stream"
   * leaves the body unread for the handler (uploads).
   */
  body?: "json" | "stream" | "none";
}

/** Media types that upload routes read as streams; every other body must be JSON. */
const STREAMED_TYPES = ["multipart/form-data", "application/pdf"];

export class PublicApi {
  readonly router: Router = express.Router();

  /**
   * guards run first on every request to the API (reporting, authentication, rate limits);
   * afterBody once a JSON body is parsed (idempotency, which needs the body).
   */
  constructor(jsonLimitBytes: number, guards: RequestHandler[] = [], afterBody: RequestHandler[] = []) {
    this.router.use(...guards, readBody(jsonLimitBytes), ...afterBody);
  }

  /** A route that exists exactly once (such as GET /v1/ping), outside the two families. */
  single(method: Method, path: string, handler: (req: Request, res: Response) => Promise<void> | void): void {
    const template = routeTemplate(path);
    this.router[method](path, (req: Request, res: Response) => {
      res.locals.route = template;
      return handler(req, res);
    });
  }

  /** A route in both families. */
  route(method: Method, path: string, handler: Handler, options: RouteOptions = {}): void {
    const body = options.body ?? (method === "get" || method === "delete" ? "none" : "json");
    const checks = body === "json" ? [requireJson] : [];
    for (const base of [RESOURCE_BASE, ACCOUNT_BASE]) {
      const full = `${base}${path}`;
      const template = routeTemplate(full);
      this.router[method](full, ...checks, async (req: Request, res: Response) => {
        res.locals.route = template;
        await handler(req, res, workspaceOf(req, res));
      });
    }
  }
}

function workspaceOf(req: Request, res: Response): string {
  const caller = res.locals.caller as Caller;
  const accountId = req.params.accountId;
  // Another workspace's account looks exactly like one that does not exist.
  if (accountId !== undefined && accountId !== caller.workspaceId) {
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
 * route alike: JSON is parsed up to the limit (413 past it, 400 when malformed); upload types pass
 * on as streams; anything else is 415.
 */
function readBody(limitBytes: number) {
  const parseJson = express.json({ limit: limitBytes, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (req.is("application/json")) return parseJson(req, res, next);
    if (req.is(STREAMED_TYPES)) return next();
    throw unsupportedType();
  };
}

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is("application/json")) throw unsupportedType();
  next();
}
