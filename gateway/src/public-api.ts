/**
 * The two native route families share one set of handlers: every route exists under `/api/v1`
 * (workspace from the key) and under `/v1/accounts/{accountId}` (workspace from the path, which
 * must be the key's, else 404). Registering through here keeps the families identical, reads each
 * request by its declared contract, documents it, and records each call's route for API Usage.
 *
 * The console uses the same handlers under `/console/api/workspaces/{workspaceId}`, by session
 * cookie instead of key: `consoleRouter` is mounted there behind the session, CSRF and membership
 * checks, and its calls are neither rate-limited per key nor counted in API Usage.
 *
 * A handler is an operation: it gets its checked input, the workspace and the actor, and returns a
 * Reply; it never sees Express, so it is the same whoever calls it — the MCP tools run these very
 * operations (`operation`). Only uploads and downloads, which stream, get the request and response
 * (`streamRoute`).
 */

import type { ApiScope } from "@countersign/domain";
import type { Session } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import type { z } from "zod";
import { CompiledRoutes, runHandlers } from "./compiled-routes.js";
import { AccountParams } from "./contract/account.js";
import { WorkspaceParams } from "./contract/console.js";
import {
  type Contract,
  type Input,
  type OperationSpec,
  readInput,
  type Security,
} from "./contract/operation.js";
import { requireScopesFor, type ScopeRequirement } from "./contract/scope-requirements.js";
import { type BodySchema, type Method, type ObjectSchema, routeTemplate } from "./declared-router.js";
import { viewAccessCheck } from "./embedded-view-access.js";
import type { Caller } from "./key-verifier.js";
import { type BodyBudget, budgetedJson, hasBody } from "./middleware/body-budget.js";
import { ApiProblem } from "./problems.js";
import { notAnUpload, UPLOAD_TYPES } from "./upload-body.js";

/** The type Express's res.json gives JSON, which a kept answer's bytes are sent with too. */
const JSON_UTF8 = "application/json; charset=utf-8";

export const RESOURCE_BASE = "/api/v1";
export const ACCOUNT_BASE = "/v1/accounts/:accountId";
export const CONSOLE_WORKSPACE_BASE = "/console/api/workspaces/:workspaceId";
/** The base of a keyed family's route template, either family's. */
const FAMILY_BASE = /^(\/api\/v1|\/v1\/accounts\/\{accountId\})(?=\/)/;

/** Who makes a call, as the audit trail records it: an API key, or a console user. */
export interface Actor {
  apiKeyId: string;
  userId: string;
  ip: string;
  userAgent: string;
  /** The key's name, or the console user's e-mail. */
  name: string;
  /** The console user's e-mail; empty for a key. */
  email: string;
  /** The workspace the call acts for, by name. */
  workspaceName: string;
}

/** What an operation gets: its declared input, read and checked, and who asks for which workspace. */
export interface Call<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>
  extends Input<P, Q, B> {
  /** The caller's workspace. */
  workspaceId: string;
  actor: Actor;
  /** The API key's scopes (whether it proposes rather than sends, say); absent for a console user. */
  scopes?: ReadonlySet<ApiScope>;
  /** A tool's dry run, for an operation that declares `dryRun`: check and answer, change nothing. */
  dryRun?: boolean;
}

/** A call whose handler reads the body or writes the answer as a stream (uploads, downloads). */
export interface StreamCall<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>
  extends Call<P, Q, B> {
  req: Request;
  res: Response;
}

/** What an operation answers: a status and the JSON body, if any. */
export interface Reply {
  status: number;
  body?: unknown;
  /**
   * The body already written as JSON, for a reply served again unchanged (a page the gateway keeps):
   * what HTTP sends instead of writing the body again; calls without HTTP (MCP) read `body`.
   */
  bodyJson?: Buffer;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
/** An answer kept to be served again: its JSON is written once. */
export const okKept = (body: unknown): Reply => ({
  status: 200,
  body,
  bodyJson: Buffer.from(JSON.stringify(body)),
});
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });

/** An operation of the keyed families: it must declare the scope a key needs for it. */
export type KeyedSpec<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema> = OperationSpec<
  P,
  Q,
  B
> & { scope: NonNullable<ScopeRequirement["scope"]> | null };

type Handler<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema> = (
  call: Call<P, Q, B>,
) => Promise<Reply> | Reply;

