/**
 * How a webhook endpoint's deliveries are written and signed: `standard_webhooks`, our own events
 * under the Standard Webhooks headers, or `docusign_connect`, DocuSign Connect's JSON envelope events
 * signed with HMAC-SHA256, for receivers written for DocuSign. Chosen when the endpoint is made; the
 * webhooks service and the public API's contract read the same list.
 */
export const WEBHOOK_FORMATS = ["standard_webhooks", "docusign_connect"] as const;

export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export function isWebhookFormat(value: string): value is WebhookFormat {
  return (WEBHOOK_FORMATS as readonly string[]).includes(value);
}
