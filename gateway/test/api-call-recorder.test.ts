/**
 * Reporting API calls: a failed call goes out with its own record, calls that succeeded as totals by
 * workspace, day, method, route and latency bucket, with each key's latest use. It never backs up
 * behind a slow bus: one publish is in flight at a time, and the calls recorded meanwhile go out
 * together in the next. The in-process bus answers a publish only once auth has stored its batch
 * (about a second), while the gateway reports every quarter second.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { latencyBucketOf } from "@countersign/domain";
import {
  type ApiCallsRecorded,
  ApiCallsRecordedSchema,
} from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { createLogger, MemoryEventBus } from "@countersign/kit";
import type { Request, Response } from "express";
import { ApiCallRecorder } from "../src/middleware/api-call-recorder.js";

/** A bus whose publishes wait until the test lets them through, one by one. */
class SlowBus extends MemoryEventBus {
  /** How many calls each publish reported, one by one or in totals. */
  readonly published: number[] = [];
  readonly reports: ApiCallsRecorded[] = [];
  private readonly waiting: (() => void)[] = [];

  override async publish(_subject: string, data: Uint8Array): Promise<void> {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    const report = fromBinary(ApiCallsRecordedSchema, data);
    this.reports.push(report);
    const totals = report.usage.flatMap((total) => total.latency.map((count) => Number(count.calls)));
    this.published.push(report.calls.length + totals.reduce((a, b) => a + b, 0));
  }

  answerOne(): boolean {
    this.waiting.shift()?.();
    return this.waiting.length > 0;
  }

  get inFlight(): number {
    return this.waiting.length;
  }
}

function finishedCall(requestId: string, statusCode = 200, tookMs = 0): [Request, Response] {
  const res = {
    statusCode,
    locals: {
      caller: { workspaceId: "0190a000-0000-7000-8000-000000000001", keyId: "k" },
      requestId,
      route: "/v1/ping",
      startedAt: performance.now() - tookMs,
    },
  };
  return [{ method: "GET", originalUrl: "/v1/ping", url: "/v1/ping" } as Request, res as unknown as Response];
}

test("calls recorded while a publish is in flight go out together in the next one, never in a queue of publishes", async () => {
  const bus = new SlowBus();
  const recorder = new ApiCallRecorder(bus, createLogger({ name: "test", level: "silent" }), {
    intervalMs: 60_000,
  });
  for (let i = 0; i < 10; i++) {
    recorder.record(...finishedCall(`call-${i}`));
    void recorder.flush();
    expect(bus.inFlight).toBeLessThanOrEqual(1);
  }
  const stopped = recorder.flush();
  while (bus.inFlight > 0 || bus.published.length < 2) {
    bus.answerOne();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await stopped;
  expect(bus.published).toEqual([1, 9]);
});

test("a failed call is reported with its record; calls that succeeded as totals by latency bucket, with the key's latest use", async () => {
  const bus = new SlowBus();
  const recorder = new ApiCallRecorder(bus, createLogger({ name: "test", level: "silent" }), {
    intervalMs: 60_000,
  });
  const before = Date.now();
  recorder.record(...finishedCall("fast-1", 200, 0));
  recorder.record(...finishedCall("fast-2", 201, 0));
  recorder.record(...finishedCall("slow", 200, 400));
  recorder.record(...finishedCall("failed", 404, 0));
  const sent = recorder.flush();
  bus.answerOne();
  await sent;
  const [report] = bus.reports;
  expect(report?.calls.map((call) => [call.requestId, call.status])).toEqual([["failed", 404]]);
  expect(report?.usage).toHaveLength(1);
  const [total] = report?.usage ?? [];
  expect([total?.method, total?.route, total?.day]).toEqual([
    "GET",
    "/v1/ping",
    new Date().toISOString().slice(0, 10),
  ]);
  const byBucket = new Map(total?.latency.map((count) => [count.bucket, Number(count.calls)]));
  expect(byBucket.get(latencyBucketOf(0))).toBe(2);
  expect(byBucket.get(latencyBucketOf(400))).toBe(1);
  expect(report?.keyUses.map((use) => use.keyId)).toEqual(["k"]);
  expect(Number(report?.keyUses[0]?.time?.seconds) * 1000).toBeGreaterThanOrEqual(before - 1000);
});
