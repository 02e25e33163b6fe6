/**
 * One log line per request, written when the response is done. It carries the path (secret segments
 * redacted) but never the query string, headers or body, where secrets may travel.
 */

import type { Logger } from "@countersign/kit";
import type { Request, Response } from "express";
import { loggedPath } from "./redacted-path.js";
import type { ResponseEndHook } from "./request-context.js";

export function accessLog(logger: Logger): ResponseEndHook {
  return (req: Request, res: Response) => {
    logger.info(
      {
        requestId: res.locals.requestId,
        method: req.method,
        path: loggedPath(req, res),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - (res.locals.startedAt as number)) * 100) / 100,
        keyId: res.locals.caller?.keyId,
      },
      "request",
    );
  };
}
