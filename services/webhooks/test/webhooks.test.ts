/**
 * The webhooks service on its own: endpoints and their secrets, fan-out of events into messages,
 * signed deliveries verified with the `standardwebhooks` package, retries on the schedule, 410 and
 * long failure disabling an endpoint, the delivery portal's list, retry, replay and test-fire, and
 * retries that survive a restart.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import net from "node:net";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, createClient, createRouterTransport } from "@connectrpc/connect";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { backgroundJobs, createLogger, fieldViolations, uuidv7 } from "@countersign/kit";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { Registry } from "prom-client";
import { Webhook } from "standardwebhooks";
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from "../../../test/support/webhook-receiver.js";
import { AttemptLog } from "../src/delivery/attempt-log.js";
import type { LookupAll } from "../src/delivery/guarded-client.js";
import { store } from "../src/store.js";
import { closeDatabase, rejection, startHarness, until } from "./harness.js";

const WORKSPACE = "0190a000-0000-7000-8000-000000000001";
const OTHER_WORKSPACE = "0190a000-0000-7000-8000-000000000002";

/** What a tenant reads for any address deliveries may not reach, whatever the address and however it was found. */
const NOT_PUBLIC = "the address is not a public internet address; only public addresses are reached";

type Harness = Awaited<ReturnType<typeof startHarness>>;

let h: Harness;
let receiver: WebhookReceiver;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await receiver?.close();
  await h.close();
});

afterAll(() => closeDatabase());

async function endpointFor(url: string, eventTypes = ["signature_request.sent", "signature_request.signed"]) {
  return h.webhooks.createEndpoint({ workspaceId: WORKSPACE, url, description: "CRM sync", eventTypes });
}

function payloadOf(req: ReceivedWebhook) {
  return JSON.parse(req.body) as { type: string; timestamp: string; data: Record<string, unknown> };
}

