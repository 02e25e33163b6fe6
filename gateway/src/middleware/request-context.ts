/**
 * The frame of every request: a fresh id (UUIDv7, echoed as X-Request-Id; ids from callers are not
 * trusted, since they key Recent Errors and event de-duplication), the call context the rest of the
 * request runs in (so logs and service calls carry the id and service calls share the deadline),
 * and the hooks that run once the response is done (the access log line, the API call record).
 * Every answer also tells browsers to believe its Content-Type rather than sniff one: a customer's
 * file must never be taken for a page of ours.
 */

import {
  type CallContext,
  contextFrom,
  runWithCallContext,
  SpanKind,
  SpanStatusCode,
  startSpan,
  TRACEPARENT,
  tracingEnabled,
  uuidv7,
  withContext,
} from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import { loggedPath } from "./redacted-path.js";

export type ResponseEndHook = (req: Request, res: Response) => void;

export function requestContext(timeoutMs: number, onEnd: ResponseEndHook[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    // Once, when the answer is sent or the caller left before it was: a request that timed out or
    // was given up on has its log line too.
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      for (const hook of onEnd) hook(req, res);
    };
    res.once("finish", end);
    res.once("close", end);
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
    if (!tracingEnabled()) {
      runWithCallContext(context, next);
      return;
    }
    const traced = serverSpan(req, res);
    if (!traced) runWithCallContext(context, next);
    else withContext(traced, () => runWithCallContext(context, next));
  };
}

/**
 * The request's SERVER span, a child of the caller's `traceparent` where it sent one, ended when
 * the response is done (or the client left); its trace id goes on the access log line and on any
 * problem answered. Named by the route the request matched, as OpenTelemetry's HTTP conventions ask.
 */
function serverSpan(req: Request, res: Response) {
  const header = req.headers[TRACEPARENT];
  const started = startSpan(req.method, {
    kind: SpanKind.SERVER,
    parent: contextFrom(typeof header === "string" ? header : undefined),
  });
  if (!started) return undefined;
  const { span } = started;
  // A request the sampler left out still passes its decision on (its context), and costs no more.
  if (!span.isRecording()) return started.context;
  res.locals.traceId = span.spanContext().traceId;
  span.setAttributes({
    "http.request.method": req.method,
    "url.scheme": req.protocol,
    "user_agent.original": req.headers["user-agent"] ?? "",
  });
  const end = () => {
    // As the access log writes it: a signing link's or key's token in the path is redacted.
    span.setAttribute("url.path", loggedPath(req, res));
    const route = res.locals.route as string | undefined;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute("http.route", route);
    }
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.setAttribute("error.type", "client_closed");
    span.end();
  };
  res.once("close", end);
  return started.context;
}
