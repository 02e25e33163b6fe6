/**
 * The frame of every request: a fresh id (UUIDv7, echoed as X-Request-Id; ids from callers are not
 * trusted, since they key Recent Errors and event de-duplication), the call context the rest of the
 * request runs in (so logs and service calls carry the id and service calls share the deadline),
 * and the hooks that run once the response is done (the access log line, the API call record).
 * Every answer also tells browsers to believe its Content-Type rather than sniff one: a customer's
 * file must never be taken for a page of ours.
 */

import { type CallContext, runWithCallContext, uuidv7 } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";

export type ResponseEndHook = (req: Request, res: Response) => void;

export function requestContext(timeoutMs: number, onEnd: ResponseEndHook[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.once("finish", () => {
      for (const hook of onEnd) hook(req, res);
    });
    const requestId = uuidv7();
    res.locals.requestId = requestId;
    res.locals.startedAt = performance.now();
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    let controller: AbortController | undefined;
    const context: CallContext = {
      requestId,
      // The deadline needs no timer of its own: every service call made for the request is given
      // the time that is left.
      deadline: Date.now() + timeoutMs,
      // A client that hangs up ends the work done for it; the signal is made only for requests
      // that call a service.
      get signal() {
        if (!controller) {
          const made = new AbortController();
          res.once("close", () => {
            if (!res.writableFinished) made.abort();
          });
          controller = made;
        }
        return controller.signal;
      },
    };
    runWithCallContext(context, next);
  };
}
