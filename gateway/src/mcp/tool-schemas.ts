/**
 * The JSON Schemas an assistant sees for a tool, written from the same zod declarations that read
 * and document the HTTP operations (zod-openapi, as in the OpenAPI document): what it may send
 * (`io: "input"`) and what it gets back (`io: "output"`). Named schemas land in `$defs`, and the top
 * level is always an object schema, as MCP requires of both.
 *
 * Two things are left out so that strict validators compile every schema and the list stays small:
 * patterns beside a format that says the same (uuid, date-time: most of the output schemas' size),
 * and `format: base64`, which JSON Schema does not define (`contentEncoding` says it).
 */
import type { z } from "zod";
import { createSchema } from "zod-openapi";

export type JsonSchema = { type: "object" } & Record<string, unknown>;

const DEFS = "#/$defs/";

export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { schema: top, components } = createSchema(schema, { io, schemaRefPath: DEFS });
  const defs = components as Record<string, Record<string, unknown>>;
  // A named schema comes back as a $ref to itself: the tool's schema is that definition.
  const ref = (top as { $ref?: string }).$ref;
  const resolved = ref ? defs[ref.slice(DEFS.length)] : (top as Record<string, unknown>);
  if (resolved?.type !== "object") throw new Error(`a tool's ${io} must be a JSON object`);
  return tidy({
    ...resolved,
    type: "object",
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  }) as JsonSchema;
}

/** Keywords whose value is a map of names to schemas, and those whose value is schemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "patternProperties"]);
const SCHEMAS = new Set(["items", "anyOf", "oneOf", "allOf", "not", "additionalProperties", "prefixItems"]);

function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (schema === null || typeof schema !== "object") return schema;
  const tidied: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && value && typeof value === "object") {
      tidied[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, tidy(sub)]));
    } else {
      tidied[keyword] = SCHEMAS.has(keyword) ? tidy(value) : value;
    }
  }
  if ("pattern" in tidied && "format" in tidied) delete tidied.pattern;
  if (tidied.format === "base64") delete tidied.format;
  return tidied;
}
