/** Rows as the contract's messages. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Attempt,
  AttemptSchema,
  type Endpoint,
  EndpointSchema,
  type Message,
  MessageSchema,
} from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import type { AttemptRow, EndpointRow, MessageRow } from "./store.js";

export function toEndpoint(row: EndpointRow): Endpoint {
  return create(EndpointSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    format: row.format,
    disabled: row.disabled_at !== null,
    disabledReason: row.disabled_reason,
    createTime: timestampFromDate(row.created_at),
    updateTime: timestampFromDate(row.updated_at),
    failingSince: row.failing_since ? timestampFromDate(row.failing_since) : undefined,
  });
}

export function toAttempt(row: AttemptRow): Attempt {
  return create(AttemptSchema, {
    id: row.id,
    attemptTime: timestampFromDate(row.attempted_at),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    responseHeaders: row.response_headers,
    responseBody: row.response_body,
    error: row.error,
    succeeded: row.succeeded,
    trigger: row.trigger,
  });
}

export function toMessage(row: MessageRow, attempts: AttemptRow[]): Message {
  return create(MessageSchema, {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptTime: row.status === "pending" ? timestampFromDate(row.next_attempt_at) : undefined,
    createTime: timestampFromDate(row.created_at),
    payload: row.payload,
    attempts: attempts.map(toAttempt),
  });
}
