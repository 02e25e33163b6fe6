/**
 * Reporting API calls never backs up behind a slow bus: one publish is in flight at a time, and the
 * calls recorded meanwhile go out together in the next. The in-process bus answers a publish only
 * once auth has stored its batch (about a second), while the gateway reports every quarter second.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { ApiCallsRecordedSchema } from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { createLogger, MemoryEventBus } from "@countersign/kit";
import type { Request, Response } from "express";
import { ApiCallRecorder } from "../src/middleware/api-call-recorder.js";

/** A bus whose publishes wait until the test lets them through, one by one. */
class SlowBus extends MemoryEventBus {
  readonly published: number[] = [];
  private readonly waiting: (() => void)[] = [];

  override async publish(_subject: string, data: Uint8Array): Promise<void> {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.published.push(fromBinary(ApiCallsRecordedSchema, data).calls.length);
  }

  answerOne(): boolean {
    this.waiting.shift()?.();
    return this.waiting.length > 0;
  }

  get inFlight(): number {
    return this.waiting.length;
  }
}

function finishedCall(requestId: string): [Request, Response] {
  const res = {
    statusCode: 200,
    locals: {
      caller: { workspaceId: "0190a000-0000-7000-8000-000000000001", keyId: "k" },
      requestId,
      route: "/v1/ping",
      startedAt: performance.now(),
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
