/**
 * What an embedded view's credential may call (docs/api.md "Sending and template editing inside
 * your app"): the operations its flow's page makes, and on the draft or template it is bound to
 * alone. Its scopes already stop what the flow's kind may not do at all; this stops the rest of the
 * workspace — listing its requests or documents, deleting, editing another template — so that a
 * view handed to one of an app's users is worth that flow and nothing more.
 */
import type { EmbeddedViewKind } from "@countersign/domain";
import type { RequestHandler } from "express";
import type { Caller } from "./key-verifier.js";
import { ApiProblem } from "./problems.js";

/** Reading and uploading the documents a flow draws: by id, never the workspace's list. */
const DOCUMENT_OPERATIONS = [
  "post /documents/upload",
  "get /documents/{documentId}",
  "get /documents/{documentId}/download",
  "get /documents/{documentId}/text-tags",
];

/** Each flow's operations, as `method path` under the API's base. */
const VIEW_OPERATIONS: Record<EmbeddedViewKind, ReadonlySet<string>> = {
  sender: new Set([
    ...DOCUMENT_OPERATIONS,
    "get /templates",
    "get /templates/{templateId}",
    "post /signature-requests",
    "get /signature-requests/{requestId}",
    "post /signature-requests/{requestId}/send",
  ]),
  template_edit: new Set([
    ...DOCUMENT_OPERATIONS,
    "get /templates/{templateId}",
    "patch /templates/{templateId}",
  ]),
};

/** The path parameter naming what each flow may be bound to. */
const BOUND_PARAMETER: Record<EmbeddedViewKind, string> = {
  sender: "requestId",
  template_edit: "templateId",
};

/** Operations a view bound to a draft does not make: it sends that draft, not another request. */
const UNBOUND_SENDER_ONLY = new Set([
  "post /signature-requests",
  "get /templates",
  "get /templates/{templateId}",
]);

/**
 * The check of one operation, `path` its template under the API's base: a view's credential must be
 * of a flow that makes it, and name the view's own draft or template where the path names one.
 */
export function viewAccessCheck(method: string, path: string): RequestHandler {
  const operation = `${method} ${path}`;
  return (req, res, next) => {
    const view = (res.locals.caller as Caller | undefined)?.view;
    if (!view) return next();
    const bound = view.resourceId !== "";
    if (
      !VIEW_OPERATIONS[view.kind].has(operation) ||
      (bound && view.kind === "sender" && UNBOUND_SENDER_ONLY.has(operation))
    ) {
      throw new ApiProblem(
        "forbidden",
        "an embedded view's credential may make only the calls of its own flow",
      );
    }
    // A sender view made for a template sends from it alone (the body is read before routing).
    const fromTemplate = (req.body as { templateId?: unknown } | undefined)?.templateId;
    if (
      view.templateId &&
      operation === "post /signature-requests" &&
      (typeof fromTemplate !== "string" || fromTemplate.toLowerCase() !== view.templateId)
    ) {
      throw new ApiProblem("forbidden", "this view sends requests from its own template alone");
    }
    const named = req.params[BOUND_PARAMETER[view.kind]];
    if (bound && typeof named === "string" && named.toLowerCase() !== view.resourceId) {
      throw new ApiProblem("not_found", "this view is for another request or template");
    }
    next();
  };
}
