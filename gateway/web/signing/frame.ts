/**
 * The signing page inside another site's frame (an embedded URL made with a frame origin). No cookie
 * of ours reaches a third-party frame, so the gateway serves the page with its session and the
 * host's origin in its head: read once at start, kept in memory and taken out of the document. What
 * happens is posted to that origin alone.
 */
import { FRAME_META, FRAMED_SESSION_HEADER } from "@countersign/domain/web";
import {
  FRAME_MESSAGE_SOURCE,
  type SigningFrameEvent,
  type SigningFrameMessage,
} from "@countersign/embed/protocol";
import { useEffect, useRef } from "react";

function takeMeta(name: string): string {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  meta?.remove();
  return meta?.content ?? "";
}

const session = takeMeta(FRAME_META.session);
const hostOrigin = takeMeta(FRAME_META.origin);

/** The page was served with its session: a link of the page would reach the gateway without it. */
export const framed = session !== "";

/** What names the session on each call in a frame, where there is no cookie; nothing on a page of its own. */
export const sessionHeaders: Record<string, string> = framed ? { [FRAMED_SESSION_HEADER]: session } : {};

/** Tells the page framing this one what happened; nothing when no page of the URL's origin frames it. */
export function tellHost(event: SigningFrameEvent): void {
  if (!hostOrigin || window.parent === window) return;
  const message: SigningFrameMessage = { source: FRAME_MESSAGE_SOURCE, ...event };
  // The browser delivers it only if the parent is still at that origin: nothing leaks to another.
  window.parent.postMessage(message, hostOrigin);
}

/**
 * Tells the host each field the signer fills or empties, with how many required ones are left;
 * typing within a field that stays filled tells nothing.
 */
export function useFieldEvents(filledIds: string[], requiredLeft: number): void {
  const before = useRef<Set<string> | undefined>(undefined);
  const key = filledIds.join(",");
  useEffect(() => {
    const now = new Set(key ? key.split(",") : []);
    const was = before.current;
    before.current = now;
    if (!was) return;
    for (const fieldId of now)
      if (!was.has(fieldId)) tellHost({ type: "field_changed", fieldId, filled: true, requiredLeft });
    for (const fieldId of was)
      if (!now.has(fieldId)) tellHost({ type: "field_changed", fieldId, filled: false, requiredLeft });
  }, [key, requiredLeft]);
}
