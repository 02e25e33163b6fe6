/**
 * The DocuSign-compatible base path (docs/design.md §7): `/restapi/v2.1/accounts/{accountId}/…` answers
 * what the `docusign-esign` client asks in its common flow, so a program written for DocuSign's
 * eSignature API changes only its base path. Each route maps onto the service calls the native API
 * makes — there is no second domain model — and writes DocuSign's shapes: its status names, numbers
 * as strings, no nulls, and `{ errorCode, message }` errors.
 *
 * The API's keys authenticate, and so do the access tokens of DocuSign's JWT grant (oauth/), under
 * the same rate limit and the same bound on requests in the works at once as the native API; the
 * account in the path must be the key's or the token's. Calls are recorded for Recent Errors and
 * API Usage under their route, with the errorCode the client saw.
 */

import type { Logger } from "@countersign/kit";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { requireScopes } from "../contract/scope-requirements.js";
import { routeTemplate } from "../declared-router.js";
import type { Caller, KeyVerifier } from "../key-verifier.js";
import { authenticate } from "../middleware/authenticate.js";
import { type BodyBudget, budgetedJson } from "../middleware/body-budget.js";
import type { KeyInFlight } from "../middleware/key-in-flight.js";
import type { RateLimiter } from "../rate-limiter.js";
import { bulkSendRoutes } from "./bulk-send-routes.js";
import { DocuSignError, type ErrorNames, sendDocuSignError } from "./docusign-errors.js";
import { envelopeRoutes } from "./envelope-routes.js";
import { announceDocuSignLimits } from "./rate-limit-headers.js";
import { recipientRoutes } from "./recipient-routes.js";
import type { On, RestApiServices } from "./route.js";
import { templateRoutes } from "./template-routes.js";
import { viewRoutes } from "./view-routes.js";

export const RESTAPI_BASE = "/restapi";
const ACCOUNT = "/v2.1/accounts/:accountId";

export interface RestApiOptions extends RestApiServices {
  verifier: KeyVerifier;
  limiter: RateLimiter;
  /** The native API's bound on a key's requests in the works, so that one bound holds across both. */
  inFlight: KeyInFlight;
  logger: Logger;
  uploadBytes: number;
  /** Memory for bodies, shared with the gateway's other routes. */
  bodies: BodyBudget;
}

export function restApiRoutes(options: RestApiOptions): Router {
  const { verifier, limiter, inFlight, logger } = options;
  const router = express.Router();
  const key = authenticate(verifier, limiter, inFlight, {
    announce: announceDocuSignLimits(limiter),
    acceptAccessTokens: true,
  });
  // Envelopes carry their documents as base64 (4/3 of the bytes): one at the upload limit, or several
  // smaller, in a body a gateway can hold within its memory (body-budget.ts).
  const json = budgetedJson(options.bodies, { limit: Math.ceil(options.uploadBytes / 3) * 4 + 1024 * 1024 });

  const on: On = (method, path, scope, names, handler) => {
    router[method](
      `${ACCOUNT}${path}`,
      (_req: Request, res: Response, next: NextFunction) => {
        res.locals.route = routeTemplate(`${RESTAPI_BASE}${ACCOUNT}${path}`);
        res.locals.errorNames = names;
        next();
      },
      key,
      json,
      async (req: Request, res: Response) => {
        const caller = res.locals.caller as Caller;
        if (String(req.params.accountId).toLowerCase() !== caller.workspaceId) {
          throw new DocuSignError(
            400,
            "USER_LACKS_MEMBERSHIP",
            "the API key or access token does not belong to the account in the path",
          );
        }
        requireScopes(caller, typeof scope === "string" ? [scope] : scope);
        await handler(req, res, caller);
      },
    );
  };

  envelopeRoutes(on, options, options.uploadBytes, logger);
  recipientRoutes(on, options);
  templateRoutes(on, options);
  viewRoutes(on, options);
  bulkSendRoutes(on, options);

  router.use((req: Request) => {
    throw new DocuSignError(
      404,
      "RESOURCE_NOT_FOUND",
      `there is no ${req.method} ${RESTAPI_BASE}${req.path} in Countersign's DocuSign-compatible API`,
    );
  });
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const error = sendDocuSignError(req, res, err, res.locals.errorNames as ErrorNames | undefined);
    if (error.status >= 500 && error.errorCode !== "SERVICE_UNAVAILABLE") {
      logger.error({ err, requestId: res.locals.requestId, path: req.path }, "restapi request failed");
    }
  });
  return router;
}
