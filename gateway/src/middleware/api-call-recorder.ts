/**
 * Reports every public API call to auth (Recent Errors, API Usage). When a call's response ends, a
 * failed call's record is kept, and a call that succeeded is only counted: in the totals of its
 * workspace, caller, day, method and route by latency bucket, and as its key's latest use. What gathered in
 * a quarter second goes out as one ApiCallsRecorded event, so reporting costs a call a few counters
 * and never delays or fails it. If the bus is down or slow, at most `maxPending` records and totals
 * wait; the rest are dropped and counted.
 */
import { create, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { latencyBucketOf, subjects, utcDayOf } from "@countersign/domain";
import {
  type ApiCallRecordedSchema,
  ApiCallsRecordedSchema,
  type ApiKeyUseSchema,
  type ApiUsageTotalSchema,
} from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { type EventBus, type Logger, uuidv7 } from "@countersign/kit";
import type { Request, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { loggedPath } from "./redacted-path.js";

export const UNMATCHED_ROUTE = "unmatched";

/** How a call ended: its HTTP status, problem code (empty when it succeeded) and duration. */
export interface CallOutcome {
  status: number;
  code: string;
  durationMs: number;
  /** The body a failed call answered, as the caller got it. */
  problem?: string;
}

/** The most of a failed call's answer reported: a problem with many field errors, not a document. */
const PROBLEM_LIMIT = 4096;

export interface ApiCallRecorderOptions {
  intervalMs?: number;
  maxPending?: number;
}

/** The calls that succeeded of one workspace, day, method, route and caller, by latency bucket. */
interface UsageTotal {
  workspaceId: string;
  keyId: string;
  day: string;
  method: string;
  route: string;
  byBucket: Map<number, number>;
}

export class ApiCallRecorder {
  private pending: MessageInitShape<typeof ApiCallRecordedSchema>[] = [];
  private totals = new Map<string, UsageTotal>();
  /** Each key's latest call that succeeded, in milliseconds since the epoch. */
  private keyUses = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  dropped = 0;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly options: ApiCallRecorderOptions = {},
  ) {}

  /**
   * Sends what is waiting; the gateway calls it when it stops. One publish at a time: what is
   * recorded meanwhile goes in the next, together. Chained one behind the other instead, publishes
   * that take longer than the interval (the in-process bus answers once auth has stored a batch,
   * about a second) queued without bound, in memory and in the time a shutdown waited for them.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sending ??= this.sendPending().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  private async sendPending(): Promise<void> {
    while (this.pending.length > 0 || this.totals.size > 0) {
      const calls = this.pending;
      const totals = [...this.totals.values()];
      const keyUses = this.keyUses;
      this.pending = [];
      this.totals = new Map();
      this.keyUses = new Map();
      const usage: MessageInitShape<typeof ApiUsageTotalSchema>[] = totals.map(({ byBucket, ...total }) => ({
        ...total,
        latency: [...byBucket].map(([bucket, count]) => ({ bucket, calls: BigInt(count) })),
      }));
      const uses: MessageInitShape<typeof ApiKeyUseSchema>[] = [...keyUses].map(([keyId, at]) => ({
        keyId,
        time: timestampFromMs(at),
      }));
      const report = create(ApiCallsRecordedSchema, { calls, usage, keyUses: uses });
      try {
        await this.bus.publish(subjects.apiCallsRecorded, toBinary(ApiCallsRecordedSchema, report), {
          msgId: uuidv7(),
        });
      } catch (err) {
        const counted = totals.reduce((sum, total) => sum + sumOf(total.byBucket), 0);
        this.dropped += calls.length + counted;
        this.logger.warn(
          { err, calls: calls.length + counted },
          "could not report API calls; their records are lost",
        );
      }
    }
  }

  /**
   * Keeps the record of a finished call (a ResponseEndHook); calls without a valid key have none,
   * and an HTTP request whose tool calls were recorded one by one (`recordToolCall`) has no other.
   */
  record(req: Request, res: Response): void {
    const caller = res.locals.caller as Caller | undefined;
    if (!caller || res.locals.toolCallsRecorded === true) return;
    const route = (res.locals.route as string | undefined) ?? UNMATCHED_ROUTE;
    this.keep(caller, res.locals.requestId as string, req.method, route, loggedPath(req, res), {
      status: res.statusCode,
      code: (res.locals.problemCode as string | undefined) ?? "",
      durationMs: performance.now() - (res.locals.startedAt as number),
      problem: (res.locals.problemBody as string | undefined) ?? "",
    });
  }

  /**
   * Keeps the record of one MCP tool call (or another MCP message), under its own id, as method `MCP`
   * on the tool's own route, with the status and code its operation answered; the HTTP request that
   * carried it is then not recorded.
   */
  recordToolCall(res: Response, callId: string, route: string, outcome: CallOutcome): void {
    const caller = res.locals.caller as Caller;
    res.locals.toolCallsRecorded = true;
    this.keep(caller, callId, "MCP", route, route, outcome);
  }

  private count(caller: Caller, method: string, route: string, durationMs: number): void {
    const now = Date.now();
    const day = utcDayOf(now);
    const id = `${caller.workspaceId} ${caller.keyId} ${day} ${method} ${route}`;
    let total = this.totals.get(id);
    if (!total) {
      if (this.totals.size >= this.maxPending) {
        this.dropped += 1;
        return;
      }
      total = {
        workspaceId: caller.workspaceId,
        keyId: caller.keyId,
        day,
        method,
        route,
        byBucket: new Map(),
      };
      this.totals.set(id, total);
    }
    const bucket = latencyBucketOf(durationMs);
    total.byBucket.set(bucket, (total.byBucket.get(bucket) ?? 0) + 1);
    this.keyUses.set(caller.keyId, now);
  }

  /** A call that succeeded is counted; a failed one is kept with its answer, for Recent Errors. */
  private keep(
    caller: Caller,
    requestId: string,
    method: string,
    route: string,
    path: string,
    outcome: CallOutcome,
  ): void {
    this.timer ??= setTimeout(() => void this.flush(), this.options.intervalMs ?? 250);
    if (outcome.status < 400) {
      this.count(caller, method, route, outcome.durationMs);
      return;
    }
    if (this.pending.length >= this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.pending.push({
      requestId,
      workspaceId: caller.workspaceId,
      keyId: caller.keyId,
      keyName: caller.keyName,
      method,
      route,
      path,
      ...outcome,
      problem: outcome.problem?.slice(0, PROBLEM_LIMIT) ?? "",
      time: timestampFromMs(Date.now()),
    });
  }

  private get maxPending(): number {
    return this.options.maxPending ?? 50_000;
  }
}

function sumOf(counts: Map<number, number>): number {
  let sum = 0;
  for (const count of counts.values()) sum += count;
  return sum;
}
