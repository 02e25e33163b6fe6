import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { latencyBucketOf } from "@countersign/domain";
import {
  CompletionAttemptFailedSchema,
  EmailDeliveryFailedSchema,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import {
  type ApiCallRecorded,
  ApiCallRecordedSchema,
  ApiKeyUseSchema,
  type ApiUsageTotal,
  ApiUsageTotalSchema,
} from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { createLogger, uuidv7 } from "@countersign/kit";
import { ApiCallRecords } from "../src/api-calls.js";
import { type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
let records: ApiCallRecords;
let workspaceId: string;
let sequence = 0;

beforeEach(async () => {
  auth = await startAuth();
  records = new ApiCallRecords(auth.db, createLogger({ name: "test", level: "silent" }), {
    flushIntervalMs: 5,
  });
  workspaceId = (await auth.client.createWorkspace({ name: "W" })).workspace?.id as string;
});
afterEach(() => auth.close());

const recordOne = (event: ApiCallRecorded) => records.record({ calls: [event] });

function call({
  at,
  ...fields
}: Omit<Partial<ApiCallRecorded>, "$typeName" | "time"> & { at?: Date }): ApiCallRecorded {
  sequence += 1;
  return create(ApiCallRecordedSchema, {
    requestId: `req-${sequence}`,
    workspaceId,
    keyId: "key",
    method: "GET",
    route: "/v1/ping",
    path: "/v1/ping",
    status: 200,
    durationMs: 4,
    time: timestampFromDate(at ?? new Date()),
    ...fields,
  });
}

test("failed calls become Recent Errors, newest first; successful ones do not", async () => {
  await Promise.all([
    recordOne(call({ status: 200 })),
    recordOne(call({ status: 404, code: "not_found", path: "/api/v1/x", at: new Date(Date.now() - 1000) })),
    recordOne(call({ status: 503, code: "unavailable", requestId: "latest" })),
  ]);
  const errors = await records.recentErrors(workspaceId, 10);
  expect(errors.map((e) => [e.status, e.code])).toEqual([
    [503, "unavailable"],
    [404, "not_found"],
  ]);
  expect(errors[0]?.requestId).toBe("latest");
});

test("the calls of one batch message are stored together", async () => {
  await records.record({
    calls: [call({ status: 500, code: "internal" }), call({ status: 404, code: "not_found" }), call({})],
  });
  expect(await records.recentErrors(workspaceId, 10)).toHaveLength(2);
  expect((await records.usage(workspaceId, "", "")).total?.callCount).toBe(3n);
});

test("a redelivered failed call is stored once", async () => {
  const event = call({ status: 500, code: "internal" });
  await recordOne(event);
  await recordOne(event);
  expect(await records.recentErrors(workspaceId, 10)).toHaveLength(1);
});

test("a failed sealing attempt is listed beside the failed calls, in words, once however often it is delivered", async () => {
  const requestId = uuidv7();
  const failure = (attempt: number, retryAt?: Date) =>
    create(CompletionAttemptFailedSchema, {
      eventId: uuidv7(),
      workspaceId,
      signatureRequestId: requestId,
      attempt,
      maxAttempts: 2,
      reason: "the time-stamping authority at tsa.example:443 could not be reached",
      retryTime: retryAt ? timestampFromDate(retryAt) : undefined,
      failTime: timestampFromDate(new Date(Date.now() - (retryAt ? 1000 : 0))),
    });
  const first = failure(1, new Date(Date.UTC(2026, 10, 26, 10, 5, 31)));
  await records.recordSealingFailure(first);
  await records.recordSealingFailure(first);
  await records.recordSealingFailure(failure(2));
  await recordOne(call({ status: 404, code: "not_found", at: new Date(Date.now() - 5000) }));

  const errors = await records.recentErrors(workspaceId, 10);
  expect(errors.map((e) => [e.source, e.method, e.path, e.status, e.code, e.detail])).toEqual([
    [
      "sealing",
      "",
      `/api/v1/signature-requests/${requestId}`,
      503,
      "completion_failed",
      "the time-stamping authority at tsa.example:443 could not be reached (attempt 2 of 2; it waits for its sender to resend or cancel the request)",
    ],
    [
      "sealing",
      "",
      `/api/v1/signature-requests/${requestId}`,
      503,
      "completion_delayed",
      "the time-stamping authority at tsa.example:443 could not be reached (attempt 1 of 2; the next at 2026-11-26 10:05:31 UTC)",
    ],
    ["api", "GET", "/v1/ping", 404, "not_found", ""],
  ]);
});

test("a failed try to e-mail a recipient is listed beside the failed calls, with the server's reply, once however often it is delivered", async () => {
  const requestId = uuidv7();
  const recipientId = uuidv7();
  const reason = "the SMTP server smtp.example.com:587 refused the message: 550 5.1.1 User unknown";
  const failure = (attempt: number, retryAt?: Date) =>
    create(EmailDeliveryFailedSchema, {
      eventId: uuidv7(),
      workspaceId,
      signatureRequestId: requestId,
      recipientId,
      kind: "invitation",
      attempt,
      maxAttempts: 2,
      reason,
      retryTime: retryAt ? timestampFromDate(retryAt) : undefined,
      failTime: timestampFromDate(new Date(Date.now() - (retryAt ? 1000 : 0))),
    });
  const first = failure(1, new Date(Date.UTC(2026, 10, 26, 10, 5, 31)));
  await records.recordEmailFailure(first);
  await records.recordEmailFailure(first);
  await records.recordEmailFailure(failure(2));

  const errors = await records.recentErrors(workspaceId, 10);
  expect(errors.map((e) => [e.source, e.method, e.path, e.status, e.code, e.detail])).toEqual([
    [
      "email",
      "",
      `/api/v1/signature-requests/${requestId}`,
      503,
      "email_failed",
      `the invitation e-mail to recipient ${recipientId} was not sent: ${reason} (try 2 of 2; given up)`,
    ],
    [
      "email",
      "",
      `/api/v1/signature-requests/${requestId}`,
      503,
      "email_delayed",
      `the invitation e-mail to recipient ${recipientId} was not sent: ${reason} (try 1 of 2; the next at 2026-11-26 10:05:31 UTC)`,
    ],
  ]);
});

test("usage adds calls up per day and per route, with the error count and latency percentiles", async () => {
  const yesterday = new Date(Date.now() - 86_400_000);
  await Promise.all([
    ...Array.from({ length: 9 }, () => recordOne(call({ durationMs: 3 }))),
    recordOne(call({ durationMs: 400, status: 500, code: "internal" })),
    recordOne(call({ route: "/api/v1/templates", path: "/api/v1/templates", at: yesterday })),
  ]);
  const usage = await records.usage(workspaceId, "", "");
  expect(usage.total?.callCount).toBe(11n);
  expect(usage.total?.errorCount).toBe(1n);
  expect(usage.days.map((d) => [d.day, d.figures?.callCount])).toEqual([
    [yesterday.toISOString().slice(0, 10), 1n],
    [new Date().toISOString().slice(0, 10), 10n],
  ]);
  const ping = usage.routes.find((r) => r.route === "/v1/ping");
  expect(ping?.figures?.callCount).toBe(10n);
  expect(ping?.figures?.p50Ms).toBeGreaterThan(2);
  expect(ping?.figures?.p50Ms).toBeLessThanOrEqual(5);
  expect(ping?.figures?.p95Ms).toBeGreaterThan(300);
  expect(usage.routes[0]?.route).toBe("/v1/ping");
});

test("a key's last use is its latest reported call, and a batch reported late never moves it back", async () => {
  const { key } = await auth.client.createApiKey({ workspaceId, name: "busy" });
  const keyId = key?.id as string;
  const lastUse = async () =>
    (await auth.client.listApiKeys({ workspaceId })).keys.find((k) => k.id === keyId)?.lastUseTime;
  expect(await lastUse()).toBeUndefined();
  const latest = new Date(Date.now() - 1000);
  await records.record({
    calls: [call({ keyId, at: new Date(Date.now() - 5000) }), call({ keyId, at: latest })],
  });
  expect((await lastUse())?.seconds).toBe(timestampFromDate(latest).seconds);
  await records.record({ calls: [call({ keyId, at: new Date(Date.now() - 60_000) })] });
  expect((await lastUse())?.seconds).toBe(timestampFromDate(latest).seconds);
});

test("totals of calls that succeeded count beside failed calls reported one by one, with their latency and keys' last use", async () => {
  const { key } = await auth.client.createApiKey({ workspaceId, name: "totals" });
  const keyId = key?.id as string;
  const today = new Date().toISOString().slice(0, 10);
  const at = new Date(Date.now() - 2000);
  const pingTotal = (calls: bigint) =>
    create(ApiUsageTotalSchema, {
      workspaceId,
      day: today,
      method: "GET",
      route: "/v1/ping",
      latency: [{ bucket: latencyBucketOf(4), calls }],
    });
  await records.record({
    calls: [call({ status: 500, code: "internal", durationMs: 4 })],
    usage: [pingTotal(9n)],
    keyUses: [create(ApiKeyUseSchema, { keyId, time: timestampFromDate(at) })],
  });
  await records.record({ calls: [], usage: [pingTotal(10n)] });
  const usage = await records.usage(workspaceId, "", "");
  expect(usage.total?.callCount).toBe(20n);
  expect(usage.total?.errorCount).toBe(1n);
  const ping = usage.routes.find((r) => r.route === "/v1/ping");
  expect(ping?.figures?.p95Ms).toBeLessThanOrEqual(5);
  const listed = (await auth.client.listApiKeys({ workspaceId })).keys.find((k) => k.id === keyId);
  expect(listed?.lastUseTime?.seconds).toBe(timestampFromDate(at).seconds);
});

test("a total that cannot be stored is passed over, and the rest of its report is stored", async () => {
  const total = (fields: Partial<Pick<ApiUsageTotal, "workspaceId" | "day">>, bucket = 0) =>
    create(ApiUsageTotalSchema, {
      workspaceId,
      day: new Date().toISOString().slice(0, 10),
      method: "GET",
      route: "/v1/ping",
      latency: [{ bucket, calls: 1n }],
      ...fields,
    });
  await records.record({
    calls: [],
    usage: [
      total({ workspaceId: "not-a-workspace" }),
      total({ day: "2026-02-30" }),
      total({ day: "yesterday" }),
      total({}, 999),
      total({}),
    ],
  });
  expect((await records.usage(workspaceId, "", "")).total?.callCount).toBe(1n);
});

test("calls without a workspace (no valid key) are not recorded", async () => {
  await recordOne(call({ workspaceId: "", status: 401, code: "unauthorized" }));
  await records.flush();
  const { rows } = await auth.db.query("SELECT count(*)::int AS n FROM api_errors");
  expect(rows[0]).toEqual({ n: 0 });
});

test("a malformed or inverted day range is a validation error", async () => {
  for (const [from, to] of [
    ["2026-13-01", ""],
    ["2026-02-30", ""],
    ["2026-05-02", "2026-05-01"],
    ["2020-01-01", "2026-01-01"],
  ] as const) {
    const err = await records.usage(workspaceId, from, to).catch((e: unknown) => ConnectError.from(e));
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
  }
});
