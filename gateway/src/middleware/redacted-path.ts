/**
 * Paths as logs and API Usage may keep them. Some paths carry a secret: a signing link
 * (`/sign/{token}`) is a bearer credential for one signer, an embedded view's URL
 * (`/console/views/{ticket}`) one for a flow, and a log line must not hand either on.
 * The route that matched knows which of its segments is the secret (`redactSecretParams`): it
 * redacts the path as the router read it, whatever its spelling (`/SIGN/…` opens a link too,
 * since routing ignores case). A request no route took (refused before routing, or found
 * nowhere) is redacted by the same rule, case-insensitively. Query strings are never kept at all.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

const REDACTED = "[redacted]";

/** Route parameters whose values are credentials: a signing link's, an embedded view's URL's. */
const SECRET_PARAMS = new Set(["token", "ticket"]);

/** A signing link's path as the signing routes take it, however it is spelled. */
const SIGNING_TOKEN = /^\/sign\/(?!(?:api|assets)(?:\/|$)|index\.html$)[^/]+/i;

/** An embedded view's URL, however it is spelled. */
const VIEW_TICKET = /^\/console\/views\/[^/]+/i;

export function redactedPath(path: string): string {
  return path
    .replace(SIGNING_TOKEN, (match) => `${match.slice(0, "/sign/".length)}${REDACTED}`)
    .replace(VIEW_TICKET, (match) => `${match.slice(0, "/console/views/".length)}${REDACTED}`);
}

/** Whether a route path (`/:token`) names a secret parameter, so its matches must be redacted. */
export function hasSecretParams(path: string): boolean {
  return [...path.matchAll(/:(\w+)/g)].some(([, name]) => SECRET_PARAMS.has(name ?? ""));
}

/**
 * Middleware of a route (`routePath`, as it was declared) with secret parameters: the path the log
 * keeps is the route's own, as the router matched it, with each secret replaced — built from the
 * route, not by searching the address, which may spell the secret in any percent-encoding.
 */
export function redactSecretParams(routePath: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const shown = routePath.replace(/:(\w+)/g, (_, name: string) =>
      SECRET_PARAMS.has(name) ? REDACTED : encodeURIComponent(String(req.params[name] ?? "")),
    );
    res.locals.loggedPath = `${req.baseUrl}${shown}`;
    next();
  };
}

/**
 * The path a request was made to, redacted. Inside a router mounted at a prefix (`/sign`,
 * `/console/api`) Express shortens `req.path`; `originalUrl` keeps the whole of it.
 */
export function loggedPath(req: Request, res: Response): string {
  const matched = res.locals.loggedPath as string | undefined;
  if (matched !== undefined) return matched;
  return redactedPath(req.originalUrl.split("?")[0] ?? "");
}
