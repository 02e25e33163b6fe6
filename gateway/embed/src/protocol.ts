/**
 * What a Countersign page shown in a frame — the signing page, a sender or template edit view —
 * tells the page that frames it: messages posted to that page's origin alone (the `frameOrigin` its
 * URL was made for), never to `*`. They drive the host's screen; the webhook stays the source of
 * truth for what was signed and sent.
 */

/** Every message carries it, so that a page listening to several frames knows ours. */
export const FRAME_MESSAGE_SOURCE = "countersign";

export type SigningFrameEvent =
  /** The signer sees the request (or the codes it asks for first). */
  | { type: "ready"; requestId: string; recipientId: string }
  /** A field of the signer's was filled or emptied; how many required ones are left. */
  | { type: "field_changed"; fieldId: string; filled: boolean; requiredLeft: number }
  | {
      type: "completed";
      requestId: string;
      recipientId: string;
      /** The request's status after this signature: `completed` once sealed, else `in_progress`. */
      requestStatus: string;
      /** This was the last signature: the document is being sealed. */
      everyoneSigned: boolean;
    }
  | { type: "declined"; requestId: string; recipientId: string }
  /** The signer handed the request to someone else; their session has ended. */
  | { type: "reassigned"; requestId: string; recipientId: string }
  /**
   * The session is over: idle too long (`session_ended`), its URL used or expired (`url_used`,
   * `url_expired`), or its request ended (`cancelled`, `declined`, `expired`…).
   */
  | { type: "session_expired"; reason: string }
  /** Something the page could not do; it shows the signer why and offers to try again. */
  | { type: "error"; message: string; status: number };

export type SigningFrameEventType = SigningFrameEvent["type"];

export type SigningFrameMessage = SigningFrameEvent & { source: typeof FRAME_MESSAGE_SOURCE };

/** Every event type, in the order a signing goes through them. */
export const SIGNING_FRAME_EVENT_TYPES = [
  "ready",
  "field_changed",
  "completed",
  "declined",
  "reassigned",
  "session_expired",
  "error",
] as const satisfies readonly SigningFrameEventType[];

/** Whether a message's data is one of ours (check `event.origin` first: anyone can post this shape). */
export function isSigningFrameMessage(data: unknown): data is SigningFrameMessage {
  if (typeof data !== "object" || data === null) return false;
  const { source, type } = data as { source?: unknown; type?: unknown };
  return source === FRAME_MESSAGE_SOURCE && (SIGNING_FRAME_EVENT_TYPES as readonly unknown[]).includes(type);
}

/**
 * What a sender or template edit view (an embedded view of our console) tells the page that frames
 * it, posted to that page's origin alone. `view` says which flow posts it.
 */
export type ViewFrameEvent =
  /** The flow is shown, ready for its user. */
  | { type: "ready" }
  /** A request was sent (or, with `status: "draft"`, kept as a draft) from the sender view. */
  | { type: "sent"; requestId: string; status: string }
  /** The template was saved in the template edit view. */
  | { type: "saved"; templateId: string }
  /** The view's credential expired or its maker's key was deleted: a new view is needed. */
  | { type: "session_expired"; reason: string };

export type ViewFrameEventType = ViewFrameEvent["type"];

export type ViewFrameMessage = ViewFrameEvent & {
  source: typeof FRAME_MESSAGE_SOURCE;
  view: "sender" | "template_edit";
};

/** Every event type of a view. */
export const VIEW_FRAME_EVENT_TYPES = [
  "ready",
  "sent",
  "saved",
  "session_expired",
] as const satisfies readonly ViewFrameEventType[];

/** Whether a message's data is a view's (check `event.origin` first: anyone can post this shape). */
export function isViewFrameMessage(data: unknown): data is ViewFrameMessage {
  if (typeof data !== "object" || data === null) return false;
  const { source, type, view } = data as { source?: unknown; type?: unknown; view?: unknown };
  return (
    source === FRAME_MESSAGE_SOURCE &&
    (view === "sender" || view === "template_edit") &&
    (VIEW_FRAME_EVENT_TYPES as readonly unknown[]).includes(type)
  );
}
