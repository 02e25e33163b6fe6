/**
 * Whether the console shows live data or test data — what test keys make and see (sk_test_…). The
 * choice is a cookie of this browser's, for the console's path only and ending with the browser
 * session: every request the console makes sends it, its downloads and exports included, and the
 * gateway reads it from a console session only.
 */
const COOKIE = "cs_data_mode";

export function showsTestData(): boolean {
  return document.cookie.split("; ").includes(`${COOKIE}=test`);
}

export function showTestData(on: boolean): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = on
    ? `${COOKIE}=test; Path=/console; SameSite=Strict${secure}`
    : `${COOKIE}=; Path=/console; Max-Age=0; SameSite=Strict${secure}`;
}
