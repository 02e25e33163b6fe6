/**
 * Errors as RFC 9457 problem details. Deep code throws ConnectErrors (or ApiProblems for what only
 * HTTP knows, like a too-large body); this one table turns them into statuses and codes.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ApiScope } from "@countersign/domain";
import { RetryAfterSchema, SigningEndedSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { type FieldViolation, fieldViolations, problemOf } from "@countersign/kit";

export type ProblemCode =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "insufficient_scope"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "invalid_state"
  | "gone"
  | "payload_too_large"
  | "unsupported_media_type"
  | "validation_failed"
  | "rate_limited"
  | "headers_too_large"
  | "request_timeout"
  | "internal"
  | "not_implemented"
  | "unavailable";

const TITLES: Record<ProblemCode, [status: number, title: string]> = {
  invalid_request: [400, "Bad request"],
  unauthorized: [401, "Unauthorized"],
  forbidden: [403, "Forbidden"],
  insufficient_scope: [403, "Insufficient scope"],
  not_found: [404, "Not found"],
  method_not_allowed: [405, "Method not allowed"],
  conflict: [409, "Conflict"],
  invalid_state: [409, "Invalid state"],
  gone: [410, "Gone"],
  payload_too_large: [413, "Payload too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  validation_failed: [422, "Validation failed"],
  rate_limited: [429, "Too many requests"],
  headers_too_large: [431, "Request header fields too large"],
  request_timeout: [408, "Request timeout"],
  internal: [500, "Internal error"],
  not_implemented: [501, "Not implemented"],
  unavailable: [503, "Service unavailable"],
};

export const PROBLEM_CODES = Object.keys(TITLES) as [ProblemCode, ...ProblemCode[]];

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  requestId: string;
  /** The request's trace, where this process traces it. */
  traceId?: string;
  /** One entry per violated rule; empty unless the code is validation_failed. */
  errors: FieldViolation[];
  /** For a signing link or session that is gone: why, as a code pages say in the signer's language. */
  ended?: SigningEndedJson;
  /** For insufficient_scope: the scope the operation needs. */
  requiredScope?: string;
}

export interface SigningEndedJson {
  reason: string;
  completedAt?: string;
  copyDays?: number;
}

/** Why a signing link or session is gone, where the requests service said (SigningEnded). */
export function signingEndedOf(err: ConnectError): SigningEndedJson | undefined {
  const ended = err.findDetails(SigningEndedSchema)[0];
  if (!ended) return undefined;
  return {
    reason: ended.reason,
    ...(ended.completedTime ? { completedAt: timestampDate(ended.completedTime).toISOString() } : {}),
    ...(ended.copyDays ? { copyDays: ended.copyDays } : {}),
  };
}

/** An error the gateway itself raises, already in HTTP terms. */
export class ApiProblem extends Error {
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly errors?: FieldViolation[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/**
 * A key without the scope an operation needs: 403 naming the scope, in the problem and, as RFC 6750
 * says a bearer token's missing scope is named, in WWW-Authenticate.
 */
export class InsufficientScope extends ApiProblem {
  constructor(readonly scope: ApiScope) {
    super(
      "insufficient_scope",
      `this API key lacks the scope "${scope}" that this operation needs; an Organization Admin can create a key with it`,
      undefined,
      { "WWW-Authenticate": `Bearer realm="countersign", error="insufficient_scope", scope="${scope}"` },
    );
  }
}

const FROM_CONNECT: Partial<Record<Code, ProblemCode>> = {
  [Code.InvalidArgument]: "invalid_request",
  [Code.OutOfRange]: "invalid_request",
  [Code.NotFound]: "not_found",
  [Code.AlreadyExists]: "conflict",
  [Code.Aborted]: "conflict",
  [Code.FailedPrecondition]: "invalid_state",
  [Code.Unauthenticated]: "unauthorized",
  [Code.PermissionDenied]: "forbidden",
  [Code.ResourceExhausted]: "rate_limited",
  [Code.Unimplemented]: "not_implemented",
  [Code.Unavailable]: "unavailable",
  [Code.DeadlineExceeded]: "unavailable",
};

/** Seconds a client should wait after a 503 before trying again. */
const UNAVAILABLE_RETRY_AFTER = "5";

export function toProblem(
  err: unknown,
  requestId: string,
  traceId?: string,
): { problem: Problem; headers: Record<string, string> } {
  let code: ProblemCode = "internal";
  let detail = "something went wrong on our side; the request id identifies it in our logs";
  let errors: FieldViolation[] | undefined;
  let headers: Record<string, string> = {};
  let ended: SigningEndedJson | undefined;
  const requiredScope = err instanceof InsufficientScope ? err.scope : undefined;
  if (err instanceof ApiProblem) {
    ({ code, errors, headers } = err);
    detail = err.message;
  } else if (err instanceof ConnectError) {
    code = FROM_CONNECT[err.code] ?? "internal";
    if (code !== "internal") detail = err.rawMessage;
    const named = problemOf(err);
    if (named && named in TITLES) code = named as ProblemCode;
    const violations = fieldViolations(err);
    if (err.code === Code.InvalidArgument && violations.length > 0) {
      code = "validation_failed";
      errors = violations;
    }
    if (code === "unavailable") detail = "a service this request needs is not answering; try again shortly";
    const retryAfter = err.findDetails(RetryAfterSchema)[0];
    if (retryAfter) headers = { "Retry-After": String(retryAfter.seconds) };
    ended = signingEndedOf(err);
  }
  if (code === "unavailable") headers = { "Retry-After": UNAVAILABLE_RETRY_AFTER, ...headers };
  const [status, title] = TITLES[code];
  return {
    problem: {
      type: `urn:countersign:problem:${code}`,
      title,
      status,
      detail,
      code,
      requestId,
      ...(traceId ? { traceId } : {}),
      errors: errors ?? [],
      ...(ended ? { ended } : {}),
      ...(requiredScope ? { requiredScope } : {}),
    },
    headers,
  };
}
