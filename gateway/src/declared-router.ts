/**
 * An Express router whose routes are declared operations (contract/operation.ts): each request is
 * read by its declaration and each route lands in the OpenAPI document. The console's routes use
 * it; the public API's families have PublicApi, which adds what keys and accounts need.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import type { z } from "zod";
import {
  type Contract,
  type Input,
  type OperationSpec,
  readInput,
  type Security,
} from "./contract/operation.js";
import { hasSecretParams, redactSecretParams } from "./middleware/redacted-path.js";

export type ObjectSchema = z.ZodObject | undefined;
export type BodySchema = z.ZodType | undefined;

export type Method = "get" | "post" | "patch" | "put" | "delete";

export interface RouteCall<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>
  extends Input<P, Q, B> {
  req: Request;
  res: Response;
}

/** `/v1/accounts/:accountId/templates` → `/v1/accounts/{accountId}/templates`, as OpenAPI writes it. */
export function routeTemplate(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export class DeclaredRouter {
  readonly router: Router = express.Router({ mergeParams: true });

  /**
   * `base` is where the router is mounted; state-changing calls of a console session need the CSRF
   * header. `guards` run before every route's own `before` (and only for this router's routes).
   */
  constructor(
    private readonly contract: Contract,
    private readonly base: string,
    private readonly security: Security,
    private readonly guards: RequestHandler[] = [],
  ) {}

  on<P extends ObjectSchema, Q extends ObjectSchema, B extends BodySchema>(
    method: Method,
    path: string,
    spec: OperationSpec<P, Q, B>,
    handler: (call: RouteCall<P, Q, B>) => Promise<void> | void,
    /** Middleware that runs before the request is read (sessions, CSRF checks). */
    before: RequestHandler[] = [],
  ): void {
    const csrf = this.security === "consoleSession" && method !== "get";
    this.contract.add({
      method,
      path: routeTemplate(`${this.base}${path}`),
      security: this.security,
      extraParameters: csrf ? ["CsrfToken"] : [],
      spec: spec as never,
    });
    // A path with a secret in it is redacted for the logs by this route, before anything can fail.
    const redact = hasSecretParams(path) ? [redactSecretParams(path)] : [];
    this.router[method](path, ...redact, ...this.guards, ...before, async (req: Request, res: Response) => {
      await handler({ req, res, ...readInput(spec, req) });
    });
  }
}
