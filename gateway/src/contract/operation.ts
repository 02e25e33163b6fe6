/**
 * An operation of the HTTP surface, declared once: its parameters, query and body as zod schemas,
 * its answers, and the problems it can answer with. The same declaration reads and checks every
 * request at the edge and writes the operation into the OpenAPI document, so the two cannot drift.
 */
import type { Request } from "express";
import type { z } from "zod";
import type { ZodOpenApiContentObject, ZodOpenApiOperationObject } from "zod-openapi";
import { ApiProblem } from "../problems.js";
import { PROBLEM_RESPONSES, type ProblemStatus } from "./problem.js";
import { type ScopeRequirement, scopeSentence, scopesOf } from "./scope-requirements.js";
import { describeIssue, violationsOf } from "./violations.js";

type Schema = z.ZodType;
type ObjectSchema = z.ZodObject;

export interface Answer {
  description: string;
  /** The JSON body; none when absent and `content` is not given. */
  schema?: Schema;
  /** Bodies of other media types (downloads). */
  content?: ZodOpenApiContentObject;
}

export type Security = "apiKey" | "consoleSession" | "signingSession" | "none";

export interface OperationSpec<
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends Schema | undefined = undefined,
> {
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  /** A JSON body; an absent body is read as `{}`. */
  body?: B;
  /** A body the handler streams itself (uploads), documented by its media types. */
  streamedBody?: ZodOpenApiContentObject;
  answers: Record<number, Answer>;
  problems: ProblemStatus[];
  /**
   * The API key scopes the operation needs (scope-requirements.ts); null when any valid key may call
   * it. Every operation of the keyed families declares them (PublicApi's types require it); a console
   * session is held to its member's role instead.
   */
  scope?: ScopeRequirement["scope"];
  conditionalScopes?: ScopeRequirement["conditionalScopes"];
  proposable?: true;
  /**
   * The handler honours a call's `dryRun` (an MCP tool's): it checks the call as it would run and
   * answers what it would answer, and changes nothing. Every operation a write tool runs has one.
   */
  dryRun?: true;
}

type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface Input<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

function joined(error: z.ZodError): string {
  return violationsOf(error)
    .map((v) => `${v.path} ${v.message}`)
    .join("; ");
}

/** Reads a request by its declaration: 400 for a bad path or query, 422 with every violation for a bad body. */
export function readInput<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends Schema | undefined,
>(spec: OperationSpec<P, Q, B>, req: Request): Input<P, Q, B> {
  const read = (schema: Schema | undefined, value: unknown, where: "path" | "query") => {
    if (!schema) return undefined;
    const parsed = schema.safeParse(value, { error: describeIssue });
    if (!parsed.success)
      throw new ApiProblem("invalid_request", `the ${where} is not valid: ${joined(parsed.error)}`);
    return parsed.data;
  };
  const params = read(spec.params, req.params, "path");
  const query = read(spec.query, req.query, "query");
  let body: unknown;
  if (spec.body) {
    const parsed = spec.body.safeParse(req.body ?? {}, { error: describeIssue });
    if (!parsed.success) {
      throw new ApiProblem(
        "validation_failed",
        "the body is not valid: see errors",
        violationsOf(parsed.error),
      );
    }
    body = parsed.data;
  }
  return { params, query, body } as Input<P, Q, B>;
}

/**
 * The security schemes (openapi.ts) a kind of caller may present, any one of them: a signing page
 * names its session by cookie, or by header inside another site's frame, where it has no cookie.
 */
const SCHEMES: Record<Security, string[]> = {
  apiKey: ["apiKey"],
  consoleSession: ["consoleSession"],
  signingSession: ["signingSession", "framedSigningSession"],
  none: [],
};

/** Headers that answers carry, by the kind of caller. */
const ANSWER_HEADERS: Record<Security, string[]> = {
  apiKey: ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"],
  consoleSession: ["X-Request-Id"],
  signingSession: ["X-Request-Id"],
  none: ["X-Request-Id"],
};

export interface Documented {
  method: string;
  /** The path as OpenAPI writes it: `/api/v1/templates/{templateId}`. */
  path: string;
  security: Security;
  /** Parameters the operation takes besides its own: the account id, the Idempotency-Key. */
  extraParameters: string[];
  /** Path parameters the path itself adds (the account id of the account-scoped family). */
  pathParams?: ObjectSchema;
  spec: OperationSpec<ObjectSchema | undefined, ObjectSchema | undefined, Schema | undefined>;
}

/** Every operation the gateway serves, in the order it was declared. */
export class Contract {
  readonly operations: Documented[] = [];

  add(operation: Documented): void {
    this.operations.push(operation);
  }
}

function merged(a: ObjectSchema | undefined, b: ObjectSchema | undefined): ObjectSchema | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.extend(b.shape);
}

/** The requirement for programs: `x-scopes`, and what a body adds or an agent's key may do. */
function scopeExtensions(spec: ScopeRequirement) {
  const conditional = (spec.conditionalScopes ?? []).map(({ when, scope }) => ({ when, scope }));
  return {
    "x-scopes": [...scopesOf(spec)],
    ...(conditional.length > 0 ? { "x-conditional-scopes": conditional } : {}),
    ...(spec.proposable ? { "x-proposable": true } : {}),
  };
}

export function operationObject(operation: Documented): ZodOpenApiOperationObject {
  const { spec, security } = operation;
  const idempotent = operation.extraParameters.includes("IdempotencyKey");
  const headers = [...ANSWER_HEADERS[security], ...(idempotent ? ["Idempotent-Replayed"] : [])];
  const responses: ZodOpenApiOperationObject["responses"] = {};
  for (const [status, answer] of Object.entries(spec.answers)) {
    const content =
      answer.content ?? (answer.schema ? { "application/json": { schema: answer.schema } } : undefined);
    responses[status as `2${string}`] = {
      description: answer.description,
      headers: Object.fromEntries(headers.map((name) => [name, { $ref: `#/components/headers/${name}` }])),
      ...(content ? { content } : {}),
    };
  }
  for (const status of spec.problems) {
    responses[String(status) as `4${string}`] = {
      $ref: `#/components/responses/${PROBLEM_RESPONSES[status][0]}`,
    };
  }
  const path = merged(operation.pathParams, spec.params);
  const bodyContent =
    spec.streamedBody ?? (spec.body ? { "application/json": { schema: spec.body } } : undefined);
  // OpenAPI 3.1 lets a requirement of a scheme other than OAuth list the roles it needs: the scopes.
  const keyed = security === "apiKey" && spec.scope !== undefined;
  const scopes = keyed ? [...scopesOf(spec)] : [];
  const description = [spec.description, keyed ? scopeSentence(spec) : undefined].filter(Boolean);
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(description.length > 0 ? { description: description.join("\n\n") } : {}),
    security: SCHEMES[security].map((scheme) => ({ [scheme]: scopes })),
    ...(keyed ? scopeExtensions(spec) : {}),
    parameters: operation.extraParameters.map((name) => ({ $ref: `#/components/parameters/${name}` })),
    requestParams: { ...(path ? { path } : {}), ...(spec.query ? { query: spec.query } : {}) },
    ...(bodyContent ? { requestBody: { required: Boolean(spec.streamedBody), content: bodyContent } } : {}),
    responses,
  };
}
