/**
 * Hostile requests generated from the OpenAPI document the gateway serves: every operation, with
 * malformed path segments, odd queries and headers, and bodies that are of the wrong type, hold NUL
 * or lone surrogates, nest deeply, are huge, truncated or lie about their encoding; uploads that are
 * truncated, malformed, not PDFs, damaged PDFs or page-count bombs; drawn signatures that are
 * decompression bombs or not PNGs at all; JPEGs whose segments lie about their lengths; CSV files
 * whose cells are formulas; paths spelled in capitals (routing ignores case). The document drives
 * it, so a new route is fuzzed the day it is declared.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { makePageCountBomb } from "./pdfs.js";
import { corruptPng, makePng, pngBomb } from "./pngs.js";

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}

export interface FuzzOperation {
  method: string;
  /** The path as OpenAPI writes it: `/api/v1/templates/{templateId}`. */
  path: string;
  query: Parameter[];
  json?: Schema;
  upload: boolean;
  console: boolean;
  /** Statuses the operation answers with an HTML page for a person (a signing link), not a problem. */
  pages: number[];
}

export interface Fixtures {
  /** A valid value for each path parameter name (documentId, templateId …). */
  ids: Record<string, string>;
  apiKey: string;
  /** The console session's cookie and CSRF token. */
  cookie: string;
  csrf: string;
  pdf: Uint8Array;
  /** A signing session's cookie (`cs_signing=…`), for the signing page's API. */
  signingCookie: string;
  /** The fields that session's signer fills. */
  signingFieldIds: string[];
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** What the case is, for the failure report. */
  label: string;
  /** Statuses documented as an HTML page rather than a problem. */
  pages: number[];
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: (Parameter | { $ref: string })[];
        requestBody?: Schema;
        responses?: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
  components: Record<string, Record<string, unknown>>;
}

function resolve<T>(document: Document, value: T | { $ref: string }): T {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as T;
  const [, , kind, name] = ref.split("/");
  return document.components[kind as string]?.[name as string] as T;
}

export function operationsOf(document: Document): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(document, p));
      const content = (operation.requestBody?.content ?? {}) as Record<string, { schema?: Schema }>;
      operations.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === "query"),
        json: content["application/json"]?.schema,
        upload: "multipart/form-data" in content,
        console: path.startsWith("/console/"),
        pages: Object.entries(operation.responses ?? {})
          .filter(([, answer]) => answer.content && "text/html" in answer.content)
          .map(([status]) => Number(status)),
      });
    }
  }
  return operations;
}

/** A CSV cell a spreadsheet would run, or the escape of one: formula characters after apostrophes. */
export const hostileCsvCell: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("", "'", "''"),
      fc.constantFrom(..."=+-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20'\" ,"),
      fc.string({ maxLength: 12 }),
    )
    .map(([quotes, start, rest]) => `${quotes}${start}${rest}`),
  fc.constantFrom(
    '=HYPERLINK("https://evil.example","x")',
    "=cmd|'/C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
  ),
  fc.string({ maxLength: 12 }),
);

/** One JSON-RPC message an MCP client might send, or something shaped almost like one. */
const mcpMessage: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
    method: fc.constantFrom("tools/list", "ping", "tools/call", "initialize", "resources/list", "no/such"),
    params: fc.oneof(
      fc.constant({}),
      fc.record({
        name: fc.constantFrom("list_templates", "get_template", "download_document", "no_such_tool"),
        arguments: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      }),
    ),
  }),
  // A notification (no id), a message of another protocol version, and plain junk.
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.constant("notifications/initialized") }),
  fc.record({ jsonrpc: fc.constantFrom("1.0", "2"), id: fc.nat(), method: fc.constant("ping") }),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * An MCP POST body: one message, or a batch of any size up to twice the bound a batch may have —
 * what used to buy a hundred calls' work for one admission.
 */
export const mcpBody: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: mcpMessage, weight: 1 },
  { arbitrary: fc.array(mcpMessage, { maxLength: 40 }), weight: 3 },
);

