/**
 * /restapi's sender and edit views (DocuSign's createSenderView and createEditView): the URL of our
 * sending flow on a draft envelope, or of our template editor on a template, made as the native
 * API makes them (embedded-views.ts) and answered as DocuSign's `ViewUrl`.
 */
import { z } from "zod";
import { text } from "../contract/values.js";
import { actorOf } from "../public-api.js";
import { ENVELOPE } from "./envelope-routes.js";
import { integratorOriginOf } from "./recipient-routes.js";
import { type On, type RestApiServices, read } from "./route.js";

/**
 * DocuSign's EnvelopeViewRequest and TemplateViewRequest (or the older ReturnUrlRequest): where to
 * return; their `settings` (which screens show) are taken and left to our flow, and `frameAncestors`,
 * as a focused view names them, puts the view in a frame of the app's origin.
 */
const ViewRequest = z.object({
  returnUrl: text().optional(),
  frameAncestors: z.array(text()).max(10).optional(),
});

export function viewRoutes(on: On, { makeView }: Pick<RestApiServices, "makeView">): void {
  on(
    "post",
    "/envelopes/:envelopeId/views/sender",
    "requests:send",
    { ...ENVELOPE, invalidState: "ENVELOPE_INVALID_STATUS" },
    async (req, res, caller) => {
      const asked = read(ViewRequest, req.body ?? {}, "body");
      const made = await makeView(
        { workspaceId: caller.workspaceId, actor: actorOf(req, res), scopes: caller.scopes },
        {
          kind: "sender",
          // The maker reads the envelope itself: a draft, of this account (404 or 400 otherwise).
          resourceId: String(req.params.envelopeId).toLowerCase(),
          templateId: "",
          fieldTypes: [],
          frameOrigin: integratorOriginOf(asked.frameAncestors ?? []),
          returnUrl: asked.returnUrl ?? "",
        },
      );
      res.status(201).json({ url: made.url });
    },
  );

  on(
    "post",
    "/templates/:templateId/views/edit",
    "templates:write",
    { notFound: "TEMPLATE_ID_INVALID" },
    async (req, res, caller) => {
      const asked = read(ViewRequest, req.body ?? {}, "body");
      const made = await makeView(
        { workspaceId: caller.workspaceId, actor: actorOf(req, res), scopes: caller.scopes },
        {
          kind: "template_edit",
          resourceId: String(req.params.templateId).toLowerCase(),
          templateId: "",
          fieldTypes: [],
          frameOrigin: integratorOriginOf(asked.frameAncestors ?? []),
          returnUrl: asked.returnUrl ?? "",
        },
      );
      res.status(201).json({ url: made.url });
    },
  );
}
