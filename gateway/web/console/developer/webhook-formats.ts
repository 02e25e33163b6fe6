/** What each delivery format is, in the words the console shows when one is chosen and after. */
import type { WebhookEndpoint } from "../types";

export type WebhookFormat = WebhookEndpoint["format"];

export const WEBHOOK_FORMATS: { value: WebhookFormat; label: string; description: string; verify: string }[] =
  [
    {
      value: "standard_webhooks",
      label: "Countersign events (Standard Webhooks)",
      description: "Our JSON events. Any Standard Webhooks library checks their signature.",
      verify: "Check webhook-signature with the secret, as Standard Webhooks libraries do.",
    },
    {
      value: "docusign_connect",
      label: "DocuSign Connect",
      description:
        "DocuSign Connect's JSON envelope events: a receiver written for DocuSign takes them as they are.",
      verify:
        "X-DocuSign-Signature-1 is the base64 HMAC-SHA256 of the body with the whole secret as the key, as DocuSign's HMAC check computes it.",
    },
  ];

export function formatOf(endpoint: WebhookEndpoint) {
  return (
    WEBHOOK_FORMATS.find((f) => f.value === endpoint.format) ??
    (WEBHOOK_FORMATS[0] as (typeof WEBHOOK_FORMATS)[number])
  );
}
