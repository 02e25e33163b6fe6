import { Code, ConnectError } from "@connectrpc/connect";
import { validationError } from "@countersign/kit";
import { ApiProblem } from "../src/problems.js";
import { DocuSignError, toDocuSignError } from "../src/restapi/docusign-errors.js";

const codeOf = (err: unknown, names = {}) => {
  const { error, headers } = toDocuSignError(err, "req-1", names);
  return { status: error.status, errorCode: error.errorCode, message: error.message, headers };
};

test("the gateway's and the services' errors answer with DocuSign's codes", () => {
  expect(codeOf(new ApiProblem("unauthorized", "no key"))).toMatchObject({
    status: 401,
    errorCode: "USER_AUTHENTICATION_FAILED",
  });
  expect(
    codeOf(new ApiProblem("rate_limited", "slow down", undefined, { "Retry-After": "2" })),
  ).toMatchObject({
    status: 429,
    errorCode: "HOURLY_APIINVOCATION_LIMIT_EXCEEDED",
    headers: { "Retry-After": "2" },
  });
  expect(codeOf(new ConnectError("down", Code.Unavailable))).toMatchObject({
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    headers: { "Retry-After": "5" },
  });
  expect(codeOf(new Error("boom"))).toMatchObject({ status: 500, errorCode: "UNSPECIFIED_ERROR" });
});

test("not found and a wrong state take the names of the route's own resource and action", () => {
  const names = { notFound: "ENVELOPE_DOES_NOT_EXIST", invalidState: "ENVELOPE_CANNOT_VOID_INVALID_STATE" };
  expect(codeOf(new ConnectError("no such request", Code.NotFound), names)).toMatchObject({
    status: 400,
    errorCode: "ENVELOPE_DOES_NOT_EXIST",
  });
  expect(codeOf(new ConnectError("ended", Code.FailedPrecondition), names)).toMatchObject({
    status: 400,
    errorCode: "ENVELOPE_CANNOT_VOID_INVALID_STATE",
  });
});

test("a broken rule names every violation in the message; a body that is not JSON is INVALID_REQUEST_BODY", () => {
  const invalid = validationError([
    { path: "recipients[0].email", message: "must be an e-mail address" },
    { path: "title", message: "is required" },
  ]);
  expect(codeOf(invalid)).toMatchObject({
    status: 400,
    errorCode: "INVALID_REQUEST_BODY",
    message: expect.stringContaining("recipients[0].email must be an e-mail address; title is required"),
  });
  expect(
    codeOf(Object.assign(new SyntaxError("Unexpected end"), { type: "entity.parse.failed" })),
  ).toMatchObject({
    status: 400,
    errorCode: "INVALID_REQUEST_BODY",
  });
  const own = new DocuSignError(400, "ANCHOR_TAB_PROCESSING_FAILURE", "no anchor");
  expect(codeOf(own)).toMatchObject({ errorCode: "ANCHOR_TAB_PROCESSING_FAILURE", message: "no anchor" });
});