describe("endpoints", () => {
  it("refuses a URL that is not https, or names an address that is not public, with the reason at path url", async () => {
    for (const [url, reason] of [
      ["http://hooks.example.com/x", /https/],
      ["ftp://hooks.example.com/x", /https/],
      ["not a url", /./],
      ["https://10.0.0.1/hooks", NOT_PUBLIC],
      ["https://[::1]/hooks", NOT_PUBLIC],
      ["https://169.254.169.254/latest", NOT_PUBLIC],
    ] as const) {
      const err = await rejection(endpointFor(url));
      expect(err.code).toBe(Code.InvalidArgument);
      const [violation] = fieldViolations(err);
      expect(violation?.path).toBe("url");
      expect(violation?.message).toMatch(reason);
    }
    const { endpoint } = await endpointFor("https://hooks.example.com/x");
    const err = await rejection(
      h.webhooks.updateEndpoint({
        workspaceId: WORKSPACE,
        endpointId: endpoint?.id,
        url: "https://10.0.0.1/x",
      }),
    );
    expect(fieldViolations(err)).toEqual([{ path: "url", message: NOT_PUBLIC }]);
  });

  it("refuses unknown, repeated and missing event types, naming each", async () => {
    const err = await rejection(
      endpointFor("https://hooks.example.com/x", [
        "signature_request.sent",
        "request.sent",
        "signature_request.sent",
      ]),
    );
    expect(fieldViolations(err)).toEqual([
      { path: "eventTypes[1]", message: expect.stringMatching(/must be one of/) },
      { path: "eventTypes[2]", message: "is listed twice" },
    ]);
    const none = await rejection(endpointFor("https://hooks.example.com/x", []));
    expect(fieldViolations(none)).toEqual([{ path: "eventTypes", message: "must have at least 1 item" }]);
  });

  it("returns the whsec_ secret at creation and on reveal only, sealed at rest", async () => {
    const { endpoint, secret } = await endpointFor("https://hooks.example.com/x");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    const { secret: revealed } = await h.webhooks.revealSecret({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(revealed).toBe(secret);
    const { rows } = await h.db.query<{ sealed: Uint8Array }>(
      "SELECT secret_sealed AS sealed FROM endpoints",
    );
    expect(Buffer.from(rows[0]?.sealed ?? []).toString("latin1")).not.toContain(secret.slice(6, 20));
    const other = await rejection(
      h.webhooks.revealSecret({ workspaceId: OTHER_WORKSPACE, endpointId: endpoint?.id }),
    );
    expect(other.code).toBe(Code.NotFound);
  });

  it("lists, updates and deletes a workspace's endpoints, and hides them from other workspaces", async () => {
    const first = await endpointFor("https://a.example.com/x");
    const second = await endpointFor("https://b.example.com/x");
    const page = await h.webhooks.listEndpoints({ workspaceId: WORKSPACE, pageIndex: 0, pageSize: 1 });
    expect(page.totalCount).toBe(2);
    expect(page.endpoints.map((e) => e.id)).toEqual([second.endpoint?.id]);
    expect((await h.webhooks.listEndpoints({ workspaceId: OTHER_WORKSPACE, pageSize: 10 })).totalCount).toBe(
      0,
    );

    const { endpoint } = await h.webhooks.updateEndpoint({
      workspaceId: WORKSPACE,
      endpointId: first.endpoint?.id,
      description: "billing",
      eventTypes: { values: ["signature_request.completed"] },
    });
    expect(endpoint).toMatchObject({ url: "https://a.example.com/x", description: "billing" });
    expect(endpoint?.eventTypes).toEqual(["signature_request.completed"]);

    await h.webhooks.deleteEndpoint({ workspaceId: WORKSPACE, endpointId: first.endpoint?.id });
    const gone = await rejection(
      h.webhooks.getEndpoint({ workspaceId: WORKSPACE, endpointId: first.endpoint?.id }),
    );
    expect(gone.code).toBe(Code.NotFound);
  });
});

describe("delivery", () => {
  it("delivers each subscribed event once per endpoint, signed so that standardwebhooks verifies it", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint, secret } = await endpointFor(receiver.url);
    const sent = await h.publish(WORKSPACE, "sent");
    await h.publish(WORKSPACE, "viewed"); // not subscribed
    await h.publish(OTHER_WORKSPACE, "sent"); // another workspace's
    const signed = await h.publish(WORKSPACE, "signed");
    const [a, b] = await receiver.waitFor(2);
    await h.idle();
    expect(receiver.received).toHaveLength(2);
    const payloads = [a, b].map((req) => verifyWebhook(secret, req as ReceivedWebhook) as { type: string });
    expect(payloads.map((p) => p.type).sort()).toEqual([
      "signature_request.sent",
      "signature_request.signed",
    ]);

    const body = payloadOf(a as ReceivedWebhook);
    expect(body.timestamp).toEqual(expect.any(String));
    expect(body.data.signatureRequest).toMatchObject({
      accountId: WORKSPACE,
      title: "Lease",
      links: { self: expect.stringMatching(/^https:\/\/sign\.example\.com\/api\/v1\/signature-requests\//) },
    });
    expect(body.data.recipient).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" });
    expect(a?.headers["content-type"]).toBe("application/json");

    const { messages } = await h.webhooks.listMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      pageSize: 10,
    });
    expect(messages.map((m) => m.eventId).sort()).toEqual([sent, signed].sort());
    expect(messages.every((m) => m.status === "succeeded" && m.attempts.length === 1)).toBe(true);
    expect(new Set([a, b].map((req) => req?.headers["webhook-id"]))).toEqual(
      new Set(messages.map((m) => m.id)),
    );
  });

  it("counts attempts, failures given up and the due queue in its Prometheus metrics", async () => {
    let up = false;
    receiver = await startWebhookReceiver({ respond: () => ({ status: up ? 204 : 500 }) });
    await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    await receiver.waitFor(4);
    await h.idle();
    up = true;
    await h.publish(WORKSPACE, "signed");
    await receiver.waitFor(5);
    await h.idle();
    const registry = new Registry();
    for (const metric of h.module.metrics ?? []) registry.registerMetric(metric);
    const text = await registry.metrics();
    expect(text).toMatch(/^webhook_attempts_total\{outcome="failed"\} 4$/m);
    expect(text).toMatch(/^webhook_attempts_total\{outcome="succeeded"\} 1$/m);
    expect(text).toMatch(/^webhook_messages_failed_total 1$/m);
    expect(text).toMatch(/^webhook_delivery_latency_seconds_count 1$/m);
    expect(text).toMatch(/^webhook_queue_depth 0$/m);
    // The same queue in the gauges every job queue reports in: the given-up message waits for a replay.
    const jobs = (await backgroundJobs.get()).values.filter((v) => v.labels.queue === "webhook deliveries");
    expect(Object.fromEntries(jobs.map((v) => [v.labels.state, v.value]))).toEqual({
      queued: 0,
      running: 0,
      parked: 1,
    });
  });

  it("logs an answer that holds NUL bytes and settles its message, next to other deliveries", async () => {
    receiver = await startWebhookReceiver({
      respond: (req) => ({
        status: 200,
        body: req.body.includes("signature_request.sent") ? "ok\u0000bin" : "ok",
      }),
    });
    const { endpoint } = await endpointFor(receiver.url);
    await Promise.all([h.publish(WORKSPACE, "sent"), h.publish(WORKSPACE, "signed")]);
    await receiver.waitFor(2);
    await h.idle();
    const { messages } = await h.webhooks.listMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      pageSize: 10,
    });
    expect(messages.map((m) => m.status)).toEqual(["succeeded", "succeeded"]);
    const sent = messages.find((m) => m.eventType === "signature_request.sent");
    expect(sent?.attempts[0]?.responseBody).toBe("ok\uFFFDbin");
  });

  it("lets a result that comes back after its claim ran out change nothing a manual retry decided", async () => {
    const { endpoint } = await endpointFor("https://hooks.example.com/x");
    await h.module.stop();
    await h.db.query(
      `INSERT INTO messages (id, endpoint_id, event_id, event_type, payload, status)
       VALUES ($1, $2, $3, 'signature_request.sent', '{}', 'failed')`,
      [uuidv7(), endpoint?.id, uuidv7()],
    );
    await h.db.query("UPDATE messages SET status = 'pending'");
    const [claimed] = await store.claimDue(h.db, 1, 60_000, uuidv7());
    await h.db.query("UPDATE messages SET claimed_until = now() - interval '1 second'");
    const { message } = await h.webhooks.retryMessage({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      messageId: claimed?.id,
    });
    expect(message?.status).toBe("pending");
    await store.afterAttempts(h.db, [
      { id: claimed?.id as string, claimId: claimed?.claim_id as string, status: "failed", nextDelayMs: 0 },
    ]);
    const { rows } = await h.db.query<{ status: string; next_trigger: string; round_attempts: number }>(
      "SELECT status, next_trigger, round_attempts FROM messages",
    );
    expect(rows).toEqual([{ status: "pending", next_trigger: "retry", round_attempts: 0 }]);
  });

  it("disables on 410 even when the same endpoint answered 2xx in the same batch of results", async () => {
    const { endpoint } = await endpointFor("https://hooks.example.com/x");
    const log = new AttemptLog(h.db, createLogger({ name: "test", level: "silent" }), 3_600_000);
    const result = (status: number) => ({
      endpointId: endpoint?.id as string,
      claimId: uuidv7(),
      messageStatus: "succeeded" as const,
      countsAgainstEndpoint: true,
      attempt: {
        id: uuidv7(),
        message_id: uuidv7(),
        attempted_at: new Date(),
        status_code: status,
        duration_ms: 1,
        response_headers: {},
        response_body: "",
        error: "",
        succeeded: status < 300,
        trigger: "delivery",
      },
    });
    await Promise.all([log.add(result(200)), log.add(result(200)), log.add(result(410))]);
    const { endpoint: after } = await h.webhooks.getEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(after).toMatchObject({ disabled: true, disabledReason: expect.stringMatching(/410 Gone/) });
  });

  it("makes one message when the bus delivers an event twice", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint } = await endpointFor(receiver.url);
    const eventId = uuidv7();
    await h.publish(WORKSPACE, "sent", eventId);
    await h.publish(WORKSPACE, "sent", eventId);
    await receiver.waitFor(1);
    await h.idle();
    const { totalCount } = await h.webhooks.listMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      pageSize: 10,
    });
    expect(totalCount).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a failing receiver on the schedule with the same webhook-id and a fresh signature each time", async () => {
    let calls = 0;
    receiver = await startWebhookReceiver({
      respond: () => (++calls < 3 ? { status: 503, body: "down for maintenance" } : { status: 200 }),
    });
    const { endpoint, secret } = await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    const tries = await receiver.waitFor(3);
    await h.idle();
    expect(new Set(tries.map((t) => t.headers["webhook-id"])).size).toBe(1);
    for (const req of tries) verifyWebhook(secret, req);
    const [message] = (
      await h.webhooks.listMessages({ workspaceId: WORKSPACE, endpointId: endpoint?.id, pageSize: 10 })
    ).messages;
    expect(message?.status).toBe("succeeded");
    expect(message?.attempts.map((a) => a.statusCode)).toEqual([200, 503, 503]);
    expect(message?.attempts[2]).toMatchObject({
      succeeded: false,
      responseBody: "down for maintenance",
      trigger: "delivery",
    });
    expect(message?.attempts[2]?.durationMs).toBeGreaterThan(0);
    const { endpoint: after } = await h.webhooks.getEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(after?.failingSince).toBeUndefined();
  });

  it("fails a message when every scheduled attempt failed, then delivers it on retry and on replay", async () => {
    let up = false;
    receiver = await startWebhookReceiver({ respond: () => ({ status: up ? 204 : 500 }) });
    const { endpoint } = await endpointFor(receiver.url);
    const since = new Date(Date.now() - 1000);
    await h.publish(WORKSPACE, "sent");
    await h.publish(WORKSPACE, "signed");
    await receiver.waitFor(8);
    await h.idle();
    const list = () =>
      h.webhooks.listMessages({ workspaceId: WORKSPACE, endpointId: endpoint?.id, pageSize: 10 });
    const failed = await h.webhooks.listMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      pageSize: 10,
      status: "failed",
    });
    expect(failed.totalCount).toBe(2);
    expect(failed.messages[0]?.attempts).toHaveLength(4);

    up = true;
    const { message } = await h.webhooks.retryMessage({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      messageId: failed.messages[0]?.id,
    });
    expect(message?.status).toBe("pending");
    await receiver.waitFor(9);
    await h.idle();
    const replay = await h.webhooks.replayMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      since: timestampFromDate(since),
      onlyFailed: true,
    });
    expect(replay.replayedCount).toBe(1);
    await receiver.waitFor(10);
    await h.idle();
    const after = (await list()).messages;
    expect(after.every((m) => m.status === "succeeded")).toBe(true);
    expect(after.flatMap((m) => m.attempts.filter((a) => a.succeeded).map((a) => a.trigger)).sort()).toEqual([
      "replay",
      "retry",
    ]);
    const all = await h.webhooks.replayMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      since: timestampFromDate(since),
      onlyFailed: false,
    });
    expect(all.replayedCount).toBe(2);
    await receiver.waitFor(12);
  });

  it("does not follow a redirect: a 3xx is a failed attempt and the target is not requested", async () => {
    receiver = await startWebhookReceiver({
      respond: (req) =>
        req.path === "/moved"
          ? { status: 204 }
          : { status: 302, headers: { location: receiver.urlFor("/moved") } },
    });
    const { endpoint } = await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    await receiver.waitFor(4);
    await h.idle();
    expect(receiver.received.every((r) => r.path !== "/moved")).toBe(true);
    const [message] = (
      await h.webhooks.listMessages({ workspaceId: WORKSPACE, endpointId: endpoint?.id, pageSize: 10 })
    ).messages;
    expect(message?.status).toBe("failed");
    expect(message?.attempts[0]).toMatchObject({ statusCode: 302, succeeded: false });
    expect(message?.attempts[0]?.responseHeaders.location).toMatch(/\/moved$/);
  });

  it("disables the endpoint on 410 Gone, holds its messages, and delivers them when it is enabled again", async () => {
    let gone = true;
    receiver = await startWebhookReceiver({ respond: () => ({ status: gone ? 410 : 200 }) });
    const { endpoint } = await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    await receiver.waitFor(1);
    await h.idle();
    const { endpoint: disabled } = await h.webhooks.getEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(disabled).toMatchObject({ disabled: true, disabledReason: expect.stringMatching(/410 Gone/) });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);
    const refused = await rejection(
      h.webhooks.replayMessages({
        workspaceId: WORKSPACE,
        endpointId: endpoint?.id,
        since: timestampFromDate(new Date(0)),
      }),
    );
    expect(refused.code).toBe(Code.FailedPrecondition);

    gone = false;
    const { endpoint: enabled } = await h.webhooks.updateEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      disabled: false,
    });
    expect(enabled).toMatchObject({ disabled: false, disabledReason: "" });
    await receiver.waitFor(2);
  });

  it("disables an endpoint that has failed continuously for the configured time, saying since when", async () => {
    await h.close();
    h = await startHarness({ disableAfterMs: 100, retryScheduleSeconds: [0, 0.1, 0.1, 0.1, 0.1] });
    receiver = await startWebhookReceiver({ respond: () => ({ status: 500 }) });
    const { endpoint } = await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    await until(async () => {
      const { endpoint: now } = await h.webhooks.getEndpoint({
        workspaceId: WORKSPACE,
        endpointId: endpoint?.id,
      });
      return now?.disabled === true;
    });
    const { endpoint: now } = await h.webhooks.getEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(now?.disabledReason).toMatch(/every delivery has failed since \d{4}-/);
    expect(receiver.received.length).toBeLessThan(5);
  });

  it("honours Retry-After on 429, waiting longer than the schedule asks", async () => {
    let calls = 0;
    receiver = await startWebhookReceiver({
      respond: () => (++calls === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }),
    });
    await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    const [first, second] = await receiver.waitFor(2, 5000);
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("keeps retries in the database: a new process delivers what a stopped one scheduled", async () => {
    let up = false;
    receiver = await startWebhookReceiver({ respond: () => ({ status: up ? 200 : 503 }) });
    await h.module.stop();
    const slow = await h.buildModule({ retryScheduleSeconds: [0, 3600] });
    await endpointFor(receiver.url);
    await h.publish(WORKSPACE, "sent");
    await receiver.waitFor(1);
    await slow.deliveriesIdle();
    await slow.stop();
    await h.db.query("UPDATE messages SET next_attempt_at = now()");
    up = true;
    await h.buildModule({ retryScheduleSeconds: [0, 3600] });
    const [, second] = await receiver.waitFor(2);
    expect(second?.headers["webhook-id"]).toBe(receiver.received[0]?.headers["webhook-id"]);
  });

  it("shares the queue between replicas without delivering a message twice", async () => {
    receiver = await startWebhookReceiver();
    await h.buildModule();
    await endpointFor(receiver.url, ["signature_request.sent"]);
    await Promise.all(Array.from({ length: 40 }, () => h.publish(WORKSPACE, "sent")));
    await receiver.waitFor(40);
    await h.idle();
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(40);
    expect(receiver.received).toHaveLength(40);
  });
});

