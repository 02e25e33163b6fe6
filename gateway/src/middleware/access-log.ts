/**
 * One log line per request, written when the response is done or the caller left. It carries the path (secret segments
 * redacted) but never the query string, headers or body, where secrets may travel.
 */

import { type Logger, plainInfoWriter } from "@countersign/kit";
import type { Request, Response } from "express";
import { loggedPath } from "./redacted-path.js";
import type { ResponseEndHook } from "./request-context.js";

export function accessLog(logger: Logger): ResponseEndHook {
  const write = plainInfoWriter(logger);
  return (req: Request, res: Response) => {
    write(
      {
        requestId: res.locals.requestId as string,
        traceId: res.locals.traceId as string | undefined,
        method: req.method,
        path: loggedPath(req, res),
        // nginx's 499: the caller left before the answer was sent.
        status: res.writableFinished ? res.statusCode : 499,
        durationMs: Math.round((performance.now() - (res.locals.startedAt as number)) * 100) / 100,
        keyId: (res.locals.caller as { keyId?: string } | undefined)?.keyId,
      },
      "request",
    );
  };
}
