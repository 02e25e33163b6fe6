/**
 * The token an e-mailed link carries in its fragment (`…/console/invitation#token=…`): a fragment
 * never reaches a server, so no access log or Referer holds the token. Read once, then removed from
 * the address bar, so a screenshot or a shared screen does not show it either.
 */
export function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}