describe("secrets", () => {
  it("signs with the old and the new secret for 24 hours after a rotation", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint, secret: old } = await endpointFor(receiver.url);
    const { secret: fresh, previousSecretExpireTime } = await h.webhooks.rotateSecret({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    expect(fresh).not.toBe(old);
    const overlapMs = Number(previousSecretExpireTime?.seconds) * 1000 - Date.now();
    expect(overlapMs).toBeGreaterThan(23.9 * 3600_000);
    expect(overlapMs).toBeLessThanOrEqual(24 * 3600_000);
    await h.publish(WORKSPACE, "sent");
    const [req] = await receiver.waitFor(1);
    expect(req?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    verifyWebhook(old, req as ReceivedWebhook);
    verifyWebhook(fresh, req as ReceivedWebhook);
    expect((await h.webhooks.revealSecret({ workspaceId: WORKSPACE, endpointId: endpoint?.id })).secret).toBe(
      fresh,
    );

    await h.db.query("UPDATE endpoints SET previous_secret_expires_at = now() - interval '1 second'");
    await h.publish(WORKSPACE, "signed");
    const [, later] = await receiver.waitFor(2);
    expect(later?.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    verifyWebhook(fresh, later as ReceivedWebhook);
    expect(() => verifyWebhook(old, later as ReceivedWebhook)).toThrow();
  });

  it("does not open a sealed secret copied onto another endpoint's row", async () => {
    const first = await endpointFor("https://a.example.com/x");
    const second = await endpointFor("https://b.example.com/x");
    await h.db.query(
      "UPDATE endpoints SET secret_sealed = (SELECT secret_sealed FROM endpoints WHERE id = $1) WHERE id = $2",
      [first.endpoint?.id, second.endpoint?.id],
    );
    const err = await rejection(
      h.webhooks.revealSecret({ workspaceId: WORKSPACE, endpointId: second.endpoint?.id }),
    );
    expect(err.code).toBe(Code.Internal);
    expect(err.message).not.toContain(first.secret);
  });

  it("cannot open stored secrets under another secret key", async () => {
    const { endpoint } = await endpointFor("https://hooks.example.com/x");
    const other = await h.buildModule({ secretKey: "another-key-that-is-long-enough-to-pass" });
    const { WebhooksService } = await import(
      "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js"
    );
    const { createClient, createRouterTransport } = await import("@connectrpc/connect");
    const client = createClient(WebhooksService, createRouterTransport(other.routes));
    const err = await rejection(client.revealSecret({ workspaceId: WORKSPACE, endpointId: endpoint?.id }));
    expect(err.message).not.toContain("whsec_");
  });
});

describe("test-fire", () => {
  it("posts a signed synthetic event of the chosen type and answers with the endpoint's response", async () => {
    receiver = await startWebhookReceiver({
      respond: () => ({ status: 202, headers: { "x-receiver": "crm" }, body: '{"ok":true}' }),
    });
    const { endpoint, secret } = await endpointFor(receiver.url);
    const result = await h.webhooks.testEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      eventType: "signature_request.completed",
    });
    expect(result.attempt).toMatchObject({
      statusCode: 202,
      succeeded: true,
      responseBody: '{"ok":true}',
      trigger: "test",
    });
    expect(result.attempt?.responseHeaders["x-receiver"]).toBe("crm");
    expect(result.attempt?.durationMs).toBeGreaterThan(0);
    const [req] = receiver.received;
    expect(new Webhook(secret).verify(req?.body ?? "", req?.headers ?? {})).toMatchObject({
      type: "signature_request.completed",
      data: { signatureRequest: { status: "completed" } },
    });
    expect(req?.headers["webhook-id"]).toBe(result.messageId);
  });

  it("keeps a test event in the endpoint's message log with its attempt — a failed one too — and a replay does not send it again", async () => {
    receiver = await startWebhookReceiver({ respond: () => ({ status: 500, body: "database down" }) });
    const { endpoint } = await endpointFor(receiver.url);
    const fired = await h.webhooks.testEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      eventType: "signature_request.declined",
    });
    expect(fired.attempt).toMatchObject({ statusCode: 500, succeeded: false, trigger: "test" });
    const list = () =>
      h.webhooks.listMessages({ workspaceId: WORKSPACE, endpointId: endpoint?.id, pageSize: 10 });
    const { messages } = await list();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: fired.messageId,
      eventType: "signature_request.declined",
      status: "failed",
      payload: fired.payload,
      attemptCount: 1,
    });
    expect(messages[0]?.attempts.map((a) => [a.statusCode, a.responseBody, a.trigger])).toEqual([
      [500, "database down", "test"],
    ]);
    const { replayedCount } = await h.webhooks.replayMessages({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      since: timestampFromDate(new Date(0)),
      onlyFailed: false,
    });
    expect(replayedCount).toBe(0);
    expect(receiver.received).toHaveLength(1);
    // A test is no delivery: the endpoint's failing streak did not start.
    expect(
      (await h.webhooks.getEndpoint({ workspaceId: WORKSPACE, endpointId: endpoint?.id })).endpoint?.disabled,
    ).toBe(false);
    const { rows } = await h.db.query<{ failing_since: Date | null }>(
      "SELECT failing_since FROM endpoints WHERE id = $1",
      [endpoint?.id],
    );
    expect(rows[0]?.failing_since).toBeNull();
  });

  it("answers one sentence naming no address for every refused address and for a name that does not resolve", async () => {
    receiver = await startWebhookReceiver();
    const port = new URL(receiver.url).port;
    const internal: Record<string, string> = {
      "loopback.cluster.test": "127.0.0.1",
      "private.cluster.test": "10.0.0.1",
      "v6-loopback.cluster.test": "::1",
    };
    // As the system resolver answers: an address for a name it knows, ENOTFOUND for one it does not.
    const lookup: LookupAll = async (hostname) => {
      const address = internal[hostname];
      if (address !== undefined) return [{ address, family: net.isIP(address) }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
    };
    const urls = [
      ...Object.keys(internal).map((name) => `https://${name}:${port}/hooks`),
      `https://127.0.0.1:${port}/hooks`,
      `https://missing.cluster.test:${port}/hooks`,
    ];
    // Saved while the harness allows loopback, so that the literal URL passes creation too.
    const endpoints = await Promise.all(urls.map((url) => endpointFor(url)));
    const guarded = await h.buildModule({ allowNetworks: [], lookup });
    const client = createClient(WebhooksService, createRouterTransport(guarded.routes));

    const errors: string[] = [];
    for (const { endpoint } of endpoints) {
      const { attempt } = await client.testEndpoint({
        workspaceId: WORKSPACE,
        endpointId: endpoint?.id,
        eventType: "signature_request.sent",
      });
      expect(attempt).toMatchObject({ statusCode: 0, succeeded: false });
      errors.push(attempt?.error ?? "");
    }
    expect(errors).toEqual(urls.map(() => NOT_PUBLIC));
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses an unknown event type at path eventType", async () => {
    const { endpoint } = await endpointFor("https://hooks.example.com/x");
    const err = await rejection(
      h.webhooks.testEndpoint({
        workspaceId: WORKSPACE,
        endpointId: endpoint?.id,
        eventType: "document.deleted",
      }),
    );
    expect(fieldViolations(err)[0]?.path).toBe("eventType");
  });
});

