/**
 * Gives every request a fresh id (UUIDv7, echoed as X-Request-Id; ids from callers are not trusted,
 * since they key Recent Errors and event de-duplication), and runs the rest of the request inside
 * the call context, so logs and service calls carry it and service calls share its deadline.
 */

import { runWithCallContext, uuidv7 } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";

export function requestContext(timeoutMs: number) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const requestId = uuidv7();
    res.locals.requestId = requestId;
    res.locals.startedAt = performance.now();
    res.setHeader("X-Request-Id", requestId);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    // A client that hangs up ends the work done for it.
    res.on("close", () => {
      clearTimeout(timer);
      if (!res.writableFinished) controller.abort();
    });
    runWithCallContext({ requestId, deadline: Date.now() + timeoutMs, signal: controller.signal }, next);
  };
}
