/**
 * The JSON Schemas an assistant sees for a tool, written from the same zod declarations that read
 * and document the HTTP operations (zod-openapi, as in the OpenAPI document): what it may send
 * (`io: "input"`) and what it gets back (`io: "output"`). Named schemas land in `$defs`, and the top
 * level is always an object schema, as MCP requires of both.
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
  return {
    ...resolved,
    type: "object",
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
