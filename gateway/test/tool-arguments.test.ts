import { z } from "zod";
import { id, pageQuery, text } from "../src/contract/values.js";
import { argumentsSchema, readArguments } from "../src/mcp/tool-arguments.js";
import { ApiProblem } from "../src/problems.js";

const spec = {
  summary: "Change a thing",
  tag: "Things",
  params: z.object({ thingId: id() }),
  query: pageQuery,
  body: z.strictObject({ name: text(), note: text().optional() }),
  answers: {},
  problems: [],
};

function violationsOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiProblem);
    expect((err as ApiProblem).code).toBe("validation_failed");
    return (err as ApiProblem).errors;
  }
  throw new Error("the arguments were accepted");
}

test("arguments split into path, query and body, each read by the operation's own schema", () => {
  const read = readArguments(spec, {
    thingId: "0192F5D8-0000-7000-8000-00000000000A",
    pageSize: 5,
    name: "Ada",
  });
  expect(read).toEqual({
    params: { thingId: "0192f5d8-0000-7000-8000-00000000000a" },
    query: { pageIndex: 0, pageSize: 5 },
    body: { name: "Ada" },
  });
});

test("every bad argument is one violation named as the assistant wrote it", () => {
  expect(
    violationsOf(() => readArguments(spec, { pageSize: 500, pageIndex: 1.5, note: 7, colour: "red" })),
  ).toEqual([
    { path: "thingId", message: "is required" },
    { path: "pageIndex", message: "must be a whole number from 0 to 1000000" },
    { path: "pageSize", message: "must be from 1 to 100" },
    { path: "name", message: "is required" },
    { path: "note", message: "must be a string" },
    { path: "colour", message: "is not a known property" },
  ]);
});

test("an operation without a body refuses any argument it does not declare", () => {
  const { body: _body, ...withoutBody } = spec;
  expect(violationsOf(() => readArguments(withoutBody, { thingId: "x", name: "Ada" }))).toEqual([
    { path: "name", message: "is not a known property" },
  ]);
});

test("the advertised schema holds every argument and refuses others", () => {
  const schema = argumentsSchema(spec);
  expect(Object.keys(schema.shape)).toEqual(["thingId", "pageIndex", "pageSize", "name", "note"]);
  expect(schema.safeParse({ thingId: "x", name: "Ada", colour: "red" }).success).toBe(false);
});

test("a __proto__ argument is an unknown property, not a prototype", () => {
  const args = JSON.parse('{"thingId":"x","name":"Ada","__proto__":{"note":"sneaked"}}') as Record<
    string,
    unknown
  >;
  expect(violationsOf(() => readArguments(spec, args))).toEqual([
    { path: "__proto__", message: "is not a known property" },
  ]);
});