/** A CSV file's text made of such cells, as RFC 4180 quotes them or not at all. */
const hostileCsv: fc.Arbitrary<string> = fc
  .array(fc.array(fc.tuple(hostileCsvCell, fc.boolean()), { minLength: 1, maxLength: 5 }), { maxLength: 5 })
  .map((rows) =>
    rows
      .map((row) =>
        row.map(([cell, quoted]) => (quoted ? `"${cell.replaceAll('"', '""')}"` : cell)).join(","),
      )
      .join("\r\n"),
  );

/**
 * A JPEG's start and then segments of any marker whose lengths may lie (0, 1, past the end), a scan
 * with stuffed bytes, restarts and fill, an end or none, and bytes after it.
 */
export const jpegSegmentSoup: fc.Arbitrary<Uint8Array> = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          fc.integer({ min: 0xc0, max: 0xfe }),
          fc.uint8Array({ maxLength: 24 }),
          fc.integer({ min: -3, max: 40 }),
        )
        .map(([marker, body, lie]) => {
          const length = Math.max(0, Math.min(0xffff, body.length + 2 + (lie > 30 ? 0xff00 : lie)));
          return Buffer.concat([Buffer.from([0xff, marker, length >> 8, length & 0xff]), body]);
        }),
      fc
        .array(fc.constantFrom(0x00, 0xff, 0xd0, 0xd7, 0x12, 0xda, 0xd9), { maxLength: 24 })
        .map((bytes) => Buffer.from([0xff, 0xda, 0x00, 0x02, ...bytes])),
      fc.constantFrom(Buffer.from([0xff, 0xff, 0xff]), Buffer.from([0xff, 0xd9]), Buffer.from([0xff, 0x01])),
      fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes)),
    ),
    { maxLength: 12 },
  )
  .map((segments) => Buffer.concat([Buffer.from([0xff, 0xd8]), ...segments]));

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";

/** Values that have broken JSON handlers somewhere. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    NUL,
    LONE_SURROGATE,
    "",
    " ",
    "\r\n",
    "%ff",
    "../../etc/passwd",
    "0192F5D8-0000-7000-8000-00000000ABCD",
    -0,
    -1,
    2 ** 31,
    2 ** 53 + 1,
    1e308,
    0.5,
    true,
    null,
    [],
    {},
    [null],
    { __proto__: { polluted: true } },
    { constructor: { prototype: { polluted: true } } },
    "javascript:alert(1)",
    "https://example.com/\r\nSet-Cookie: a=b",
    "x".repeat(5000),
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
  hostileCsv,
);

/** A value for a JSON schema: mostly of the declared shape, now and then hostile at any depth. */
export function valueFor(document: Document, schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const resolved = schema ? resolve<Schema>(document, schema as Schema & { $ref: string }) : undefined;
  if (!resolved || depth > 6) return hostileValue;
  const declared = declaredValue(document, resolved, depth);
  return fc.oneof({ arbitrary: declared, weight: 6 }, { arbitrary: hostileValue, weight: 1 });
}

function declaredValue(document: Document, schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = schema[key] as Schema[] | undefined;
    if (options?.length) return fc.oneof(...options.map((option) => valueFor(document, option, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const record = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valueFor(document, property, depth + 1)]),
      );
      return fc
        .tuple(
          fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] }),
          fc.option(fc.tuple(fc.string({ maxLength: 8 }), hostileValue), { freq: 8 }),
        )
        .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
    }
    case "array":
      return fc.array(valueFor(document, schema.items as Schema, depth + 1), { maxLength: 4 });
    case "string":
      if (schema.format === "uuid")
        return fc.oneof(
          fc.uuid(),
          fc.uuid().map((id) => id.toUpperCase()),
        );
      if (schema.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === "email") return fc.emailAddress();
      return fc.string({ maxLength: 30 });
    case "integer":
      return fc.integer({ min: -5, max: 60 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 1000 });
    case "boolean":
      return fc.boolean();
    default:
      return hostileValue;
  }
}

