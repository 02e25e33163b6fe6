/**
 * A tool's arguments are one JSON object: an operation's path parameters, query and body side by
 * side. They are split back into the three and read by the operation's own schemas, so a tool
 * accepts exactly what the HTTP route accepts, and a bad argument is the same 422 violation
 * (`{ path, message }`), every one at once.
 */
import type { FieldViolation } from "@countersign/kit";
import { z } from "zod";
import type { OperationSpec } from "../contract/operation.js";
import { describeIssue, violationsOf } from "../contract/violations.js";
import type { BodySchema, ObjectSchema } from "../declared-router.js";
import { ApiProblem } from "../problems.js";

type Spec = OperationSpec<ObjectSchema, ObjectSchema, BodySchema>;

const keysOf = (schema: ObjectSchema) => Object.keys(schema?.shape ?? {});

/** The one object schema a tool advertises: parameters, query and body properties together. */
export function argumentsSchema(spec: Spec): z.ZodObject {
  const body = spec.body instanceof z.ZodObject ? spec.body.shape : {};
  return z.strictObject({ ...spec.params?.shape, ...spec.query?.shape, ...body });
}

/** Query parameters arrive as strings over HTTP; a tool's come as JSON numbers and booleans. */
function asQueryValue(value: unknown): unknown {
  return typeof value === "number" || typeof value === "boolean" ? String(value) : value;
}

export function readArguments(
  spec: Spec,
  args: Record<string, unknown>,
): { params: unknown; query: unknown; body: unknown } {
  const pathKeys = new Set(keysOf(spec.params));
  const queryKeys = new Set(keysOf(spec.query));
  const params: [string, unknown][] = [];
  const query: [string, unknown][] = [];
  const body: [string, unknown][] = [];
  for (const [key, value] of Object.entries(args)) {
    if (pathKeys.has(key)) params.push([key, value]);
    else if (queryKeys.has(key)) query.push([key, asQueryValue(value)]);
    else body.push([key, value]);
  }
  const violations: FieldViolation[] = [];
  const read = (schema: z.ZodType | undefined, entries: [string, unknown][]) => {
    if (!schema) {
      for (const [key] of entries) violations.push({ path: key, message: "is not a known property" });
      return undefined;
    }
    // fromEntries defines every key as the object's own, `__proto__` too, so strict schemas see it.
    const parsed = schema.safeParse(Object.fromEntries(entries), { error: describeIssue });
    if (parsed.success) return parsed.data;
    violations.push(...argumentViolations(parsed.error));
    return undefined;
  };
  const input = {
    params: read(spec.params, params),
    query: read(spec.query, query),
    body: read(spec.body, body),
  };
  if (violations.length > 0) throw invalidArguments(violations);
  return input;
}

/** Arguments read by one schema of their own (the document tools'). */
export function readArgumentsAs<S extends z.ZodType>(schema: S, args: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(args, { error: describeIssue });
  if (!parsed.success) throw invalidArguments(argumentViolations(parsed.error));
  return parsed.data;
}

/** Violations with paths as the arguments are written; a rule about the whole object names it so. */
function argumentViolations(error: z.ZodError): FieldViolation[] {
  return violationsOf(error).map((v) => ({ ...v, path: v.path === "body" ? "arguments" : v.path }));
}

function invalidArguments(violations: FieldViolation[]): ApiProblem {
  return new ApiProblem("validation_failed", "the arguments are not valid: see errors", violations);
}
