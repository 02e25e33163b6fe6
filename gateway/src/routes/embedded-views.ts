/**
 * Embedded sending and template editing (docs/api.md "Sending and template editing inside your
 * app"): a URL that opens the console's flow for one workspace inside the integrator's own app.
 * Keys only: the URL acts for whoever made it, which only the integrator's app may hand out.
 */
import { EditViewInput, EmbeddedViewUrl, SenderViewInput } from "../contract/embedded-views.js";
import { TemplateIdParams } from "../contract/templates.js";
import type { MadeView, MakeView } from "../embedded-views.js";
import { created, type PublicApi } from "../public-api.js";

const TAG = "Embedded views";
const PROBLEMS = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] as const;

export function embeddedViewRoutes(api: PublicApi, makeView: MakeView): void {
  api.route(
    "post",
    "/sender-views",
    {
      summary: "Get a sender view URL",
      description:
        "A URL that opens our sending flow for this workspace, to show inside your app: with `requestId`, a draft to review and send; with `templateId`, a request from that template; with neither, a new request prepared from documents (or a template the user chooses) and sent. It opens once, before `expiresAt` (5 minutes). 409 when the request named is not a draft.",
      tag: TAG,
      scope: "requests:send",
      dryRun: true,
      body: SenderViewInput,
      answers: { 201: { description: "The URL.", schema: EmbeddedViewUrl } },
      problems: [...PROBLEMS],
    },
    async ({ workspaceId, actor, scopes, body, dryRun }) =>
      created(
        json(
          await makeView(
            { workspaceId, actor, scopes: scopes ?? new Set() },
            {
              kind: "sender",
              resourceId: body.requestId ?? "",
              templateId: body.templateId ?? "",
              fieldTypes: body.fieldTypes ?? [],
              frameOrigin: body.frameOrigin ?? "",
              returnUrl: body.returnUrl ?? "",
            },
            dryRun,
          ),
        ),
      ),
    { inConsole: false },
  );

  api.route(
    "post",
    "/templates/:templateId/edit-view",
    {
      summary: "Get a template edit view URL",
      description:
        "A URL that opens our template editor on this template, to show inside your app: its documents, roles and fields, saved in place. It opens once, before `expiresAt` (5 minutes).",
      tag: TAG,
      scope: "templates:write",
      dryRun: true,
      params: TemplateIdParams,
      body: EditViewInput,
      answers: { 201: { description: "The URL.", schema: EmbeddedViewUrl } },
      problems: [...PROBLEMS],
    },
    async ({ workspaceId, actor, scopes, params, body, dryRun }) =>
      created(
        json(
          await makeView(
            { workspaceId, actor, scopes: scopes ?? new Set() },
            {
              kind: "template_edit",
              resourceId: params.templateId,
              templateId: "",
              fieldTypes: body.fieldTypes ?? [],
              frameOrigin: body.frameOrigin ?? "",
              returnUrl: body.returnUrl ?? "",
            },
            dryRun,
          ),
        ),
      ),
    { inConsole: false },
  );
}

function json(view: MadeView) {
  return { url: view.url, expiresAt: view.expiresAt.toISOString() };
}
