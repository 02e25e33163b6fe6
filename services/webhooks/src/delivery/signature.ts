/**
 * The Standard Webhooks headers of one attempt, signed by the `standardwebhooks` package itself so
 * that what we send is what every Standard Webhooks library verifies. During a rotation both
 * secrets sign: `webhook-signature` then carries two space-separated signatures.
 */
import { Webhook } from "standardwebhooks";

export function signedHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  payload: string,
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(" "),
  };
}
