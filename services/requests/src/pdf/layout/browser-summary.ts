/**
 * A signer's browser as a person reads it on the certificate — "Chrome 131 on Windows 10" — from
 * the User-Agent header it sent (bowser reads it); the whole header stays in the audit trail.
 */
import Bowser from "bowser";

export function browserSummary(userAgent: string): string {
  if (!userAgent.trim()) return "not known";
  const { browser, os } = Bowser.parse(userAgent);
  const version = browser.version?.split(".")[0];
  const named = browser.name ? [browser.name, version].filter(Boolean).join(" ") : "";
  const system = os.name
    ? [os.name, os.versionName ?? os.version?.split(".").slice(0, 2).join(".")].filter(Boolean).join(" ")
    : "";
  if (named && system) return `${named} on ${system}`;
  return named || system || "not recognised (the audit trail holds what it sent)";
}
