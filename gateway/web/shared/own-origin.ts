/**
 * An address the API gives at the deployment's public URL, as a path on this page's own origin: a
 * page reached by another of the gateway's names would otherwise be refused by its own policy
 * (`img-src 'self'`), though the gateway behind both names is the same.
 */
export function onOwnOrigin(url: string): string {
  return new URL(url, window.location.href).pathname;
}
