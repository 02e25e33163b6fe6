/**
 * The addresses an embedded page is given by an integrator: where it sends its user when done (a
 * return URL) and which origin may frame it. The requests service checks them for embedded signing,
 * the gateway for embedded sending and template editing; both read them here.
 */
import type { FieldViolation } from "@countersign/kit";

/** The longest return URL. */
export const MAX_RETURN_URL_LENGTH = 2000;

/** Hosts a return URL may name over plain http: the integrator's own machine during development. */
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** https, or http to the integrator's own machine during development. */
function secureOrLoopback(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.test(url.hostname));
}

/**
 * A return URL is where the signing page sends the signer: an absolute https URL (http only for a
 * loopback host), with nothing a URL parser would silently drop or a header would split on.
 */
export function returnUrlViolations(returnUrl: string): FieldViolation[] {
  if (!returnUrl) return [];
  const refuse = (message: string) => [{ path: "returnUrl", message }];
  if (returnUrl.length > MAX_RETURN_URL_LENGTH)
    return refuse(`must be at most ${MAX_RETURN_URL_LENGTH} characters`);
  if ([...returnUrl].some((c) => (c.codePointAt(0) ?? 0) <= 0x20 || /\p{Cc}/u.test(c)))
    return refuse("must not contain spaces or control characters (such as CR or LF)");
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    return refuse("must be an absolute https URL");
  }
  return secureOrLoopback(url) ? [] : refuse("must be an absolute https URL (http only for localhost)");
}

/** The longest origin: a host name's 253 characters with a scheme and a port. */
const MAX_ORIGIN_LENGTH = 300;

/**
 * An origin that may frame the signing page, as the browser's `frame-ancestors` and `postMessage`
 * compare it: https (http only for a loopback host), a host and perhaps a port, nothing else. The
 * origin as compared (lower case, the default port dropped), or why the text is not one.
 */
export function frameOriginOf(text: string): { origin: string } | { message: string } {
  const notOrigin = { message: "must be an origin alone, such as https://app.example.com (no path)" };
  if (text.length > MAX_ORIGIN_LENGTH) return { message: `must be at most ${MAX_ORIGIN_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return notOrigin;
  }
  if (!secureOrLoopback(url)) return { message: "must be an https origin (http only for localhost)" };
  // A host of DNS labels (IDNs as punycode) or an IPv6 address: the parser keeps characters such as
  // ";" in a host, which would end the CSP directive the origin is written into.
  if (!HOST_NAME.test(url.hostname))
    return { message: "must name its host in letters, digits, dots and dashes" };
  // What the parser kept must be all there was (no path, query or user), the default port aside.
  const given = text.replace(/\/$/, "").toLowerCase();
  const defaultPort = `${url.origin}:${url.protocol === "https:" ? 443 : 80}`;
  return given === url.origin || (url.port === "" && given === defaultPort)
    ? { origin: url.origin }
    : notOrigin;
}

/** A host as an origin may name it: DNS labels, or an IPv6 address in brackets. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/**
 * The origin a URL is made for, as compared, if it is one of the workspace's `listed` origins; else
 * why not (the message is for the `frameOrigin` an API caller gave).
 */
export function listedFrameOrigin(
  text: string,
  listed: readonly string[],
): { origin: string } | { message: string } {
  const parsed = frameOriginOf(text);
  if ("message" in parsed || listed.includes(parsed.origin)) return parsed;
  return {
    message: `${parsed.origin} is not among the workspace's embedding origins (Settings → Developer → Embedding)`,
  };
}
