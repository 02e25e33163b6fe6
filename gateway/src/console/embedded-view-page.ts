/**
 * Opens an embedded view's URL (`/console/views/{ticket}`): the ticket is spent once, and the
 * console's page is answered with the view — its credential, flow and bound draft or template — in
 * its head, framed by the view's origin alone. No cookie is set: in another site's frame none would
 * come back, so the page keeps its credential in memory and calls the public API with it.
 */

import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { VIEW_META, type ViewMeta } from "@countersign/domain";
import type { AuthService, EmbeddedView } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { z } from "zod";
import type { Contract } from "../contract/operation.js";
import { text } from "../contract/values.js";
import { DeclaredRouter } from "../declared-router.js";
import { kindNameOf } from "../embedded-view-kinds.js";
import type { RateLimiter } from "../rate-limiter.js";
import { sendLinkPage } from "../signing/link-pages.js";
import type { SendPage } from "../web-app.js";

const HTML_PAGE = { "text/html": { schema: { type: "string" as const } } };

const ViewParams = z.object({
  ticket: text().meta({ description: "The secret part of the view's URL, as the API answered it." }),
});

export interface EmbeddedViewPageOptions {
  auth: Client<typeof AuthService>;
  contract: Contract;
  /** The console's page. */
  sendPage: SendPage;
  /** Views opened per client address. */
  limiter: RateLimiter;
}

/** What the page is told of its view, in its head. */
function viewMeta(view: EmbeddedView, credential: string): string {
  return JSON.stringify({
    credential,
    kind: kindNameOf(view.kind) ?? "sender",
    workspaceId: view.workspaceId,
    resourceId: view.resourceId,
    frameOrigin: view.frameOrigin,
    returnUrl: view.returnUrl,
    fieldTypes: view.fieldTypes,
    templateId: view.templateId,
    expiresAt: view.expireTime ? timestampDate(view.expireTime).toISOString() : "",
  } satisfies ViewMeta);
}

export function embeddedViewPageRoutes({ auth, contract, sendPage, limiter }: EmbeddedViewPageOptions) {
  const routes = new DeclaredRouter(contract, "/console", "none");
  // Express answers HEAD with the GET route, which would spend the ticket on a link checker's probe.
  routes.router.head("/views/:ticket", (_req, res) => {
    res.set("Allow", "GET").status(405).end();
  });
  routes.on(
    "get",
    "/views/:ticket",
    {
      summary: "Open an embedded view",
      description:
        "The page of a sender or template edit view (`POST /sender-views`, `POST /templates/{templateId}/edit-view`): it opens once, before the URL's `expiresAt`, framed only by the view's `frameOrigin` (by no page when none was given). A URL used, expired or unknown answers a page saying so.",
      tag: "Embedded views",
      params: ViewParams,
      answers: {
        200: { description: "The view's page.", content: HTML_PAGE },
        404: { description: "No view has this URL; the page says so.", content: HTML_PAGE },
        410: { description: "The URL was used or has expired; the page says so.", content: HTML_PAGE },
        429: { description: "Too many views opened from this address.", content: HTML_PAGE },
        503: { description: "Views cannot be opened right now; the page says to retry.", content: HTML_PAGE },
      },
      problems: [],
    },
    async ({ req, res, params }) => {
      const limit = limiter.take(req.ip ?? "unknown");
      if (!limit.allowed) {
        res.set("Retry-After", String(limit.retryAfterSeconds));
        sendLinkPage(req, res, {
          status: 429,
          title: { text: "Too many views opened" },
          message: {
            text: `Too many views were opened from this address. Try again in ${limit.retryAfterSeconds} seconds.`,
          },
        });
        return;
      }
      try {
        const { view, credential } = await auth.openEmbeddedView({ ticket: params.ticket });
        if (!view) throw new Error("auth opened a view it did not answer");
        sendPage(req, res, {
          ...(view.frameOrigin ? { frameAncestor: view.frameOrigin } : {}),
          meta: { [VIEW_META]: viewMeta(view, credential) },
        });
      } catch (err) {
        if (!(err instanceof ConnectError)) throw err;
        if (err.code === Code.NotFound) {
          sendLinkPage(req, res, {
            status: 404,
            title: { text: "This link is not valid" },
            message: {
              text: "Check that the whole link was copied, or ask the app that showed it for a new one.",
            },
          });
        } else if (err.code === Code.FailedPrecondition) {
          sendLinkPage(req, res, {
            status: 410,
            title: { text: "This link no longer opens" },
            message: {
              text: "It opens once, within five minutes of being made. Ask the app that showed it for a new one.",
            },
          });
        } else if (err.code === Code.Unavailable || err.code === Code.DeadlineExceeded) {
          sendLinkPage(req, res, {
            status: 503,
            title: { text: "Not available right now" },
            message: { text: "Try again in a moment." },
          });
        } else {
          throw err;
        }
      }
    },
  );
  return routes.router;
}
