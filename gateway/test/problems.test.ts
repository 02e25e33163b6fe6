import { Code, ConnectError } from "@connectrpc/connect";
import { problemError, validationError } from "@countersign/kit";
import { ApiProblem, toProblem } from "../src/problems.js";

test("Connect codes map to the statuses and codes of the design", () => {
  const cases: [Code, number, string][] = [
    [Code.InvalidArgument, 400, "invalid_request"],
    [Code.NotFound, 404, "not_found"],
    [Code.FailedPrecondition, 409, "invalid_state"],
    [Code.Unauthenticated, 401, "unauthorized"],
    [Code.PermissionDenied, 403, "forbidden"],
    [Code.ResourceExhausted, 429, "rate_limited"],
    [Code.Unavailable, 503, "unavailable"],
    [Code.Internal, 500, "internal"],
  ];
  for (const [code, status, name] of cases) {
    const { problem } = toProblem(new ConnectError("x", code), "req-1");
    expect([problem.status, problem.code]).toEqual([status, name]);
  }
});

test("a validation failure is 422 with every violation", () => {
  const err = validationError([
    { path: "fields[3].page", message: "the document has 2 pages" },
    { path: "roles", message: "needs at least one signer role" },
  ]);
  const { problem } = toProblem(err, "req-2");
  expect(problem).toMatchObject({ status: 422, code: "validation_failed", requestId: "req-2" });
  expect(problem.errors.map((e) => e.path)).toEqual(["fields[3].page", "roles"]);
});

test("an unexpected error is 500 and reveals nothing of itself", () => {
  const { problem } = toProblem(new Error("connection to 10.0.0.7:5432 refused, password=hunter2"), "req-3");
  expect(problem.status).toBe(500);
  expect(JSON.stringify(problem)).not.toMatch(/10\.0\.0\.7|hunter2/);
  const internal = toProblem(new ConnectError("pg: relation missing", Code.Internal), "req-4").problem;
  expect(internal.detail).not.toContain("relation");
});

test("503 tells the client when to retry; 429 carries the limiter's Retry-After", () => {
  expect(toProblem(new ConnectError("down", Code.Unavailable), "r").headers["Retry-After"]).toBe("5");
  const limited = toProblem(
    new ApiProblem("rate_limited", "slow down", undefined, { "Retry-After": "2" }),
    "r",
  );
  expect(limited.headers["Retry-After"]).toBe("2");
  expect(limited.problem.type).toBe("urn:countersign:problem:rate_limited");
});

test("a named problem chooses the status the gRPC code cannot say", () => {
  const err = problemError("payload_too_large", "the file is larger than 25 MiB", Code.InvalidArgument);
  expect(toProblem(err, "r").problem).toMatchObject({ status: 413, code: "payload_too_large" });
  expect(toProblem(problemError("gone", "link expired", Code.FailedPrecondition), "r").problem.status).toBe(
    410,
  );
});