/** Bytes of a JSON body: the value as JSON, or broken JSON of several kinds. */
function jsonBody(document: Document, schema: Schema | undefined): fc.Arbitrary<[string, Uint8Array]> {
  const text = (label: string, arbitrary: fc.Arbitrary<string>) =>
    arbitrary.map((s): [string, Uint8Array] => [label, Buffer.from(s)]);
  return fc.oneof(
    {
      arbitrary: text(
        "declared",
        valueFor(document, schema).map((v) => JSON.stringify(v) ?? "null"),
      ),
      weight: 8,
    },
    { arbitrary: text("any json", fc.json({ maxDepth: 4 })), weight: 2 },
    {
      arbitrary: text(
        "truncated json",
        valueFor(document, schema).map((v) => {
          const json = JSON.stringify(v) ?? "{}";
          return json.slice(0, Math.max(1, Math.floor(json.length / 2)));
        }),
      ),
      weight: 1,
    },
    {
      arbitrary: text(
        "deep json",
        fc.integer({ min: 1000, max: 100_000 }).map((n) => `{"name":${"[".repeat(n)}${"]".repeat(n)}}`),
      ),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(1024 * 1024 + 10, 3 * 1024 * 1024)
        .map((n): [string, Uint8Array] => ["huge json", Buffer.from(`{"name":"${"x".repeat(n)}"}`)]),
      weight: 1,
    },
    { arbitrary: text("not json", fc.string({ unit: "binary", maxLength: 50 })), weight: 1 },
    {
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((b): [string, Uint8Array] => ["random bytes", b]),
      weight: 1,
    },
  );
}

function multipart(boundary: string, file: Uint8Array, field = "file", close = true): Uint8Array {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="f.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(file),
    Buffer.from(close ? `\r\n--${boundary}--\r\n` : ""),
  ]);
}

/** An upload: its content type, its bytes and what it is. */
function uploadBody(pdf: Uint8Array): fc.Arbitrary<[string, string, Uint8Array]> {
  const damaged = fc
    .tuple(fc.nat({ max: pdf.length - 1 }), fc.integer({ min: 0, max: 255 }))
    .map(([at, byte]) => {
      const copy = Buffer.from(pdf);
      copy.fill(byte, at, Math.min(copy.length, at + 200));
      return copy;
    });
  const file = fc.oneof(
    fc.constant(pdf).map((b): [string, Uint8Array] => ["pdf", b]),
    damaged.map((b): [string, Uint8Array] => ["damaged pdf", b]),
    fc.nat({ max: pdf.length }).map((n): [string, Uint8Array] => ["cut pdf", pdf.slice(0, n)]),
    fc.uint8Array({ maxLength: 300 }).map((b): [string, Uint8Array] => ["not a pdf", b]),
    jpegSegmentSoup.map((b): [string, Uint8Array] => ["JPEG segment soup", b]),
    fc
      .constantFrom(1001, 5000)
      .map((pages): [string, Uint8Array] => [`page-count bomb of ${pages}`, makePageCountBomb(pages)]),
  );
  return fc.oneof(
    file.map(([what, bytes]): [string, string, Uint8Array] => [
      "multipart/form-data; boundary=B0undary",
      `multipart ${what}`,
      multipart("B0undary", bytes),
    ]),
    file.map(([what, bytes]): [string, string, Uint8Array] => [
      "multipart/form-data; boundary=B0undary",
      `truncated multipart ${what}`,
      multipart("B0undary", bytes, "file", false),
    ]),
    file.map(([what, bytes]): [string, string, Uint8Array] => [
      "multipart/form-data; boundary=B0undary",
      `multipart ${what} in another field`,
      multipart("B0undary", bytes, "attachment"),
    ]),
    file.map(([what, bytes]): [string, string, Uint8Array] => [
      "multipart/form-data",
      `no boundary ${what}`,
      bytes,
    ]),
    fc
      .string({ unit: "binary", maxLength: 80 })
      .map((s): [string, string, Uint8Array] => [
        "multipart/form-data; boundary=B0undary",
        "garbage multipart",
        Buffer.from(s),
      ]),
    file.map(([what, bytes]): [string, string, Uint8Array] => ["application/pdf", `raw ${what}`, bytes]),
  );
}

