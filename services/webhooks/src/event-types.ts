/** The seven event types an endpoint subscribes to, as the API names them (docs/design.md §6). */
import { SIGNATURE_REQUEST_EVENT_TYPES, type SignatureRequestEventType } from "@countersign/domain";

export const WEBHOOK_EVENT_TYPES = SIGNATURE_REQUEST_EVENT_TYPES.map(
  (type) => `signature_request.${type}` as const,
);
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function webhookEventType(type: SignatureRequestEventType): WebhookEventType {
  return `signature_request.${type}`;
}

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}
