import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { fieldViolations, notFound, problemError, problemOf, validationError } from "../src/errors.js";

/** The error a client gets when the AuthService handler throws this one (through the real protocol). */
async function overTheWire(thrown: ConnectError): Promise<ConnectError> {
  const transport = createRouterTransport((router) =>
    router.service(AuthService, {
      async getWorkspace() {
        throw thrown;
      },
    }),
  );
  try {
    await createClient(AuthService, transport).getWorkspace({ workspaceId: "w1" });
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("the call succeeded");
}

test("a validation error carries every violation to the client as InvalidArgument", async () => {
  const violations = [
    { path: "signers[0].email", message: "must be an email address" },
    { path: "title", message: "must not be empty" },
  ];
  const received = await overTheWire(validationError(violations));
  expect(received.code).toBe(Code.InvalidArgument);
  expect(received.rawMessage).toBe("the request is not valid");
  expect(fieldViolations(received)).toEqual(violations);
});

test("an error without violations has none", async () => {
  expect(fieldViolations(await overTheWire(notFound("template")))).toEqual([]);
});

test("notFound names what was not found", () => {
  const err = notFound("template");
  expect([err.code, err.rawMessage]).toEqual([Code.NotFound, "template not found"]);
});

test("a problem error carries its problem name to the client beside its code", async () => {
  const received = await overTheWire(
    problemError("gone", "the document was deleted", Code.FailedPrecondition),
  );
  expect([received.code, received.rawMessage, problemOf(received)]).toEqual([
    Code.FailedPrecondition,
    "the document was deleted",
    "gone",
  ]);
  expect(problemOf(notFound("document"))).toBeUndefined();
});
