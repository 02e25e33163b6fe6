/**
 * Makes embedded views — the console's sending and template-editing flows inside an integrator's
 * app — for the native API, `/restapi` (createSenderView, createEditView) and MCP alike: checks what
 * the view names (a draft to send, a template to edit, the origin that frames it, where it returns)
 * and asks auth for its single-use URL.
 */

import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import {
  type ApiScope,
  type EmbeddedViewKind,
  listedFrameOrigin,
  returnUrlViolations,
  VIEW_TICKET_LIFETIME_SECONDS,
  viewPath,
} from "@countersign/domain";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { FieldViolation } from "@countersign/kit";
import { KINDS } from "./embedded-view-kinds.js";
import { ApiProblem } from "./problems.js";
import type { Actor } from "./public-api.js";

export interface ViewWanted {
  kind: EmbeddedViewKind;
  /** The draft request (sender) or template (template edit); "" for none. */
  resourceId: string;
  frameOrigin: string;
  returnUrl: string;
  /** The field types the view's editors offer; empty for all. */
  fieldTypes: readonly string[];
  /** The template a sender view sends from; "" for any. */
  templateId: string;
}

/** Who asks: their workspace, the key or integration as the actor names it, and its scopes. */
export interface ViewMaker {
  workspaceId: string;
  actor: Pick<Actor, "apiKeyId" | "userId">;
  scopes: ReadonlySet<ApiScope>;
}

export interface MadeView {
  /** null for a dry run, which checks what the view names and makes none. */
  url: string | null;
  expiresAt: Date;
}

export interface EmbeddedViewServices {
  auth: Client<typeof AuthService>;
  requests: Client<typeof RequestsService>;
  templates: Client<typeof TemplatesService>;
  publicUrl: string;
}

export function embeddedViews({ auth, requests, templates, publicUrl }: EmbeddedViewServices) {
  /** The origin as the browser compares it, checked against the workspace's list; "" for none. */
  async function allowedOrigin(workspaceId: string, text: string): Promise<string | FieldViolation> {
    if (!text) return "";
    const { settings } = await requests.getEmbeddingSettings({ workspaceId });
    const allowed = listedFrameOrigin(text, settings?.frameOrigins ?? []);
    return "message" in allowed ? { path: "frameOrigin", message: allowed.message } : allowed.origin;
  }

  /** The resource must be the workspace's, and a sender view's a draft: what the flow works on. */
  async function checkResource(
    { workspaceId }: ViewMaker,
    { kind, resourceId, templateId }: ViewWanted,
  ): Promise<void> {
    if (templateId) await templates.getTemplate({ workspaceId, templateId });
    if (!resourceId) return;
    if (kind === "template_edit") {
      await templates.getTemplate({ workspaceId, templateId: resourceId });
      return;
    }
    const { signatureRequest } = await requests.getSignatureRequest({ workspaceId, requestId: resourceId });
    if (signatureRequest?.status !== "draft") {
      throw new ApiProblem(
        "invalid_state",
        `this request is ${signatureRequest?.status ?? "gone"}: a sender view sends a draft, or prepares a new request when no request is named`,
      );
    }
  }

  return async function makeView(maker: ViewMaker, wanted: ViewWanted, dryRun = false): Promise<MadeView> {
    const origin = await allowedOrigin(maker.workspaceId, wanted.frameOrigin);
    const violations = [
      ...returnUrlViolations(wanted.returnUrl),
      ...(typeof origin === "string" ? [] : [origin]),
    ];
    if (violations.length > 0)
      throw new ApiProblem("validation_failed", "the view cannot be made", violations);
    await checkResource(maker, wanted);
    if (dryRun) return { url: null, expiresAt: new Date(Date.now() + VIEW_TICKET_LIFETIME_SECONDS * 1000) };
    const byIntegration = maker.actor.userId !== "";
    const { view, ticket } = await auth.createEmbeddedView({
      workspaceId: maker.workspaceId,
      makerId: maker.actor.apiKeyId,
      userId: byIntegration ? maker.actor.userId : "",
      makerScopes: [...maker.scopes],
      kind: KINDS[wanted.kind],
      resourceId: wanted.resourceId,
      frameOrigin: origin as string,
      returnUrl: wanted.returnUrl,
      fieldTypes: [...wanted.fieldTypes],
      templateId: wanted.templateId,
    });
    if (!view?.expireTime) throw new Error("auth answered a view without its expiry");
    return { url: new URL(viewPath(ticket), publicUrl).href, expiresAt: timestampDate(view.expireTime) };
  };
}

export type MakeView = ReturnType<typeof embeddedViews>;
