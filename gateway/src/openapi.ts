/**
 * The OpenAPI 3.1 document of the gateway, written from the operations it declares
 * (contract/operation.ts), so every path, parameter and body in it is the one the code checks.
 */
import { FRAMED_SESSION_HEADER } from "@countersign/domain";
import { createDocument } from "zod-openapi";
import { sessionCookie } from "./console/session-cookie.js";
import { type Contract, operationObject } from "./contract/operation.js";
import { HEADERS, problemComponents } from "./contract/problem.js";
import { SIGNING_COOKIE } from "./signing/signing-routes.js";

const DESCRIPTION =
  "Every public route exists under `/api/v1` (the workspace comes from the API key) and under `/v1/accounts/{accountId}` (the workspace comes from the path and must be the key's; any other account answers 404). Errors are RFC 9457 problem details (`application/problem+json`). Every response carries `X-Request-Id`; every authenticated response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. A key has a bounded number of requests in the works at once, across `/v1`, `/api/v1` and `/restapi` (8 unless configured): a further one waits up to 2 s for a turn, before its body is read, and is otherwise answered 429 `rate_limited` with `Retry-After`. JSON bodies are limited to 1 MiB after decompression (413); they may be sent with `Content-Encoding: gzip`, `deflate` or `br`. Other body types are refused (415) except on upload routes. Strings must not contain NUL (U+0000) or unpaired surrogates, and unknown properties are refused (422). Programs written for DocuSign's eSignature API v2.1 use `/restapi/v2.1/accounts/{accountId}/...` with the same key (see docs/restapi.md). AI assistants reach the same operations as MCP tools at `/mcp/v1` (Streamable HTTP, the same key; the tools and their JSON Schemas are listed by the MCP `tools/list` method). The console routes under `/console/api` use the HttpOnly session cookie set by `POST /console/api/session`, and state-changing calls must send the session's `csrfToken` (in the answers of `POST` and `GET /console/api/session`) in `X-CSRF-Token`.";

/** The public API's version, which the MCP endpoint announces too. */
export const API_VERSION = "1.0.0";

export function openApiDocument(contract: Contract, publicUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, ReturnType<typeof operationObject>>> = {};
  for (const operation of contract.operations) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, ReturnType<typeof operationObject>>)[operation.method] =
      operationObject(operation);
  }
  const tags = [...new Set(contract.operations.map((operation) => operation.spec.tag))].map((name) => ({
    name,
  }));
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Countersign API",
      version: API_VERSION,
      description: `Self-hosted, API-first electronic signatures. ${DESCRIPTION}`,
    },
    servers: [{ url: publicUrl }],
    security: [{ apiKey: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key (`sk_…`) created under Settings → Developer.",
        },
        consoleSession: {
          type: "apiKey",
          in: "cookie",
          name: sessionCookie(publicUrl).name,
          description:
            "Set by `POST /console/api/session`: `__Host-cs_session` where the public URL is https, `cs_session` over plain http.",
        },
        signingSession: {
          type: "apiKey",
          in: "cookie",
          name: SIGNING_COOKIE,
          description: "Set when a signer opens their signing link (`GET /sign/{token}`).",
        },
        framedSigningSession: {
          type: "apiKey",
          in: "header",
          name: FRAMED_SESSION_HEADER,
          description:
            "For a signing page in another site's frame (an embedded signing URL made with `frameOrigin`), where the browser keeps no cookie of ours: the session the page was served with, held in its memory.",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "The same key and body within 24 hours returns the first answer and creates nothing new; the same key with another body is refused (422).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
        CsrfToken: {
          name: "X-CSRF-Token",
          in: "header",
          required: true,
          description: "The session's `csrfToken`, from the answer of `POST` or `GET /console/api/session`.",
          schema: { type: "string" },
        },
      },
      headers: HEADERS,
      responses: problemComponents(),
    },
  }) as unknown as Record<string, unknown>;
}
