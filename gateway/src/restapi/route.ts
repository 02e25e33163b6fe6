/**
 * What every /restapi route module is handed: how to declare a route (`on`, which authenticates,
 * checks the account in the path and names the route's errors the way DocuSign does), the service
 * clients, and the reading of a body or a query by a schema into DocuSign's error shape.
 */
import type { Client } from "@connectrpc/connect";
import type { ApiScope } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type {
  RequestsService,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { Request, Response } from "express";
import type { z } from "zod";
import type { MakeView } from "../embedded-views.js";
import type { Caller } from "../key-verifier.js";
import { type ErrorNames, invalidBody, invalidParameter } from "./docusign-errors.js";

export type Handler = (req: Request, res: Response, caller: Caller) => Promise<void>;

/**
 * Declares `method path` (below the account) with the API key scope it needs (an access token's
 * `signature` scope grants every one of them) and the error names its failures take.
 */
export type On = (
  method: "get" | "post" | "put" | "delete",
  path: string,
  scope: ApiScope | readonly ApiScope[],
  names: ErrorNames,
  handler: Handler,
) => void;

export interface RestApiServices {
  requests: Client<typeof RequestsService>;
  templates: Client<typeof TemplatesService>;
  documents: Client<typeof DocumentsService>;
  /** Makes sender and template edit views (embedded-views.ts). */
  makeView: MakeView;
}

export function read<S extends z.ZodType>(schema: S, value: unknown, what: "body" | "query"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || what}: ${i.message}`).join("; ");
  throw what === "body" ? invalidBody(`the body is not valid: ${issues}`) : invalidParameter(issues);
}

/** The caller's request with this envelope id. */
export async function requestOf(
  requests: RestApiServices["requests"],
  caller: Caller,
  envelopeId: string,
): Promise<SignatureRequest> {
  const { signatureRequest } = await requests.getSignatureRequest({
    workspaceId: caller.workspaceId,
    requestId: envelopeId,
  });
  if (!signatureRequest) throw new Error("the requests service answered without a request");
  return signatureRequest;
}
