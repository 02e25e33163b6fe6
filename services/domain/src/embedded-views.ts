/**
 * Embedded views (docs/api.md "Sending and template editing inside your app"): a console flow an
 * integrator shows in its own app. The view's URL opens once; the page it serves calls the public
 * API with a credential that acts for whoever made the view, with the flow's scopes alone, bound
 * to the draft or template the view names. Auth issues both secrets; the gateway reads these.
 */
import type { ApiScope } from "./api-scopes.js";

export const EMBEDDED_VIEW_KINDS = ["sender", "template_edit"] as const;
export type EmbeddedViewKind = (typeof EMBEDDED_VIEW_KINDS)[number];

/** What each flow's page does through the API; a view gets those its maker holds, and never more. */
export const EMBEDDED_VIEW_SCOPES: Record<EmbeddedViewKind, readonly ApiScope[]> = {
  sender: [
    "templates:read",
    "documents:read",
    "documents:write",
    "requests:read",
    "requests:write",
    "requests:send",
  ],
  template_edit: ["templates:read", "templates:write", "documents:read", "documents:write"],
};

/** The scope a maker needs for each flow: what the flow is for. */
export const EMBEDDED_VIEW_PURPOSE: Record<EmbeddedViewKind, ApiScope> = {
  sender: "requests:send",
  template_edit: "templates:write",
};

/** A view's URL opens within five minutes of its making, as DocuSign's views do. */
export const VIEW_TICKET_LIFETIME_SECONDS = 300;
/** The page's credential lasts an hour from opening: a sitting, not a standing key. */
export const VIEW_CREDENTIAL_LIFETIME_SECONDS = 3600;

/** The page's credential: "cvt_" and 43 base62 digits; the gateway asks auth about no other shape. */
export const VIEW_CREDENTIAL_PATTERN = /^cvt_[0-9A-Za-z]{43}$/;
/** The URL's ticket, base64url of 32 random bytes. */
export const VIEW_TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Where a view's URL opens, under the deployment's public URL. */
export const viewPath = (ticket: string) => `/console/views/${ticket}`;

/** The `<meta>` the gateway serves a view's page with: the view, as `ViewMeta` in JSON. */
export const VIEW_META = "countersign-view";

/** What a view's page is told in its head. */
export interface ViewMeta {
  /** The bearer credential of the page's API calls (`cvt_…`). */
  credential: string;
  kind: EmbeddedViewKind;
  workspaceId: string;
  /** The draft request or template the view is bound to; "" for none. */
  resourceId: string;
  /** The origin the page's events are posted to; "" when it is a page of its own. */
  frameOrigin: string;
  /** Where a page of its own sends its user when the flow ends; "" for none. */
  returnUrl: string;
  /** The field types the view's editors offer; empty for every type. */
  fieldTypes: string[];
  /** The template a sender view sends requests from; "" for any. */
  templateId: string;
  /** When the credential stops working. */
  expiresAt: string;
}
