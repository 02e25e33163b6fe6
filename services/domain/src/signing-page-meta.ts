/**
 * What the gateway tells the signing page in its head when it serves the page for another site's
 * frame (an embedded URL made with a frame origin): the session, which no cookie carries there, and
 * the origin its events go to (the events themselves are @countersign/embed's protocol).
 */
export const FRAME_META = { session: "countersign-session", origin: "countersign-frame-origin" } as const;
