/**
 * CSRF protection for the console. The token is derived from the HttpOnly session token, so only a
 * page that was handed it (in the answer to log-in or to GET /console/api/session) can send it; no
 * cookie an attacker manages to plant, from a sibling subdomain say, can stand in for it. Derived
 * rather than stored or signed, every gateway replica recomputes it without a shared key.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { ApiProblem } from "../problems.js";
import { sessionCookie } from "./session-cookie.js";

/** Keeps the token from being any other hash of the session token (the auth service stores one). */
const CONTEXT = "countersign-csrf:";

export function csrfTokenFor(sessionToken: string): string {
  return createHash("sha256").update(`${CONTEXT}${sessionToken}`).digest("base64url");
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State-changing calls must carry the session's token in X-CSRF-Token and, when the browser says
 * where they come from, come from our own origin.
 */
export function csrfProtection(publicUrl: string) {
  const ownOrigin = new URL(publicUrl).origin;
  const cookie = sessionCookie(publicUrl);
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    if (origin && origin !== ownOrigin && origin !== originOf(req)) {
      throw new ApiProblem("forbidden", "cross-site request refused");
    }
    const session = cookie.read(req);
    const expected = Buffer.from(session ? csrfTokenFor(session) : "");
    const header = Buffer.from(req.get("x-csrf-token") ?? "");
    if (expected.length === 0 || header.length !== expected.length || !timingSafeEqual(header, expected)) {
      throw new ApiProblem("forbidden", "missing or wrong X-CSRF-Token header");
    }
    next();
  };
}

/** The origin the request was sent to, for deployments reached under more than one name. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? ""}`;
}
