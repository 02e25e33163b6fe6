/**
 * Errors as DocuSign's eSignature REST API writes them: `{ errorCode, message }`, with DocuSign's
 * codes, and 400 for business errors as DocuSign answers them (clients key on `errorCode`). The
 * gateway's and the services' errors are read once by `toProblem`, as for the native API, and only
 * their code is translated here; a route names the codes its own "not found" and "wrong state" take.
 */
import type { Request, Response } from "express";
import { fromHttpLayer } from "../middleware/errors.js";
import { type Problem, type ProblemCode, toProblem } from "../problems.js";

/** An error the compatibility layer raises itself, already in DocuSign's terms. */
export class DocuSignError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export const invalidParameter = (message: string) =>
  new DocuSignError(400, "INVALID_REQUEST_PARAMETER", message);
export const invalidBody = (message: string) => new DocuSignError(400, "INVALID_REQUEST_BODY", message);

/** What a route calls its errors: the thing it looks up, and the state its action needs. */
export interface ErrorNames {
  notFound?: string;
  invalidState?: string;
}

const BY_CODE: Partial<Record<ProblemCode, [status: number, errorCode: string]>> = {
  unauthorized: [401, "USER_AUTHENTICATION_FAILED"],
  forbidden: [403, "USER_LACKS_PERMISSIONS"],
  insufficient_scope: [403, "USER_LACKS_PERMISSIONS"],
  invalid_request: [400, "INVALID_REQUEST_PARAMETER"],
  validation_failed: [400, "INVALID_REQUEST_BODY"],
  unsupported_media_type: [415, "INVALID_CONTENT_TYPE"],
  payload_too_large: [413, "MAX_ENVELOPE_SIZE_EXCEEDED"],
  rate_limited: [429, "HOURLY_APIINVOCATION_LIMIT_EXCEEDED"],
  gone: [400, "INVALID_REQUEST_PARAMETER"],
  conflict: [409, "CONCURRENT_UPDATE"],
  method_not_allowed: [405, "METHOD_NOT_ALLOWED"],
  unavailable: [503, "SERVICE_UNAVAILABLE"],
  request_timeout: [408, "REQUEST_TIMEOUT"],
};

/** The message of a problem, with each violated rule named by its path. */
function messageOf(problem: Problem): string {
  if (problem.errors.length === 0) return problem.detail;
  return `${problem.detail.replace(/: see errors$/, "")}: ${problem.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`;
}

export function toDocuSignError(
  err: unknown,
  requestId: string,
  names: ErrorNames = {},
): { error: DocuSignError; headers: Record<string, string> } {
  if (err instanceof DocuSignError) return { error: err, headers: {} };
  if ((err as { type?: unknown } | null)?.type === "entity.parse.failed") {
    return { error: invalidBody("the body is not valid JSON"), headers: {} };
  }
  const translated = (err && typeof err === "object" && fromHttpLayer(err)) || err;
  const { problem, headers } = toProblem(translated, requestId);
  let mapped = BY_CODE[problem.code];
  if (problem.code === "not_found") mapped = [400, names.notFound ?? "RESOURCE_DOES_NOT_EXIST"];
  if (problem.code === "invalid_state") mapped = [400, names.invalidState ?? "ENVELOPE_INVALID_STATUS"];
  const [status, errorCode] = mapped ?? [500, "UNSPECIFIED_ERROR"];
  return { error: new DocuSignError(status, errorCode, messageOf(problem)), headers };
}

/** Writes an error as DocuSign does; Recent Errors shows the errorCode the client saw. */
export function sendDocuSignError(
  req: Request,
  res: Response,
  err: unknown,
  names: ErrorNames = {},
): DocuSignError {
  const { error, headers } = toDocuSignError(err, res.locals.requestId as string, names);
  res.locals.problemCode = error.errorCode;
  if (!req.complete) res.set("Connection", "close");
  const body = { errorCode: error.errorCode, message: error.message };
  res.locals.problemBody = JSON.stringify(body);
  res.status(error.status).set(headers).json(body);
  return error;
}