describe("DocuSign Connect format", () => {
  /** DocuSign's documented HMAC check for Connect (its "HashIsValid"), as a receiver runs it. */
  function docuSignHashIsValid(secret: string, payload: string, verify: string): boolean {
    const hmac = createHmac("sha256", secret);
    hmac.write(payload);
    hmac.end();
    const payloadHash = Buffer.from((hmac.read() as Buffer).toString("base64"), "base64");
    const verifyHash = Buffer.from(verify, "base64");
    return payloadHash.length === verifyHash.length && timingSafeEqual(payloadHash, verifyHash);
  }

  type Connect = {
    event: string;
    apiVersion: string;
    uri: string;
    data: {
      accountId: string;
      envelopeId: string;
      recipientId?: string;
      envelopeSummary: Record<string, unknown>;
    };
  };

  async function connectEndpoint(
    url: string,
    eventTypes = ["signature_request.sent", "signature_request.signed"],
  ) {
    return h.webhooks.createEndpoint({ workspaceId: WORKSPACE, url, eventTypes, format: "docusign_connect" });
  }

  it("delivers DocuSign's envelope and recipient events, signed so that DocuSign's HMAC check passes, beside our format", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint, secret } = await connectEndpoint(receiver.url);
    const ours = await endpointFor(receiver.url);
    expect([endpoint?.format, ours.endpoint?.format]).toEqual(["docusign_connect", "standard_webhooks"]);
    await h.publish(WORKSPACE, "sent");
    await receiver.waitFor(2);
    await h.publish(WORKSPACE, "signed");
    await receiver.waitFor(4);
    await h.idle();
    const connect = receiver.received.filter((req) => req.headers["x-docusign-signature-1"]);
    const standard = receiver.received.filter((req) => req.headers["webhook-signature"]);
    expect([connect.length, standard.length]).toEqual([2, 2]);
    for (const req of connect) {
      expect(docuSignHashIsValid(secret, req.body, req.headers["x-docusign-signature-1"] as string)).toBe(
        true,
      );
      expect(
        docuSignHashIsValid(ours.secret, req.body, req.headers["x-docusign-signature-1"] as string),
      ).toBe(false);
      expect([
        req.headers["x-authorization-digest"],
        req.headers["content-type"],
        req.headers["webhook-id"],
      ]).toEqual(["HMACSHA256", "application/json", undefined]);
    }
    const bodies = connect.map((req) => JSON.parse(req.body) as Connect);
    const sent = bodies.find((b) => b.event === "envelope-sent") as Connect;
    expect(sent).toMatchObject({
      apiVersion: "v2.1",
      uri: `/restapi/v2.1/accounts/${WORKSPACE}/envelopes/${sent.data.envelopeId}`,
      data: {
        accountId: WORKSPACE,
        envelopeSummary: {
          status: "sent",
          emailSubject: "Lease",
          recipients: {
            signers: [{ recipientId: "1", name: "Ada Lovelace", email: "ada@example.com", status: "sent" }],
            carbonCopies: [],
          },
        },
      },
    });
    expect(sent.data.recipientId).toBeUndefined();
    const signed = bodies.find((b) => b.event === "recipient-completed") as Connect;
    expect(signed.data.recipientId).toBe("1");
  });

  it("signs with the new secret first and the old one second for 24 hours after a rotation", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint, secret: old } = await connectEndpoint(receiver.url);
    const { secret: fresh } = await h.webhooks.rotateSecret({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
    });
    await h.publish(WORKSPACE, "sent");
    const [req] = await receiver.waitFor(1);
    const header = (n: number) => req?.headers[`x-docusign-signature-${n}`] as string;
    expect([
      docuSignHashIsValid(fresh, req?.body ?? "", header(1)),
      docuSignHashIsValid(old, req?.body ?? "", header(2)),
      req?.headers["x-docusign-signature-3"],
    ]).toEqual([true, true, undefined]);
  });

  it("test-fires a synthetic event in Connect's format", async () => {
    receiver = await startWebhookReceiver();
    const { endpoint, secret } = await connectEndpoint(receiver.url);
    const result = await h.webhooks.testEndpoint({
      workspaceId: WORKSPACE,
      endpointId: endpoint?.id,
      eventType: "signature_request.completed",
    });
    const [req] = receiver.received;
    expect(
      docuSignHashIsValid(secret, req?.body ?? "", req?.headers["x-docusign-signature-1"] as string),
    ).toBe(true);
    expect(JSON.parse(result.payload)).toMatchObject({
      event: "envelope-completed",
      data: { envelopeSummary: { status: "completed" } },
    });
  });

  it("refuses a format it does not know, at path format", async () => {
    const err = await rejection(
      h.webhooks.createEndpoint({
        workspaceId: WORKSPACE,
        url: "https://a.example.com/x",
        eventTypes: ["signature_request.sent"],
        format: "docusign_soap",
      }),
    );
    expect(fieldViolations(err)).toEqual([
      { path: "format", message: 'must be one of "standard_webhooks", "docusign_connect"' },
    ]);
  });
});
