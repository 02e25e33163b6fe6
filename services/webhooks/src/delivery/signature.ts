/**
 * The signature headers of one attempt, in the endpoint's format. Standard Webhooks headers are made
 * by the `standardwebhooks` package itself, so that what we send is what every Standard Webhooks
 * library verifies; DocuSign Connect's are the base64 HMAC-SHA256 of the body, keyed by the
 * endpoint's secret, as DocuSign documents their check. During a rotation both secrets sign:
 * `webhook-signature` then carries two space-separated signatures, and Connect's headers are
 * numbered, the current secret's first (`X-DocuSign-Signature-1`, `-2`).
 */
import { createHmac } from "node:crypto";
import type { WebhookFormat } from "@countersign/domain";
import { Webhook } from "standardwebhooks";

export function signedHeaders(
  format: WebhookFormat,
  secrets: readonly string[],
  messageId: string,
  at: Date,
  payload: string,
): Record<string, string> {
  if (format === "docusign_connect") {
    return Object.fromEntries([
      ["X-Authorization-Digest", "HMACSHA256"],
      ...secrets.map((secret, i) => [
        `X-DocuSign-Signature-${i + 1}`,
        createHmac("sha256", secret).update(payload).digest("base64"),
      ]),
    ]);
  }
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(" "),
  };
}