/** A registered operation, to run without HTTP: its declaration and its handler. */
export interface Operation {
  spec: KeyedSpec<ObjectSchema, ObjectSchema, BodySchema>;
  run(call: Call<ObjectSchema, ObjectSchema, BodySchema>): Promise<Reply> | Reply;
}
type StreamHandler<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema> = (
  call: StreamCall<P, Q, B>,
) => Promise<void>;

/** The routes of the keyed families (both bases) or of the console's session family. */
interface Family {
  routes: CompiledRoutes;
  /** Matched before the body is read, so that a body of another type hears what an upload route takes. */
  uploads: Router;
}

function family(): Family {
  return { routes: new CompiledRoutes(), uploads: express.Router({ mergeParams: true }) };
}

export class PublicApi {
  /**
   * The keyed families: the guards, the body and the route, run in turn as one handler. Express's
   * router would walk a layer for each, costing every call of the API.
   */
  readonly router: RequestHandler;
  /** The console family, mounted at CONSOLE_WORKSPACE_BASE after the checks that set `res.locals.workspaceId`. */
  readonly consoleRouter: Router = express.Router({ mergeParams: true });
  private readonly operations = new Map<string, Operation>();
  private readonly keyed = family();
  private readonly session = family();

  /**
   * guards run first on every request to the API (reporting, authentication, rate limits);
   * `matched` once a keyed route is matched, its scope checked and a JSON body parsed (idempotency:
   * it needs the body, and must not replay an answer to a key that may not make the call).
   */
  constructor(
    private readonly contract: Contract,
    json: { limitBytes: number; budget: BodyBudget },
    guards: RequestHandler[] = [],
    private readonly matched: RequestHandler[] = [],
  ) {
    const keyedChain = [...guards, readBody(json, this.keyed.uploads), this.keyed.routes.dispatch];
    this.router = (req, res, next) => runHandlers(keyedChain, req, res, next);
    this.consoleRouter.use(readBody(json, this.session.uploads), this.session.routes.dispatch);
  }

  /** A route that exists exactly once (such as GET /v1/ping), outside the two families. */
  single<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: KeyedSpec<P, Q, B>,
    handler: Handler<P, Q, B>,
  ): void {
    this.register(this.keyed, method, path, path, spec, answering(handler), { extraParameters: [] });
  }

  /** A route in both families, and in the console's unless `inConsole` is false. */
  route<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: KeyedSpec<P, Q, B>,
    handler: Handler<P, Q, B>,
    options: { inConsole?: boolean } = {},
  ): void {
    this.inFamilies(method, path, spec, answering(handler), options);
    this.operations.set(`${method} ${path}`, { spec, run: handler } as unknown as Operation);
  }

  /** The operation `route` registered as `method` `path` (the path without a family's base). */
  operation(method: Method, path: string): Operation {
    const operation = this.operations.get(`${method} ${path}`);
    if (!operation) throw new Error(`no operation ${method.toUpperCase()} ${path} is registered`);
    return operation;
  }

  /** A route like `route` whose handler streams the body in or the answer out itself. */
  streamRoute<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: KeyedSpec<P, Q, B>,
    handler: StreamHandler<P, Q, B>,
  ): void {
    this.inFamilies(method, path, spec, handler, {});
  }

  private inFamilies<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: KeyedSpec<P, Q, B>,
    handler: StreamHandler<P, Q, B>,
    { inConsole = true }: { inConsole?: boolean },
  ): void {
    const idempotent = method === "post" ? ["IdempotencyKey"] : [];
    const { keyed, session } = this;
    const parameters = { extraParameters: idempotent };
    this.register(
      keyed,
      method,
      `${RESOURCE_BASE}${path}`,
      `${RESOURCE_BASE}${path}`,
      spec,
      handler,
      parameters,
    );
    this.register(keyed, method, `${ACCOUNT_BASE}${path}`, `${ACCOUNT_BASE}${path}`, spec, handler, {
      ...parameters,
      pathParams: AccountParams,
    });
    if (!inConsole) return;
    this.register(session, method, path, `${CONSOLE_WORKSPACE_BASE}${path}`, spec, handler, {
      extraParameters: method === "get" ? [] : ["CsrfToken"],
      pathParams: WorkspaceParams,
      security: "consoleSession",
    });
  }

  /** `path` is where the family's routes match; `documented` is the whole path, as clients call it. */
  private register<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    { routes, uploads }: Family,
    method: Method,
    path: string,
    documented: string,
    spec: OperationSpec<P, Q, B>,
    handler: StreamHandler<P, Q, B>,
    parameters: { extraParameters: string[]; pathParams?: z.ZodObject; security?: Security },
  ): void {
    const template = routeTemplate(documented);
    this.contract.add({
      method,
      path: template,
      security: parameters.security ?? "apiKey",
      extraParameters: parameters.extraParameters,
      pathParams: parameters.pathParams,
      spec: spec as never,
    });
    if (spec.streamedBody) uploads[method](path, refuseUpload);
    const keyed = (parameters.security ?? "apiKey") === "apiKey";
    const checks = [
      ...(keyed
        ? [scopeCheck(spec), viewAccessCheck(method, routeTemplate(path).replace(FAMILY_BASE, ""))]
        : []),
      ...(spec.body ? [requireJson] : []),
      ...(keyed ? this.matched : []),
    ];
    routes.add(method, path, [
      ...checks,
      async (req: Request, res: Response) => {
        res.locals.route = template;
        const workspaceId = workspaceOf(req, res);
        const scopes = (res.locals.caller as Caller | undefined)?.scopes;
        await handler({
          req,
          res,
          workspaceId,
          actor: actorOf(req, res),
          ...(scopes ? { scopes } : {}),
          ...readInput(spec, req),
        });
      },
    ]);
  }
}

