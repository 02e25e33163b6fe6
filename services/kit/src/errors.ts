/**
 * Deliberate errors with a shape the gateway can translate: a validation failure carries every
 * violation as `countersign.errors.v1.ValidationErrors`, so the client sees all of them at once.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  ProblemCodeSchema,
  RetryAfterSchema,
  ValidationErrorsSchema,
} from "@countersign/gen/countersign/errors/v1/errors_pb.js";

export interface FieldViolation {
  path: string;
  message: string;
}

export function validationError(
  violations: FieldViolation[],
  message = "the request is not valid",
): ConnectError {
  return new ConnectError(message, Code.InvalidArgument, undefined, [
    { desc: ValidationErrorsSchema, value: create(ValidationErrorsSchema, { errors: violations }) },
  ]);
}

/** The violations an error carries, as plain { path, message } objects. */
export function fieldViolations(err: ConnectError): FieldViolation[] {
  return err
    .findDetails(ValidationErrorsSchema)
    .flatMap((details) => details.errors.map(({ path, message }) => ({ path, message })));
}

/** Too many asking at once: the caller is to come back in `seconds` (the gateway's 429 with Retry-After). */
export function busyError(message: string, seconds: number): ConnectError {
  return new ConnectError(message, Code.ResourceExhausted, undefined, [
    { desc: RetryAfterSchema, value: create(RetryAfterSchema, { seconds }) },
  ]);
}

export function notFound(what: string): ConnectError {
  return new ConnectError(`${what} not found`, Code.NotFound);
}

/** Public problems that no gRPC code says on its own. */
export type SpecificProblem = "payload_too_large" | "unsupported_media_type" | "gone";

/** Details an error carries besides its problem code. */
type Details = NonNullable<ConstructorParameters<typeof ConnectError>[3]>;

/** An error the gateway answers with the named problem (its status comes from the problem). */
export function problemError(
  problem: SpecificProblem,
  message: string,
  code: Code,
  details: Details = [],
): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: ProblemCodeSchema, value: create(ProblemCodeSchema, { code: problem }) },
    ...details,
  ]);
}

export function problemOf(err: ConnectError): string | undefined {
  return err.findDetails(ProblemCodeSchema)[0]?.code;
}
