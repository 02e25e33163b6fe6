/** Webhook endpoints, their messages and attempts (docs/design.md §2.1, §6). */
import { SIGNATURE_REQUEST_EVENT_TYPES, WEBHOOK_FORMATS } from "@countersign/domain";
import { z } from "zod";
import { id, instant, optionalTimestamp, page, pageQuery, text, timestamp } from "./values.js";

/** `signature_request.sent` … : the event types as endpoints subscribe to them. */
const WEBHOOK_EVENT_TYPES = SIGNATURE_REQUEST_EVENT_TYPES.map((type) => `signature_request.${type}` as const);

export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES as [string, ...string[]])
  .meta({ id: "WebhookEventType" });

const url = text()
  .max(2048)
  .meta({ description: "An https: URL that resolves to a public address.", format: "uri" });
const description = text().max(1000);
const eventTypes = z
  .array(WebhookEventType)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .meta({ description: "One to seven distinct event types." });

export const WebhookFormat = z.enum(WEBHOOK_FORMATS).meta({
  id: "WebhookFormat",
  description:
    "How deliveries are written and signed: `standard_webhooks` (our events; `webhook-id`, `webhook-timestamp` and `webhook-signature` headers) or `docusign_connect` (DocuSign Connect's JSON envelope events; `X-DocuSign-Signature-1` is the base64 HMAC-SHA256 of the body keyed by the secret, `-2` the previous secret's during a rotation). Chosen at registration.",
});

export const WebhookEndpointInput = z
  .strictObject({
    url,
    description: description.optional(),
    eventTypes,
    format: WebhookFormat.optional().meta({ description: "`standard_webhooks` unless given." }),
  })
  .meta({ id: "WebhookEndpointInput" });

export const WebhookEndpointChanges = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    disabled: z.boolean().optional().meta({
      description: "true disables the endpoint; false enables it again and clears its failing streak.",
    }),
  })
  .meta({ id: "WebhookEndpointChanges" });

export const WebhookEndpoint = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(WebhookEventType),
    format: WebhookFormat,
    disabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: "Why the endpoint was disabled, in words." }),
    failingSince: optionalTimestamp.meta({
      description:
        "When deliveries started failing without a success since; the endpoint is disabled after 5 days.",
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "WebhookEndpoint" });

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().meta({ description: "The signing secret (whsec_…); shown here and by reveal only." }),
}).meta({ id: "CreatedWebhookEndpoint" });

export const WebhookEndpointPage = page(WebhookEndpoint, "WebhookEndpointPage");

export const WebhookSecret = z.strictObject({ secret: z.string() }).meta({ id: "WebhookSecret" });

export const RotatedWebhookSecret = z
  .strictObject({
    secret: z.string().meta({ description: "The new signing secret." }),
    previousSecretExpiresAt: timestamp.meta({ description: "Until then the replaced secret signs too." }),
  })
  .meta({ id: "RotatedWebhookSecret" });

export const WebhookAttempt = z
  .strictObject({
    id: z.uuid(),
    attemptedAt: timestamp,
    statusCode: z
      .int()
      .nullable()
      .meta({ description: "The endpoint's HTTP status; null when it did not answer." }),
    durationMs: z.number(),
    responseHeaders: z.record(z.string(), z.string()),
    responseBody: z.string().meta({ description: "The first 20 KB of the decompressed body." }),
    error: z
      .string()
      .nullable()
      .meta({ description: "The network error or refusal, when there was no answer." }),
    succeeded: z.boolean(),
    trigger: z.enum(["delivery", "retry", "replay", "test"]),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookMessage = z
  .strictObject({
    id: z
      .uuid()
      .meta({ description: "Sent as webhook-id with every attempt: the receiver's idempotency key." }),
    eventId: z.uuid(),
    eventType: WebhookEventType,
    status: z.enum(["pending", "succeeded", "failed"]),
    attemptCount: z.int().min(0),
    nextAttemptAt: optionalTimestamp,
    createdAt: timestamp,
    payload: z.record(z.string(), z.unknown()).meta({ description: "The JSON body every attempt posts." }),
    attempts: z.array(WebhookAttempt).meta({ description: "The 10 newest attempts, newest first." }),
  })
  .meta({ id: "WebhookMessage" });

export const WebhookMessagePage = page(WebhookMessage, "WebhookMessagePage");

export const WebhookMessageQuery = pageQuery.extend({
  status: z
    .enum(["pending", "succeeded", "failed"])
    .optional()
    .meta({ description: "Only messages in this state." }),
  eventType: WebhookEventType.optional().meta({ description: "Only messages of this type." }),
});

export const ReplayInput = z
  .strictObject({
    since: instant("Messages made at or after this time are delivered again."),
    onlyFailed: z.boolean().optional().meta({ description: "Only messages whose every attempt failed." }),
  })
  .meta({ id: "ReplayInput" });

export const Replayed = z.strictObject({ replayedCount: z.int().min(0) }).meta({ id: "Replayed" });

export const TestFireInput = z.strictObject({ eventType: WebhookEventType }).meta({ id: "TestFireInput" });

export const TestFireResult = z
  .strictObject({
    messageId: z.string().meta({ description: "The webhook-id the test was posted with." }),
    payload: z.record(z.string(), z.unknown()),
    attempt: WebhookAttempt,
  })
  .meta({ id: "TestFireResult" });

const endpointId = id("The webhook endpoint's id.");
export const EndpointIdParams = z.object({ endpointId });
export const MessageIdParams = z.object({ endpointId, messageId: id("The message's id.") });
