/**
 * What every write tool takes besides its operation's arguments (docs/mcp.md): an `idempotencyKey`,
 * so that a retry does nothing twice, and `dryRun`, which checks the call as it would run and
 * answers what it would answer, changing nothing — nothing stored, sent or e-mailed.
 */
import { IDEMPOTENCY_KEY_PATTERN } from "../middleware/idempotency.js";
import { ApiProblem } from "../problems.js";
import type { JsonSchema } from "./tool-schemas.js";

export const IDEMPOTENCY_ARGUMENT = "idempotencyKey";
export const DRY_RUN_ARGUMENT = "dryRun";
/** Where a dry run's result says it is one. */
export const DRY_RUN_META = "countersign/dryRun";

export interface WriteOptions {
  idempotencyKey?: string;
  dryRun: boolean;
}

/** A write tool's input schema with the options an assistant may add to any call. */
export function withWriteOptions(schema: JsonSchema): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return {
    ...schema,
    properties: {
      ...properties,
      [IDEMPOTENCY_ARGUMENT]: {
        type: "string",
        minLength: 1,
        maxLength: 255,
        pattern: IDEMPOTENCY_KEY_PATTERN.source,
        description:
          "Optional: a key of your choosing (1 to 255 printable ASCII characters), unique to this action. Retrying with the same key and arguments within 24 hours answers the first call's result (marked idempotentReplayed) and does nothing again.",
      },
      [DRY_RUN_ARGUMENT]: {
        type: "boolean",
        description:
          "Optional: true checks the call exactly as it would run and answers what it would answer, marked dryRun, without creating, changing, sending or e-mailing anything. Use it to show your user what would happen before you do it.",
      },
    },
  };
}

/** The options an assistant gave, taken out of the arguments the tool's operation reads. */
export function takeWriteOptions(args: Record<string, unknown>): {
  options: WriteOptions;
  rest: Record<string, unknown>;
} {
  const { [IDEMPOTENCY_ARGUMENT]: key, [DRY_RUN_ARGUMENT]: dryRun, ...rest } = args;
  const violations = [
    ...(key !== undefined && (typeof key !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(key))
      ? [{ path: IDEMPOTENCY_ARGUMENT, message: "must be 1 to 255 printable ASCII characters" }]
      : []),
    ...(dryRun !== undefined && typeof dryRun !== "boolean"
      ? [{ path: DRY_RUN_ARGUMENT, message: "must be true or false" }]
      : []),
  ];
  if (violations.length > 0) {
    throw new ApiProblem("validation_failed", "the arguments are not valid: see errors", violations);
  }
  return {
    options: { ...(typeof key === "string" ? { idempotencyKey: key } : {}), dryRun: dryRun === true },
    rest,
  };
}
