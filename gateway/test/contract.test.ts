/**
 * The declared contract at the edge: what it refuses (NUL, unpaired surrogates, unknown properties,
 * wrong types, numbers past int32), with every violation and its path at once, and what it
 * normalises (UUIDs lower-cased once, here).
 */
import type { Request } from "express";
import type { z } from "zod";
import { readInput } from "../src/contract/operation.js";
import {
  RecipientChanges,
  RequestIdParams,
  SignatureRequestInput,
} from "../src/contract/signature-requests.js";
import { TemplateInput } from "../src/contract/templates.js";
import { pageQuery } from "../src/contract/values.js";
import { ApiProblem } from "../src/problems.js";

function problemOf(run: () => unknown): ApiProblem {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiProblem) return err;
    throw err;
  }
  throw new Error("expected a problem");
}

/** Reads `body` as an operation declaring `schema` would. */
function readBody<B extends z.ZodType>(schema: B, body?: unknown): z.output<B> {
  const spec = { summary: "", tag: "", body: schema, answers: {}, problems: [] };
  return readInput(spec, { params: {}, query: {}, body } as Request).body as z.output<B>;
}

const DOCUMENT_ID = "0192F5D8-0000-7000-8000-00000000ABCD";

test("NUL and unpaired surrogates are refused in every string, with the path of each", () => {
  const problem = problemOf(() =>
    readBody(TemplateInput, {
      name: "NDA\u0000",
      documentId: DOCUMENT_ID,
      roles: [{ name: "Client\ud800" }],
      fields: [
        { type: "signature", role: "Client", page: 1, x: 1, y: 1, width: 1, height: 1, label: "\u0000" },
      ],
    }),
  );
  expect(problem.code).toBe("validation_failed");
  expect(problem.errors).toEqual([
    { path: "name", message: "must not contain the NUL character (U+0000)" },
    { path: "roles[0].name", message: "must be valid Unicode (it holds an unpaired surrogate)" },
    { path: "fields[0].label", message: "must not contain the NUL character (U+0000)" },
  ]);
});

test("paired surrogates (emoji) and other control characters in free text are accepted", () => {
  const body = readBody(TemplateInput, {
    name: "NDA 📝\r\n",
    documentId: DOCUMENT_ID,
    roles: [{ name: "Client" }],
    fields: [],
  });
  expect(body.name).toBe("NDA 📝\r\n");
});

test("UUIDs are lower-cased at the edge, in bodies and in paths", () => {
  const body = readBody(TemplateInput, { name: "NDA", documentId: DOCUMENT_ID, roles: [], fields: [] });
  expect(body.documentId).toBe(DOCUMENT_ID.toLowerCase());
  const changes = readBody(RecipientChanges, { recipients: [{ id: DOCUMENT_ID, name: "Ada" }] });
  expect(changes.recipients[0]?.id).toBe(DOCUMENT_ID.toLowerCase());
  const path = readInput({ summary: "", tag: "", params: RequestIdParams, answers: {}, problems: [] }, {
    params: { requestId: DOCUMENT_ID },
    query: {},
  } as unknown as Request);
  expect(path.params.requestId).toBe(DOCUMENT_ID.toLowerCase());
  // Anything that is not a UUID passes unchanged and is simply not found.
  const other = readBody(RecipientChanges, { recipients: [{ id: "Not-A-Uuid" }] });
  expect(other.recipients[0]?.id).toBe("Not-A-Uuid");
});

test("wrong types, unknown properties and missing properties are reported together", () => {
  const problem = problemOf(() =>
    readBody(SignatureRequestInput, {
      title: 7,
      recipients: [{ name: "Ada", email: "ada@example.com", routingOrder: 2 ** 31, colour: "red" }],
      expiresAt: "tomorrow",
      send: "yes",
    }),
  );
  expect(problem.errors).toEqual([
    { path: "title", message: "must be a string" },
    { path: "recipients[0].routingOrder", message: "must be at most 2147483647" },
    { path: "recipients[0].colour", message: "is not a known property" },
    { path: "expiresAt", message: "must be a date-time with a time zone, such as 2030-01-31T17:00:00Z" },
    { path: "send", message: "must be true or false" },
  ]);
  const missing = problemOf(() => readBody(SignatureRequestInput));
  expect(missing.errors).toEqual([
    { path: "title", message: "is required" },
    { path: "recipients", message: "is required" },
  ]);
  const notObject = problemOf(() => readBody(SignatureRequestInput, [1]));
  expect(notObject.errors).toEqual([{ path: "body", message: "must be a JSON object" }]);
});

test("a page query out of range is a 400 that names the parameter", () => {
  const spec = { summary: "", tag: "", query: pageQuery, answers: {}, problems: [] };
  const read = (query: unknown) => readInput(spec, { params: {}, query } as Request).query;
  expect(read({})).toEqual({ pageIndex: 0, pageSize: 20 });
  expect(read({ pageSize: "5" })).toEqual({ pageIndex: 0, pageSize: 5 });
  for (const bad of [{ pageSize: "0" }, { pageSize: "101" }, { pageIndex: "-1" }, { pageSize: ["1", "2"] }]) {
    const problem = problemOf(() => read(bad));
    expect(problem.code).toBe("invalid_request");
    expect(problem.message).toMatch(/page(Size|Index)/);
  }
});
