/**
 * Who may call requests, and what: the gateway serves the public API, the signing page and the
 * console; listing a request's signing links (which open it) is the operator's alone.
 */

import { callersOf } from "@countersign/domain";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";

const OPERATOR_ONLY = new Set(["ListSigningLinks"]);

export const REQUESTS_CALLERS = callersOf({
  gateway: RequestsService.methods.map((method) => method.name).filter((name) => !OPERATOR_ONLY.has(name)),
  operator: "*",
});
