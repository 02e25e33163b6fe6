/**
 * Paths as logs and API Usage may keep them. Some paths carry a secret: a signing link
 * (`/sign/{token}`) is a bearer credential for one signer, and a log line must not hand it on.
 * Query strings are never kept at all.
 */
const SIGNING_TOKEN = /^\/sign\/(?!(?:api|assets)(?:\/|$)|index\.html$)[^/]+/;

export function redactedPath(path: string): string {
  return path.replace(SIGNING_TOKEN, "/sign/[redacted]");
}
