/**
 * Test-fire: a synthetic event of a chosen type posted to an endpoint at once, through the same
 * guarded client and signing as deliveries, answering with what the endpoint said. Nothing is
 * stored: the event names no real request, and the endpoint's failing streak is not touched.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type TestEndpointResponse,
  TestEndpointResponseSchema,
} from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { uuidv7, validationError } from "@countersign/kit";
import type { GuardedClient } from "./delivery/guarded-client.js";
import { signedHeaders } from "./delivery/signature.js";
import type { SecretBox } from "./endpoint-secrets.js";
import type { Endpoints } from "./endpoints.js";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js";
import type { Payloads } from "./payload.js";
import { signingSecrets } from "./signing-secrets.js";

export class TestFire {
  constructor(
    private readonly endpoints: Endpoints,
    private readonly payloads: Payloads,
    private readonly secrets: SecretBox,
    private readonly client: GuardedClient,
  ) {}

  async fire(workspaceId: string, endpointId: string, eventType: string): Promise<TestEndpointResponse> {
    if (!isWebhookEventType(eventType)) {
      throw validationError([
        {
          path: "eventType",
          message: `must be one of ${WEBHOOK_EVENT_TYPES.map((t) => JSON.stringify(t)).join(", ")}`,
        },
      ]);
    }
    const endpoint = await this.endpoints.get(workspaceId, endpointId);
    const payload = this.payloads.synthetic(workspaceId, eventType);
    const messageId = uuidv7();
    const at = new Date();
    const outcome = await this.client.post(
      endpoint.url,
      signedHeaders(signingSecrets(this.secrets, endpoint.id, endpoint, at), messageId, at, payload),
      payload,
      { workspaceId, endpointId: endpoint.id, trigger: "test" },
    );
    const answered = outcome.kind === "response" ? outcome : undefined;
    return create(TestEndpointResponseSchema, {
      messageId,
      payload,
      attempt: {
        id: uuidv7(),
        attemptTime: timestampFromDate(at),
        statusCode: answered?.status ?? 0,
        durationMs: outcome.durationMs,
        responseHeaders: answered?.headers ?? {},
        responseBody: answered?.body ?? "",
        error: outcome.kind === "error" ? outcome.error : "",
        succeeded: Boolean(answered && answered.status >= 200 && answered.status < 300),
        trigger: "test",
      },
    });
  }
}
