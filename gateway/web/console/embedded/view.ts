/**
 * The console inside an integrator's app (an embedded view: docs/api.md "Sending and template
 * editing inside your app"). The gateway serves the page with its view in its head — the credential
 * its calls carry, the flow, the draft or template it is bound to — read once at start, kept in
 * memory and taken out of the document. Its calls go to the public API, whose operations the
 * console's own routes mirror, with the credential as their bearer token: no cookie reaches a page in
 * another site's frame. What happens is posted to the framing origin alone.
 */
import { VIEW_META, type ViewMeta } from "@countersign/domain/web";
import {
  FRAME_MESSAGE_SOURCE,
  type ViewFrameEvent,
  type ViewFrameMessage,
} from "@countersign/embed/protocol";

function takeView(): ViewMeta | undefined {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${VIEW_META}"]`);
  meta?.remove();
  if (!meta) return undefined;
  try {
    return JSON.parse(meta.content) as ViewMeta;
  } catch {
    return undefined;
  }
}

/** The view this page was opened as; undefined for the console itself. */
export const embeddedView = takeView();

/** A console API path of the view's workspace → the public API's, where the view's credential is taken. */
const CONSOLE_WORKSPACE = /^\/console\/api\/workspaces\/[^/]+(?=\/)/;

/** Where a console API call goes, and the headers it needs there: the view's credential in a view. */
export function addressOf(consolePath: string): { url: string; headers: Record<string, string> } {
  if (!embeddedView) return { url: consolePath, headers: {} };
  return {
    url: consolePath.replace(CONSOLE_WORKSPACE, "/api/v1"),
    headers: { Authorization: `Bearer ${embeddedView.credential}` },
  };
}

/** Tells the page framing this one what happened; nothing when the view is a page of its own. */
export function tellHost(event: ViewFrameEvent): void {
  if (!embeddedView?.frameOrigin || window.parent === window) return;
  const message: ViewFrameMessage = { source: FRAME_MESSAGE_SOURCE, view: embeddedView.kind, ...event };
  // The browser delivers it only if the parent is still at that origin: nothing leaks to another.
  window.parent.postMessage(message, embeddedView.frameOrigin);
}

/** Ends the flow on a page of its own: to the app's return URL, saying how it ended. */
export function returnToApp(event: string, values: Record<string, string> = {}): boolean {
  if (!embeddedView?.returnUrl || embeddedView.frameOrigin) return false;
  const url = new URL(embeddedView.returnUrl);
  url.searchParams.set("event", event);
  for (const [name, value] of Object.entries(values)) url.searchParams.set(name, value);
  window.location.assign(url.href);
  return true;
}
