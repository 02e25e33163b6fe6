/**
 * A table of routes inside an Express app, matched by one lookup in a compiled tree (find-my-way)
 * instead of Express's walk past every route's regular expression in turn. The public API has some
 * two hundred routes over its families, and that walk was a tenth of a ping's processor time.
 *
 * Matching keeps Express's defaults, so that clients see no difference: case does not matter, a
 * trailing slash is ignored, HEAD is answered by the GET route, OPTIONS says which methods a path
 * takes, a parameter that is not well percent-encoded is a 400. Handlers are Express handlers; one
 * that throws or rejects passes its error on, as in Express 5.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { Method } from "./declared-router.js";

const HTTP_METHODS: Record<Method, HTTPMethod> = {
  get: "GET",
  post: "POST",
  patch: "PATCH",
  put: "PUT",
  delete: "DELETE",
};

export class CompiledRoutes {
  private readonly tree = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true });
  private readonly methods = new Set<HTTPMethod>();
  /** Compiled at the first request, once the routes are in; a tree changed later compiles again itself. */
  private compiled = false;

  /** Adds a route; a second route of the same method and path is a mistake, and throws. */
  add(method: Method, path: string, handlers: RequestHandler[]): void {
    const verb = HTTP_METHODS[method];
    this.tree.on(verb, path, () => {}, handlers);
    this.methods.add(verb);
  }

  /** The Express middleware that runs the route a request matches, or passes it on when none does. */
  readonly dispatch: RequestHandler = (req, res, next) => {
    if (!this.compiled) {
      this.tree.compile();
      this.compiled = true;
    }
    const method = req.method === "HEAD" ? "GET" : (req.method as HTTPMethod);
    if (method === "OPTIONS") return this.answerOptions(req, res, next);
    const found = this.tree.find(method, req.path);
    if (!found) return next(this.undecodable(method, req.path));
    req.params = { ...(req.params as Record<string, string>), ...(found.params as Record<string, string>) };
    runHandlers(found.store as RequestHandler[], req, res, next);
  };

  /**
   * The error Express's router raises when a route would take the path but one of its parameters is
   * broken percent-encoding (the lookup finds nothing then); undefined for a path no route takes.
   */
  private undecodable(method: HTTPMethod, path: string): Error | undefined {
    if (!path.includes("%")) return undefined;
    const segments = path.split("/");
    const broken = segments.filter((segment) => !decodes(segment));
    if (broken.length === 0) return undefined;
    const mended = segments.map((segment) => (decodes(segment) ? segment : "_")).join("/");
    if (this.tree.find(method, mended) === null) return undefined;
    return Object.assign(new URIError(`Failed to decode param '${broken[0]}'`), { status: 400 });
  }

  private answerOptions(req: Request, res: Response, next: NextFunction): void {
    const allowed = [...this.methods].filter((method) => this.tree.find(method, req.path) !== null);
    if (allowed.length === 0) {
      next();
      return;
    }
    if (allowed.includes("GET")) allowed.push("HEAD");
    res.setHeader("Allow", allowed.join(", "));
    res.status(204).end();
  }
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs Express handlers in turn, each going on when it calls `next()`; an error leaves for `done`,
 * and so does a request all of them passed on.
 */
export function runHandlers(
  handlers: RequestHandler[],
  req: Request,
  res: Response,
  done: NextFunction,
): void {
  let index = 0;
  const step = (err?: unknown): void => {
    const handler = handlers[index++];
    if ((err !== undefined && err !== null) || !handler) {
      done(err);
      return;
    }
    try {
      const result: unknown = handler(req, res, step);
      if (result instanceof Promise)
        result.catch((rejected: unknown) => done(rejected ?? new Error("rejected")));
    } catch (thrown) {
      done(thrown);
    }
  };
  step();
}