/** An operation's reply, written as the answer. */
function answering<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
  handler: Handler<P, Q, B>,
): StreamHandler<P, Q, B> {
  return async ({ req: _req, res, ...call }) => {
    const reply = await handler(call);
    res.status(reply.status);
    if (reply.body === undefined) res.end();
    else if (reply.bodyJson) res.type(JSON_UTF8).send(reply.bodyJson);
    else res.json(reply.body);
  };
}

/** Who makes the request: its key or console user, address and user agent. */
export function actorOf(req: Request, res: Response): Actor {
  const caller = res.locals.caller as Caller | undefined;
  const session = res.locals.session as Session | undefined;
  const workspaceId = res.locals.workspaceId as string | undefined;
  const base = { ip: req.ip ?? "", userAgent: (req.get("user-agent") ?? "").slice(0, 500) };
  if (caller) {
    // An integration's token acts as the person who consented: the trail names both.
    return {
      ...base,
      apiKeyId: caller.keyId,
      userId: caller.onBehalfOf?.userId ?? "",
      name: caller.keyName,
      email: caller.onBehalfOf?.email ?? "",
      workspaceName: caller.workspaceName,
    };
  }
  return {
    ...base,
    apiKeyId: "",
    userId: session?.userId ?? "",
    name: session?.email ?? "",
    email: session?.email ?? "",
    workspaceName: session?.workspaces.find((w) => w.id === workspaceId)?.name ?? "",
  };
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

function unsupportedType(): ApiProblem {
  return new ApiProblem(
    "unsupported_media_type",
    'send the body as JSON with "Content-Type: application/json"',
  );
}

/**
 * Every body that reaches the public API is checked before routing, so the limits hold for every
 * route alike: JSON is parsed (decompressed first when it says so) up to the limit on its decoded
 * size (413 past it, 400 when malformed); upload types pass on as streams; anything else is 415,
 * which says what an upload route takes when it is one (`uploadRoutes` matches them), else JSON.
 */
function readBody({ limitBytes, budget }: { limitBytes: number; budget: BodyBudget }, uploadRoutes: Router) {
  const parseJson = budgetedJson(budget, { limit: limitBytes, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (req.is("application/json")) return parseJson(req, res, next);
    if (req.is(UPLOAD_TYPES)) return next();
    uploadRoutes(req, res, (err?: unknown) => next(err ?? unsupportedType()));
  };
}

/**
 * A key without the scopes the operation needs — for this body, too — is refused before the
 * operation or idempotency sees the call.
 */
function scopeCheck(requirement: ScopeRequirement): RequestHandler {
  return (req, res, next) => {
    requireScopesFor(res.locals.caller as Caller, requirement, req.body);
    next();
  };
}

const refuseUpload = (_req: Request, _res: Response, next: NextFunction) => next(notAnUpload());

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is("application/json")) throw unsupportedType();
  next();
}
