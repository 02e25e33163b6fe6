/**
 * What the gateway tells the signing page in its head when it serves the page for another site's
 * frame (an embedded URL made with a frame origin): the session, which no cookie carries there, and
 * the origin its events go to (the events themselves are @countersign/embed's protocol).
 */
export const FRAME_META = { session: "countersign-session", origin: "countersign-frame-origin" } as const;

/** The header a framed signing page names its session by on each call, where it has no cookie. */
export const FRAMED_SESSION_HEADER = "X-Signing-Session";

/**
 * The most origins a workspace may list to frame its signing page: enough for an app's production,
 * staging and development origins and a few customers' hosts.
 */
export const MAX_FRAME_ORIGINS = 20;
