/**
 * Bearer API keys for the public API: a missing, malformed, unknown, deleted or expired key is 401 (an
 * expired one saying so), a key of a workspace without API access 403; then the key's rate limit applies,
 * announced in RateLimit-* headers on every answer, and then its bound on requests in the works at once
 * (key-in-flight.ts), before the body is read.
 */
import { ACCESS_TOKEN_PATTERN, VIEW_CREDENTIAL_PATTERN } from "@countersign/domain";
import { enterDataMode } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import { budgetOf, type Caller, type KeyVerifier } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";
import type { RateDecision, RateLimiter } from "../rate-limiter.js";
import type { KeyInFlight } from "./key-in-flight.js";

const BEARER = /^Bearer[ ]+(\S+)$/i;
/** Keys are "sk_" (or "sk_test_") and 43 base62 digits; anything else never reaches auth. */
const KEY_SHAPE = /^sk_(?:test_)?[0-9A-Za-z]{43}$/;

export interface AuthenticateOptions {
  announce?: AnnounceLimit;
  /** Also take integrations' access tokens: DocuSign's way in, for `/restapi`. */
  acceptAccessTokens?: boolean;
  /** Also take embedded views' credentials: the native API, which a view's page calls. */
  acceptViewCredentials?: boolean;
}

/** A secret's kind by its prefix, with the shape auth issues it in; what else a door takes besides keys. */
const SECRET_KINDS = {
  key: { prefix: "sk_", shape: KEY_SHAPE, what: "an API key (sk_…)" },
  accessToken: { prefix: "oat_", shape: ACCESS_TOKEN_PATTERN, what: "an access token (oat_…)" },
  view: { prefix: "cvt_", shape: VIEW_CREDENTIAL_PATTERN, what: "an embedded view's credential (cvt_…)" },
} as const;

type SecretKind = keyof typeof SECRET_KINDS;

/** Why an unknown secret of each kind is refused, in words for whoever sent it. */
const NOT_VALID: Record<SecretKind, string> = {
  key: "this API key is not valid: it may have been deleted or mistyped",
  accessToken:
    "this access token is not valid: it expired, or its consent or integration was withdrawn; request a new one",
  view: "this view has ended: it lasts an hour from opening, and ends with the key that made it; open a new one",
};

/** How an answer tells the caller where its rate limit stands, allowed or not. */
export type AnnounceLimit = (res: Response, decision: RateDecision, calls: number) => void;

/** The public API's way: RateLimit-Limit, -Remaining and -Reset, of the key's burst. */
export const announceRateLimit: AnnounceLimit = (res, decision) => {
  res.setHeader("RateLimit-Limit", String(decision.limit));
  res.setHeader("RateLimit-Remaining", String(decision.remaining));
  res.setHeader("RateLimit-Reset", String(decision.resetSeconds));
};

/**
 * `inFlight` is shared by the doors that take the same key, so that one bound holds across them. A
 * request it refuses has spent its call: sending more at once than the key may costs the caller.
 */
export function authenticate(
  verifier: KeyVerifier,
  limiter: RateLimiter,
  inFlight: KeyInFlight,
  {
    announce = announceRateLimit,
    acceptAccessTokens = false,
    acceptViewCredentials = false,
  }: AuthenticateOptions = {},
) {
  const checkKey = requireKey(verifier, acceptAccessTokens, acceptViewCredentials);
  const takeTurn = inFlight.admit();
  return async (req: Request, res: Response, next: NextFunction) => {
    await checkKey(req, res, () => {
      spendCalls(limiter, res, 1, announce);
      takeTurn(req, res, next);
    });
  };
}

/** The key alone, for a door that decides what a request costs once it has read it (MCP batches). */
export function requireKey(verifier: KeyVerifier, acceptAccessTokens = false, acceptViewCredentials = false) {
  const taken: SecretKind[] = [
    "key",
    ...(acceptAccessTokens ? ["accessToken" as const] : []),
    ...(acceptViewCredentials ? ["view" as const] : []),
  ];
  const expected =
    taken.length === 1
      ? 'the Authorization header must be "Bearer " followed by an API key starting with sk_'
      : `the Authorization header must be "Bearer " followed by ${taken.map((k) => SECRET_KINDS[k].what).join(" or ")}`;
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get("authorization");
    if (!header) throw unauthorized('this request needs an API key: send "Authorization: Bearer <key>"');
    const secret = BEARER.exec(header)?.[1] ?? "";
    const kind = taken.find((k) => secret.startsWith(SECRET_KINDS[k].prefix));
    if (!kind) throw unauthorized(expected);
    // A secret of another shape was never issued: one cut short or mistyped in the copy, which auth
    // need not be asked about, and which the caller fixes as it fixes an unknown or deleted one.
    const caller = SECRET_KINDS[kind].shape.test(secret) ? await verifier.verify(secret) : undefined;
    if (!caller) throw unauthorized(NOT_VALID[kind]);
    if ("refused" in caller) throw unauthorized(caller.refused);
    res.locals.caller = caller;
    // From here every service call made for the request works on the key's own data only.
    enterDataMode(caller.test ? "test" : "live");
    if (!caller.apiAccessEnabled) {
      throw new ApiProblem(
        "forbidden",
        "API access is disabled for this workspace; an Organization Admin can enable it",
      );
    }
    next();
  };
}

/**
 * Takes `calls` from the authenticated caller's rate limit, all or none, and announces what is
 * left; past the limit it is 429 with Retry-After.
 */
export function spendCalls(
  limiter: RateLimiter,
  res: Response,
  calls: number,
  announce: AnnounceLimit = announceRateLimit,
): void {
  const decision = limiter.take(budgetOf(res.locals.caller as Caller), calls);
  announce(res, decision, calls);
  if (!decision.allowed) {
    throw new ApiProblem(
      "rate_limited",
      `this key may make ${limiter.ratePerSecond} calls a second (bursts of ${limiter.burst}); try again shortly`,
      undefined,
      { "Retry-After": String(decision.retryAfterSeconds) },
    );
  }
}

function unauthorized(detail: string): ApiProblem {
  return new ApiProblem("unauthorized", detail, undefined, {
    "WWW-Authenticate": 'Bearer realm="countersign"',
  });
}
