/** The last two handlers: unknown routes, and every error as problem+json. */

import type { Logger } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import { ApiProblem, toProblem } from "../problems.js";

export function notFound(req: Request) {
  throw new ApiProblem("not_found", `there is no ${req.method} ${req.path}`);
}

/** How much of a refused body we read and throw away so that the client can read our answer. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * A body refused before anyone read it (an upload announced as too large). Clients keep sending it
 * and only then read the answer, so it is read and thrown away, up to a bound past which the
 * connection is cut.
 */
function discardUnreadBody(req: Request): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** body-parser's errors, in our terms. */
function fromBodyParser(err: { type?: string; status?: number }): ApiProblem | undefined {
  switch (err.type) {
    case "entity.parse.failed":
      return new ApiProblem("invalid_request", "the body is not valid JSON");
    case "entity.too.large":
      return new ApiProblem("payload_too_large", "the body is larger than this route accepts");
    case "charset.unsupported":
    case "encoding.unsupported":
      return new ApiProblem("unsupported_media_type", "the body must be UTF-8 JSON");
    case "request.aborted":
      return new ApiProblem("invalid_request", "the request body ended early");
    default:
      return undefined;
  }
}

export function problemHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const translated = (err && typeof err === "object" && fromBodyParser(err as { type?: string })) || err;
    const requestId = res.locals.requestId as string;
    const { problem, headers } = toProblem(translated, requestId);
    if (problem.status >= 500 && problem.code !== "unavailable") {
      logger.error({ err, requestId, method: req.method, path: req.path }, "request failed");
    }
    res.locals.problemCode = problem.code;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (!req.complete) {
      // A body that a handler began to stream cannot be handed back cleanly: close the connection.
      // One nobody touched yet is read and thrown away, so the client can read this answer.
      if (res.locals.bodyStreaming) res.set("Connection", "close");
      else discardUnreadBody(req);
    }
    res.status(problem.status).set(headers).type("application/problem+json").send(JSON.stringify(problem));
  };
}
