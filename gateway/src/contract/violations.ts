/**
 * Turns what zod found wrong with a body into our violations: one `{ path, message }` per broken
 * rule, with paths as clients write them (`fields[3].page`) and messages in the words the services
 * use, so a client reads the gateway's and a service's 422s alike.
 */
import type { FieldViolation } from "@countersign/kit";
import type { z } from "zod";

export function pathOf(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text || "body";
}

const TYPE_NAMES: Record<string, string> = {
  string: "must be a string",
  number: "must be a number",
  int: "must be a whole number",
  boolean: "must be true or false",
  array: "must be an array",
  object: "must be a JSON object",
};

/**
 * The error map a body is read with: our words for zod's issues. A schema's own message (a
 * refinement's, or `wholeNumber`'s) comes first; what this leaves undefined keeps zod's.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return TYPE_NAMES[issue.expected] ?? `must be of type ${issue.expected}`;
    case "too_big":
      if (issue.origin === "number" || issue.origin === "int") return `must be at most ${issue.maximum}`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum} characters`;
    case "too_small":
      if (issue.origin === "number" || issue.origin === "int") return `must be at least ${issue.minimum}`;
      if (issue.origin === "array")
        return `must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return undefined;
  }
}

export function violationsOf(error: z.ZodError): FieldViolation[] {
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: pathOf([...issue.path, key]), message: "is not a known property" }))
      : [{ path: pathOf(issue.path), message: issue.message }],
  );
}