/** Drawings as a client could send them instead of a signature: bombs, broken data, odd sizes. */
const HOSTILE_DRAWINGS: [string, () => Buffer][] = [
  ["a PNG bomb", pngBomb],
  ["a PNG whose data is not zlib", corruptPng],
  ["a PNG with a broken CRC", () => makePng({ width: 20, height: 10, badCrc: true })],
  ["a 16-bit PNG", () => makePng({ width: 20, height: 10, depth: 16 })],
  ["a PNG of 4000 × 4000", () => makePng({ width: 4000, height: 4000 })],
  ["a PNG cut short", () => makePng({ width: 20, height: 10 }).subarray(0, 40)],
];
let drawings: [string, string][] | undefined;

/** A submission whose every field gets one hostile drawing (made once, base64). */
function hostileSubmission(fieldIds: string[]): fc.Arbitrary<[string, Uint8Array]> {
  drawings ??= HOSTILE_DRAWINGS.map(([what, make]) => [what, make().toString("base64")]);
  return fc.constantFrom(...drawings).map(([what, png]): [string, Uint8Array] => [
    `drawn: ${what}`,
    Buffer.from(
      JSON.stringify({
        consent: true,
        values: Object.fromEntries(fieldIds.map((id) => [id, { kind: "drawn", png }])),
      }),
    ),
  ]);
}

/** A declared path as written, or with its fixed parts in capitals: routing ignores case. */
function spelling(path: string): fc.Arbitrary<string> {
  const shouted = path.replace(/[^{}]+(?=\{|$)/g, (part) => part.toUpperCase());
  return fc.oneof(
    { arbitrary: fc.constant(path), weight: 7 },
    { arbitrary: fc.constant(shouted), weight: 1 },
  );
}

/** A path segment: the right id, the same id in capitals, or something that breaks parsers. */
function segment(valid: string | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(valid ?? "0192f5d8-0000-7000-8000-000000000000"), weight: 4 },
    { arbitrary: fc.constant((valid ?? "").toUpperCase() || "X"), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        "%ff",
        "%",
        "%e0%a4%a",
        "%c0%ae%c0%ae",
        "%2e%2e",
        "..",
        "%2F",
        "a%2Fb",
        "%00",
        "%0d%0a",
        "%ud800",
        "a".repeat(3000),
        "%F0%9F%98%80",
      ),
      weight: 3,
    },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent), weight: 2 },
  );
}

function queryString(parameters: Parameter[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(
      "0",
      "1",
      "5",
      "100",
      "101",
      "-1",
      "1e3",
      "999999999999",
      "",
      "%ff",
      "ok",
      "sent",
      "draft",
    ),
    fc.string({ maxLength: 10 }).map(encodeURIComponent),
  );
  const names = [...parameters.map((p) => p.name), "unknown", "pageSize[]"];
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([n, v]) => `${n}=${v}`).join("&")}`));
}

const CONTENT_TYPES = [
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/pdf",
  "multipart/form-data",
];

/**
 * The HTML pages the route a path reaches may answer. A segment spelled as a dot segment ("..",
 * "%2e%2e") is resolved by the client's URL parser before the request leaves, so the request reaches
 * the route the resolved path names (/sign/logos/%2e%2e/X is /sign/X, a link), answered by its rules.
 */
function pagesAt(operations: FuzzOperation[], operation: FuzzOperation, path: string): number[] {
  if (!/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return operation.pages;
  const resolved = new URL(path, "http://fuzz.invalid").pathname;
  // Express routes without strict mode, so "/sign/logos/" (what "/sign/logos//.." resolves to) is "/sign/logos".
  const reached = operations.filter(
    (o) =>
      o.method === operation.method &&
      new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}/?$`).test(resolved),
  );
  return [...new Set([...operation.pages, ...reached.flatMap((o) => o.pages)])];
}

