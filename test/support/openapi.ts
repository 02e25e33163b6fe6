/**
 * Checks responses against the OpenAPI document the gateway serves, so the document and the code
 * cannot drift apart: a response whose status or body the document does not describe fails.
 */
import { describeApi } from "@countersign/gateway";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

interface Response {
  $ref?: string;
  content?: Record<string, { schema: unknown }>;
}

/** The document the gateway serves at /openapi.json, made from the same declarations. */
export const DOCUMENT = describeApi("http://localhost") as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { responses: Record<string, Response> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...DOCUMENT, $id: "openapi.json" });
const compiled = new Map<string, ValidateFunction>();

/** Throws unless `body` is what the document says `method path` answers with `status`. */
export function expectDocumented(method: string, pathTemplate: string, status: number, body: unknown): void {
  const operation = DOCUMENT.paths[pathTemplate]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the OpenAPI document has no ${method} ${pathTemplate}`);
  let response = operation.responses[String(status)];
  if (!response)
    throw new Error(`the OpenAPI document says ${method} ${pathTemplate} never answers ${status}`);
  if (response.$ref) response = DOCUMENT.components.responses[response.$ref.split("/").pop() ?? ""] ?? {};
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  if (!mediaType || !media) {
    if (body !== undefined && body !== "")
      throw new Error(`${method} ${pathTemplate} ${status} should have no body`);
    return;
  }
  const key = `${method} ${pathTemplate} ${status}`;
  let check = compiled.get(key);
  if (!check) {
    check = ajv.compile(pointIntoDocument(media.schema));
    compiled.set(key, check);
  }
  if (!check(body)) {
    throw new Error(`${key}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body, null, 2)}`);
  }
}

/** Local "#/components/…" refs point into the registered document. */
function pointIntoDocument(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')) as Record<
    string,
    unknown
  >;
}
