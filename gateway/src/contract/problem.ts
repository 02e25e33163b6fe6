/**
 * Errors (RFC 9457 problem details) and the response headers every answer carries, as the OpenAPI
 * document names them: one component per status, referred to by every operation that can answer it.
 */
import { API_SCOPES, ENDED_REASONS } from "@countersign/domain";
import { z } from "zod";
import { PROBLEM_CODES } from "../problems.js";

export const Problem = z
  .strictObject({
    type: z.string().meta({ format: "uri" }),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.enum(PROBLEM_CODES),
    requestId: z.string(),
    traceId: z.string().optional().meta({
      description:
        "The OpenTelemetry trace of the request, where the service traces it (OTEL_* configuration): the id to look for in Jaeger or Tempo.",
    }),
    errors: z
      .array(z.strictObject({ path: z.string(), message: z.string() }))
      .meta({ description: "One entry per broken rule; empty unless the code is validation_failed." }),
    ended: z
      .strictObject({
        reason: z.enum(ENDED_REASONS),
        completedAt: z
          .string()
          .optional()
          .meta({ description: "When the request completed (copy_expired)." }),
        copyDays: z.int().optional().meta({
          description: "How many days a completed request's link opens the signed copy (copy_expired).",
        }),
      })
      .optional()
      .meta({
        description:
          "For a signing link or session that is gone (410): why, as a code the signing page says in the signer's language; `detail` says it in English.",
      }),
    requiredScope: z.enum(API_SCOPES).optional().meta({
      description: "For `insufficient_scope` (403): the API key scope the operation needs.",
    }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details." });

/** The problems an operation can answer, by status, with what each means. */
export const PROBLEM_RESPONSES = {
  400: ["BadRequest", "`invalid_request`: a malformed body, query or path."],
  401: [
    "Unauthorized",
    "`unauthorized`: a missing, malformed, unknown or deleted key (or no console session).",
  ],
  403: [
    "Forbidden",
    "`forbidden`: API access is disabled for the workspace, or the caller may not do this; `insufficient_scope`: the API key lacks the scope the operation needs, named in `requiredScope`.",
  ],
  404: ["NotFound", "`not_found`: no such resource in this workspace."],
  409: ["Conflict", "`invalid_state`: not allowed in the resource's current state; or `conflict`."],
  410: ["Gone", "`gone`: the link or resource no longer exists."],
  413: ["PayloadTooLarge", "`payload_too_large`: the body is larger than this route accepts."],
  415: [
    "UnsupportedMediaType",
    "`unsupported_media_type`: a body of a type or encoding this route does not read.",
  ],
  422: ["ValidationFailed", "`validation_failed`: one entry in `errors` per broken rule."],
  429: [
    "RateLimited",
    "`rate_limited`: past the key's calls a second or its requests in the works at once, or a route's own limit; wait `Retry-After` seconds.",
  ],
  500: ["Internal", "`internal`: our fault; the request id identifies it in our logs."],
  503: ["Unavailable", "`unavailable`: a dependency is down; retry after `Retry-After` seconds."],
} as const;

export type ProblemStatus = keyof typeof PROBLEM_RESPONSES;

export const HEADERS: Record<
  string,
  { description: string; schema: { type: "string" | "integer"; enum?: string[] } }
> = {
  "X-Request-Id": {
    description: "Identifies this request in logs and in Recent Errors.",
    schema: { type: "string" },
  },
  "RateLimit-Limit": { description: "Calls the key may burst.", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Calls left in the burst now.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the burst is full again.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
  "Idempotent-Replayed": {
    description:
      "`true` when the answer is the stored answer to an earlier call with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

export function problemComponents() {
  return Object.fromEntries(
    Object.values(PROBLEM_RESPONSES).map(([name, description]) => [
      name,
      {
        description,
        headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
        content: { "application/problem+json": { schema: Problem } },
      },
    ]),
  );
}
