/**
 * Who may call requests, and what: the gateway serves the public API, the signing page and the
 * console; listing a request's signing links (which open it) is the operator's alone.
 */
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { CallerPolicy } from "@countersign/kit";

const OPERATOR_ONLY = new Set(["ListSigningLinks"]);

export const REQUESTS_CALLERS: CallerPolicy = {
  gateway: RequestsService.methods.map((method) => method.name).filter((name) => !OPERATOR_ONLY.has(name)),
  operator: "*",
};