export function requestArbitrary(document: Document, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const operations = operationsOf(document);
  return fc.constantFrom(...operations).chain((operation) => {
    const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const path = fc
      .tuple(spelling(operation.path), ...names.map((name) => segment(fixtures.ids[name])))
      .map(([spelled, ...values]) =>
        names.reduce((p, name, i) => p.replace(`{${name}}`, values[i] as string), spelled),
      );
    const submission = operation.method === "POST" && operation.path === "/sign/api/submit";
    const body: fc.Arbitrary<[string | undefined, string, Uint8Array | undefined]> = operation.upload
      ? uploadBody(fixtures.pdf)
      : operation.json
        ? fc
            .tuple(
              fc.oneof(
                { arbitrary: fc.constant("application/json"), weight: 8 },
                { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 },
              ),
              submission
                ? fc.oneof(
                    { arbitrary: jsonBody(document, operation.json), weight: 1 },
                    { arbitrary: hostileSubmission(fixtures.signingFieldIds), weight: 3 },
                  )
                : jsonBody(document, operation.json),
            )
            .map(([type, [label, bytes]]) => [type, label, bytes])
        : fc.oneof(
            fc.constant<[undefined, string, undefined]>([undefined, "no body", undefined]),
            jsonBody(document, undefined).map(([label, bytes]): [string, string, Uint8Array] => [
              "application/json",
              `unexpected ${label}`,
              bytes,
            ]),
          );
    const encoding = fc.oneof(
      { arbitrary: fc.constant<[string | undefined, boolean]>([undefined, false]), weight: 10 },
      {
        arbitrary: fc.tuple(fc.constantFrom("gzip", "deflate", "br", "identity", "x-bogus"), fc.boolean()),
        weight: 2,
      },
    );
    const auth = fc.oneof(
      { arbitrary: fc.constant(`Bearer ${fixtures.apiKey}`), weight: 12 },
      {
        arbitrary: fc.constantFrom(
          undefined,
          "Bearer",
          "Bearer sk_unknownunknownunknownunknownunknownunknown1",
          "Basic dXNlcjpwYXNz",
          `Bearer ${fixtures.apiKey}x`,
        ),
        weight: 1,
      },
    );
    const session = fc.oneof(
      { arbitrary: fc.constant(true), weight: 6 },
      { arbitrary: fc.constant(false), weight: 1 },
    );
    return fc
      .record({
        path,
        query: queryString(operation.query),
        body,
        encoding,
        auth,
        session,
        idempotencyKey: fc.option(fc.constantFrom("k1", "k2", "k3", "\u00ff", "x".repeat(300)), { freq: 4 }),
      })
      .map(
        ({
          path,
          query,
          body: [type, what, bytes],
          encoding: [coding, reallyGzip],
          auth,
          session,
          idempotencyKey,
        }) => {
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          let payload = bytes;
          if (coding) {
            headers["content-encoding"] = coding;
            if (reallyGzip && coding === "gzip" && payload) payload = gzipSync(payload);
          }
          if (operation.console) {
            if (session) {
              headers.cookie = fixtures.cookie;
              headers["x-csrf-token"] = fixtures.csrf;
            }
          } else if (operation.path.startsWith("/sign/api/")) {
            if (session) headers.cookie = fixtures.signingCookie;
          } else if (auth) headers.authorization = auth;
          if (idempotencyKey && /^[\x20-\x7e]*$/.test(idempotencyKey))
            headers["idempotency-key"] = idempotencyKey;
          return {
            method: operation.method,
            path: `${path}${query}`,
            headers,
            body: payload,
            pages: pagesAt(operations, operation, path),
            label: `${operation.method} ${operation.path}: ${what}${coding ? ` (${coding}${reallyGzip ? "" : ", not encoded"})` : ""}`,
          };
        },
      );
  });
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  body: string;
}

export async function send(base: string, request: FuzzRequest): Promise<FuzzAnswer> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : request.body,
    redirect: "manual",
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    body: await response.text(),
  };
}

/**
 * Why an answer breaks the rules (a 5xx, an error that is neither a problem with a detail nor an
 * HTML page the operation documents for that status), or undefined.
 */
export function brokenRule(answer: FuzzAnswer, pages: number[] = []): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.status < 400) return undefined;
  if (pages.includes(answer.status) && answer.contentType.startsWith("text/html")) return undefined;
  if (!answer.contentType.startsWith("application/problem+json")) {
    return `answered ${answer.status} as ${answer.contentType || "no content type"}`;
  }
  try {
    const problem = JSON.parse(answer.body) as { detail?: unknown; status?: unknown };
    if (typeof problem.detail !== "string" || !problem.detail) return "a problem without a detail";
    if (problem.status !== answer.status) return `a problem whose status says ${String(problem.status)}`;
  } catch {
    return "a problem body that is not JSON";
  }
  return undefined;
}
