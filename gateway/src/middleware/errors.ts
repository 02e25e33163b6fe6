/** The last two handlers: unknown routes, and every error as problem+json. */

import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import { ApiProblem, type ProblemCode, toProblem } from "../problems.js";
import { loggedPath } from "./redacted-path.js";

export function notFound(req: Request, res: Response) {
  throw new ApiProblem("not_found", `there is no ${req.method} ${loggedPath(req, res)}`);
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

/** Statuses of errors that Express, its router and body-parser raise about the client's request. */
const CLIENT_STATUSES: Record<number, ProblemCode> = {
  400: "invalid_request",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** Errors from Express's router, body-parser and zlib, in our terms; each one is the client's. */
export function fromHttpLayer(err: { type?: string; status?: number; code?: string; expose?: boolean }) {
  if (err instanceof URIError) {
    return new ApiProblem(
      "invalid_request",
      "the path holds a percent sign that is not valid percent-encoding",
    );
  }
  // zlib's codes (Z_DATA_ERROR …) and Brotli's (ERR__ERROR_FORMAT_…) for a body that is not what it claims.
  if (typeof err.code === "string" && /^(Z_|ERR__ERROR_)/.test(err.code)) {
    return new ApiProblem(
      "invalid_request",
      "the body could not be decompressed as its Content-Encoding says (gzip, deflate or br)",
    );
  }
  switch (err.type) {
    case "entity.parse.failed":
      return new ApiProblem("invalid_request", "the body is not valid JSON");
    case "entity.too.large":
      return new ApiProblem("payload_too_large", "the body (decompressed) is larger than this route accepts");
    case "charset.unsupported":
      return new ApiProblem("unsupported_media_type", "the body must be UTF-8 JSON");
    case "encoding.unsupported":
      return new ApiProblem(
        "unsupported_media_type",
        "Content-Encoding must be gzip, deflate, br or identity",
      );
    case "request.aborted":
    case "request.size.invalid":
      return new ApiProblem("invalid_request", "the request body ended early");
  }
  const status = err.status ?? 0;
  if (err.expose && status >= 400 && status < 500) {
    return new ApiProblem(CLIENT_STATUSES[status] ?? "invalid_request", "the request could not be read");
  }
  return undefined;
}

export function problemHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const translated = (err && typeof err === "object" && fromHttpLayer(err)) || err;
    const requestId = res.locals.requestId as string;
    const { problem, headers } = toProblem(translated, requestId, res.locals.traceId as string | undefined);
    // A client that hung up cancels the calls made for it; that is not a fault of ours.
    const clientLeft = req.destroyed && err instanceof ConnectError && err.code === Code.Canceled;
    if (clientLeft)
      logger.info({ requestId, method: req.method, path: loggedPath(req, res) }, "the client went away");
    else if (problem.status >= 500 && problem.code !== "unavailable") {
      logger.error({ err, requestId, method: req.method, path: loggedPath(req, res) }, "request failed");
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
    const body = JSON.stringify(problem);
    res.locals.problemBody = body;
    res.status(problem.status).set(headers).type("application/problem+json").send(body);
  };
}
