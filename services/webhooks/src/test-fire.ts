/**
 * Test-fire: a synthetic event of a chosen type posted to an endpoint at once, through the same
 * guarded client and signing as deliveries, answering with what the endpoint said. The event and
 * its attempt are kept in the endpoint's message log, so a failed test can be read again there;
 * they are no delivery: a replay skips them, and the endpoint's failing streak is not touched.
 */
import { create } from "@bufbuild/protobuf";
import {
  type TestEndpointResponse,
  TestEndpointResponseSchema,
} from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { type Database, type SecretBox, uuidv7, validationError } from "@countersign/kit";
import type { GuardedClient } from "./delivery/guarded-client.js";
import { signedHeaders } from "./delivery/signature.js";
import type { Endpoints } from "./endpoints.js";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js";
import type { Payloads } from "./payload.js";
import { signingSecrets } from "./signing-secrets.js";
import { type AttemptRow, store } from "./store.js";
import { toAttempt } from "./to-proto.js";

export class TestFire {
  constructor(
    private readonly db: Database,
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
    const payload = this.payloads.synthetic(workspaceId, eventType, endpoint.format);
    const messageId = uuidv7();
    const at = new Date();
    const outcome = await this.client.post(
      endpoint.url,
      signedHeaders(
        endpoint.format,
        signingSecrets(this.secrets, endpoint.id, endpoint, at),
        messageId,
        at,
        payload,
      ),
      payload,
      { workspaceId, endpointId: endpoint.id, trigger: "test" },
    );
    const answered = outcome.kind === "response" ? outcome : undefined;
    const attempt: AttemptRow = {
      id: uuidv7(),
      message_id: messageId,
      attempted_at: at,
      status_code: answered?.status ?? 0,
      duration_ms: outcome.durationMs,
      response_headers: answered?.headers ?? {},
      response_body: answered?.body ?? "",
      error: outcome.kind === "error" ? outcome.error : "",
      succeeded: Boolean(answered && answered.status >= 200 && answered.status < 300),
      trigger: "test",
    };
    await store.insertTestMessage(
      this.db,
      { id: messageId, endpointId: endpoint.id, eventType, payload },
      attempt,
    );
    return create(TestEndpointResponseSchema, { messageId, payload, attempt: toAttempt(attempt) });
  }
}
