/**
 * Paths as logs and API Usage may keep them. Some paths carry a secret: a signing link
 * (`/sign/{token}`) is a bearer credential for one signer, and a log line must not hand it on.
 * Query strings are never kept at all.
 */
const SIGNING_TOKEN = /^\/sign\/(?!(?:api|assets)(?:\/|$)|index\.html$)[^/]+/;

export function redactedPath(path: string): string {
  return path.replace(SIGNING_TOKEN, "/sign/[redacted]");
}

/**
 * The path a request was made to, redacted. Inside a router mounted at a prefix (`/sign`,
 * `/console/api`) Express shortens `req.path`; `originalUrl` keeps the whole of it.
 */
export function loggedPath(req: { originalUrl: string }): string {
  const path = req.originalUrl.split("?")[0] ?? "";
  return redactedPath(path);
}
