/**
 * DocuSign's OAuth endpoints, as its `docusign-esign` client calls them (docs/restapi.md "OAuth"):
 * the client's `setOAuthBasePath` names our host, `requestJWTUserToken` posts a signed assertion to
 * `/oauth/token`, `getUserInfo` reads `/oauth/userinfo` for the account's `base_uri`, and a person
 * consents once through `/oauth/auth`, which opens the console's consent page. Answers take OAuth's
 * shapes (RFC 6749 §5), not problem+json: that is what the client reads.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import express, { type Request, type Response, type Router } from "express";
import { RateLimiter } from "../rate-limiter.js";

export const OAUTH_BASE = "/oauth";
const OAUTH_PATHS = ["/token", "/userinfo", "/auth"];
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const BEARER = /^Bearer[ ]+(\S+)$/i;
/** A compact JWT signed with a 4096-bit key is under 1 KiB of signature; 8 KiB leaves room for claims. */
const MAX_ASSERTION_LENGTH = 8 * 1024;

export interface OAuthRoutesOptions {
  auth: Client<typeof AuthService>;
  /** The public base URL: its host is the audience assertions must name, its origin the accounts' base_uri. */
  publicUrl: string;
}

export function oauthRoutes({ auth, publicUrl }: OAuthRoutesOptions): Router {
  const router = express.Router();
  const audience = new URL(publicUrl).host;
  // A grant costs auth a signature check and a write: a few a second per address is what a
  // program renewing its token hourly needs, with room for a fleet behind one address.
  const grants = new RateLimiter(5, 50);
  // Named in metrics, traces and the access log by their own paths; any other path stays unnamed,
  // so that no caller can add a series.
  router.use((req, res, next) => {
    if (OAUTH_PATHS.includes(req.path)) res.locals.route = `${OAUTH_BASE}${req.path}`;
    next();
  });

  router.post("/token", express.urlencoded({ extended: false, limit: 16 * 1024 }), async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Pragma", "no-cache");
    const limit = grants.take(req.ip ?? "unknown");
    if (!limit.allowed) {
      res.setHeader("Retry-After", String(limit.retryAfterSeconds));
      return oauthError(
        res,
        429,
        "slow_down",
        "too many token requests from this address; try again shortly",
      );
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== JWT_BEARER) {
      return oauthError(
        res,
        400,
        "unsupported_grant_type",
        `Countersign offers the JWT grant only: grant_type must be ${JWT_BEARER}`,
      );
    }
    const assertion = body.assertion;
    if (typeof assertion !== "string" || assertion.length === 0 || assertion.length > MAX_ASSERTION_LENGTH) {
      return oauthError(res, 400, "invalid_request", "the assertion (a signed JWT) is missing or too long");
    }
    const answer = await auth.exchangeJwtAssertion({ assertion, audience });
    if (answer.error) return oauthError(res, 400, answer.error, answer.errorDescription);
    res.json({
      access_token: answer.accessToken,
      token_type: "Bearer",
      expires_in: answer.expiresIn,
      scope: answer.scopes.join(" "),
    });
  });

  router.get("/userinfo", async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const token = BEARER.exec(req.get("authorization") ?? "")?.[1];
    if (!token) return invalidToken(res, 'send the access token: "Authorization: Bearer <token>"');
    try {
      const user = await auth.getUserInfo({ accessToken: token });
      const created = user.createTime ? timestampDate(user.createTime).toISOString() : "";
      res.json({
        sub: user.userId,
        // Countersign keeps a person's e-mail, not their name: it stands for both.
        name: user.email,
        given_name: "",
        family_name: "",
        created,
        email: user.email,
        accounts: [
          {
            account_id: user.workspaceId,
            is_default: true,
            account_name: user.workspaceName,
            base_uri: new URL(publicUrl).origin,
          },
        ],
      });
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.Unauthenticated) {
        return invalidToken(res, "the access token is unknown, expired or withdrawn");
      }
      throw err;
    }
  });

  // The authorization request opens the console's consent page, which checks the integration and
  // its redirect URI before anything else, and asks the person to log in first where they are not.
  router.get("/auth", (req: Request, res: Response) => {
    const query = new URLSearchParams(req.originalUrl.split("?")[1] ?? "");
    if (query.get("response_type") !== "code") {
      return oauthError(
        res,
        400,
        "unsupported_response_type",
        "response_type must be code: the consent Countersign records is for the JWT grant",
      );
    }
    res.redirect(302, `/console/oauth/consent?${query.toString()}`);
  });

  return router;
}

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json(description ? { error, error_description: description } : { error });
}

function invalidToken(res: Response, description: string): void {
  res.setHeader("WWW-Authenticate", `Bearer realm="countersign", error="invalid_token"`);
  oauthError(res, 401, "invalid_token", description);
}
