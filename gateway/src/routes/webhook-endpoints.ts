/**
 * Webhook endpoints over HTTP: register, list, get, change and delete endpoints; reveal and rotate
 * their secrets; and the delivery portal — messages with attempts, retry, replay and test-fire.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type {
  Attempt,
  Endpoint,
  Message,
  WebhooksService,
} from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import type { z } from "zod";
import { EmptyInput } from "../contract/signature-requests.js";
import { pageBody, pageQuery } from "../contract/values.js";
import {
  CreatedWebhookEndpoint,
  EndpointIdParams,
  MessageIdParams,
  Replayed,
  ReplayInput,
  RotatedWebhookSecret,
  TestFireInput,
  TestFireResult,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointInput,
  WebhookEndpointPage,
  type WebhookFormat,
  WebhookMessage,
  WebhookMessagePage,
  WebhookMessageQuery,
  WebhookSecret,
} from "../contract/webhooks.js";
import { iso, isoOrNull } from "../json-time.js";
import { accepted, created, noContent, ok, type PublicApi } from "../public-api.js";

const TAG = "Webhooks";
const READ_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;
const CHANGE_PROBLEMS = [...READ_PROBLEMS, 409, 413, 415, 422] as const;

function endpointJson(endpoint: Endpoint | undefined) {
  if (!endpoint) throw new Error("the webhooks service answered without an endpoint");
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    format: (endpoint.format || "standard_webhooks") as z.infer<typeof WebhookFormat>,
    disabled: endpoint.disabled,
    disabledReason: endpoint.disabled ? endpoint.disabledReason : null,
    failingSince: isoOrNull(endpoint.failingSince),
    createdAt: iso(endpoint.createTime),
    updatedAt: iso(endpoint.updateTime),
  };
}

function attemptJson(attempt: Attempt | undefined) {
  if (!attempt) throw new Error("the webhooks service answered without an attempt");
  return {
    id: attempt.id,
    attemptedAt: iso(attempt.attemptTime),
    statusCode: attempt.statusCode || null,
    durationMs: attempt.durationMs,
    responseHeaders: attempt.responseHeaders,
    responseBody: attempt.responseBody,
    error: attempt.error || null,
    succeeded: attempt.succeeded,
    trigger: attempt.trigger,
  };
}

function messageJson(message: Message | undefined) {
  if (!message) throw new Error("the webhooks service answered without a message");
  return {
    id: message.id,
    eventId: message.eventId,
    eventType: message.eventType,
    status: message.status,
    attemptCount: message.attemptCount,
    nextAttemptAt: isoOrNull(message.nextAttemptTime),
    createdAt: iso(message.createTime),
    payload: JSON.parse(message.payload) as Record<string, unknown>,
    attempts: message.attempts.map(attemptJson),
  };
}

export function webhookEndpointRoutes(api: PublicApi, webhooks: Client<typeof WebhooksService>): void {
  api.route(
    "post",
    "/webhook-endpoints",
    {
      summary: "Register a webhook endpoint",
      description: "The answer carries the signing secret; afterwards only reveal returns it.",
      tag: TAG,
      scope: "webhooks:manage",
      body: WebhookEndpointInput,
      answers: { 201: { description: "The endpoint with its secret.", schema: CreatedWebhookEndpoint } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, body }) => {
      const { endpoint, secret } = await webhooks.createEndpoint({
        workspaceId,
        url: body.url,
        description: body.description ?? "",
        eventTypes: body.eventTypes,
        format: body.format ?? "standard_webhooks",
      });
      return created({ ...endpointJson(endpoint), secret });
    },
  );

  api.route(
    "get",
    "/webhook-endpoints",
    {
      summary: "List webhook endpoints",
      tag: TAG,
      scope: "webhooks:manage",
      query: pageQuery,
      answers: { 200: { description: "A page of endpoints, newest first.", schema: WebhookEndpointPage } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, query }) => {
      const { endpoints, totalCount } = await webhooks.listEndpoints({ workspaceId, ...query });
      return ok(pageBody(endpoints.map(endpointJson), query, totalCount));
    },
  );

  api.route(
    "get",
    "/webhook-endpoints/:endpointId",
    {
      summary: "Get a webhook endpoint",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      answers: { 200: { description: "The endpoint, without its secret.", schema: WebhookEndpoint } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { endpoint } = await webhooks.getEndpoint({ workspaceId, ...params });
      return ok(endpointJson(endpoint));
    },
  );

  api.route(
    "patch",
    "/webhook-endpoints/:endpointId",
    {
      summary: "Change a webhook endpoint",
      description:
        "The properties present are replaced; `disabled: false` enables a disabled endpoint again.",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      body: WebhookEndpointChanges,
      answers: { 200: { description: "The endpoint as changed.", schema: WebhookEndpoint } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params, body }) => {
      const { endpoint } = await webhooks.updateEndpoint({
        workspaceId,
        ...params,
        url: body.url,
        description: body.description,
        eventTypes: body.eventTypes ? { values: body.eventTypes } : undefined,
        disabled: body.disabled,
      });
      return ok(endpointJson(endpoint));
    },
  );

  api.route(
    "delete",
    "/webhook-endpoints/:endpointId",
    {
      summary: "Delete a webhook endpoint",
      description: "Its messages and attempts go with it; nothing more is delivered to it.",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      answers: { 204: { description: "Deleted." } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      await webhooks.deleteEndpoint({ workspaceId, ...params });
      return noContent();
    },
  );

  api.route(
    "post",
    "/webhook-endpoints/:endpointId/secret/reveal",
    {
      summary: "Reveal a webhook endpoint's signing secret",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      body: EmptyInput,
      answers: { 200: { description: "The current secret.", schema: WebhookSecret } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { secret } = await webhooks.revealSecret({ workspaceId, ...params });
      return ok({ secret });
    },
  );

  api.route(
    "post",
    "/webhook-endpoints/:endpointId/secret/rotate",
    {
      summary: "Rotate a webhook endpoint's signing secret",
      description: "Deliveries carry signatures by both secrets for 24 hours, then by the new one only.",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      body: EmptyInput,
      answers: { 200: { description: "The new secret.", schema: RotatedWebhookSecret } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { secret, previousSecretExpireTime } = await webhooks.rotateSecret({ workspaceId, ...params });
      return ok({ secret, previousSecretExpiresAt: iso(previousSecretExpireTime) });
    },
  );

  api.route(
    "get",
    "/webhook-endpoints/:endpointId/messages",
    {
      summary: "List a webhook endpoint's messages with their attempts",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      query: WebhookMessageQuery,
      answers: { 200: { description: "A page of messages, newest first.", schema: WebhookMessagePage } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params, query }) => {
      const { messages, totalCount } = await webhooks.listMessages({
        workspaceId,
        ...params,
        pageIndex: query.pageIndex,
        pageSize: query.pageSize,
        status: query.status ?? "",
        eventType: query.eventType ?? "",
      });
      return ok(pageBody(messages.map(messageJson), query, totalCount));
    },
  );

  api.route(
    "post",
    "/webhook-endpoints/:endpointId/messages/:messageId/retry",
    {
      summary: "Deliver a message again",
      description:
        "A new round of attempts starts now (if its first try fails, the schedule runs again). 409 while the endpoint is disabled or an attempt is under way.",
      tag: TAG,
      scope: "webhooks:manage",
      params: MessageIdParams,
      body: EmptyInput,
      answers: { 202: { description: "The message, due now.", schema: WebhookMessage } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { message } = await webhooks.retryMessage({ workspaceId, ...params });
      return accepted(messageJson(message));
    },
  );

  api.route(
    "post",
    "/webhook-endpoints/:endpointId/replay",
    {
      summary: "Deliver an endpoint's messages again since a time",
      description:
        "A new round of attempts for every message made since then that has ended (succeeded or failed), or only the failed ones; pending messages are due anyway. 409 while the endpoint is disabled.",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      body: ReplayInput,
      answers: { 202: { description: "How many messages are due again.", schema: Replayed } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params, body }) => {
      const { replayedCount } = await webhooks.replayMessages({
        workspaceId,
        ...params,
        since: timestampFromDate(body.since),
        onlyFailed: body.onlyFailed ?? false,
      });
      return accepted({ replayedCount });
    },
  );

  api.route(
    "post",
    "/webhook-endpoints/:endpointId/test",
    {
      summary: "Test-fire a webhook endpoint",
      description:
        "Posts a synthetic, signed event of the chosen type at once and answers with what the endpoint said.",
      tag: TAG,
      scope: "webhooks:manage",
      params: EndpointIdParams,
      body: TestFireInput,
      answers: { 200: { description: "The endpoint's answer.", schema: TestFireResult } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ workspaceId, params, body }) => {
      const result = await webhooks.testEndpoint({ workspaceId, ...params, eventType: body.eventType });
      return ok({
        messageId: result.messageId,
        payload: JSON.parse(result.payload) as Record<string, unknown>,
        attempt: attemptJson(result.attempt),
      });
    },
  );
}
