/**
 * Reports every public API call to auth (Recent Errors, API Usage). A call's record is kept in
 * memory when its response ends and sent with the others of the same quarter second as one
 * ApiCallsRecorded event, so reporting costs a call microseconds and never delays or fails it. If
 * the bus is down or slow, at most `maxPending` records wait; the rest are dropped and counted.
 */
import { create, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { subjects } from "@countersign/domain";
import {
  type ApiCallRecordedSchema,
  ApiCallsRecordedSchema,
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

export class ApiCallRecorder {
  private pending: MessageInitShape<typeof ApiCallRecordedSchema>[] = [];
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
    while (this.pending.length > 0) {
      const calls = this.pending;
      this.pending = [];
      const data = toBinary(ApiCallsRecordedSchema, create(ApiCallsRecordedSchema, { calls }));
      try {
        await this.bus.publish(subjects.apiCallsRecorded, data, { msgId: uuidv7() });
      } catch (err) {
        this.dropped += calls.length;
        this.logger.warn({ err, calls: calls.length }, "could not report API calls; their records are lost");
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
   * Keeps the record of one MCP tool call, under its own id, as method `MCP` on the tool's own
   * route, with the status and code its operation answered; the HTTP request that carried it is
   * then not recorded.
   */
  recordToolCall(res: Response, callId: string, route: string, outcome: CallOutcome): void {
    const caller = res.locals.caller as Caller;
    res.locals.toolCallsRecorded = true;
    this.keep(caller, callId, "MCP", route, route, outcome);
  }

  private keep(
    caller: Caller,
    requestId: string,
    method: string,
    route: string,
    path: string,
    outcome: CallOutcome,
  ): void {
    if (this.pending.length >= (this.options.maxPending ?? 50_000)) {
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
    this.timer ??= setTimeout(() => void this.flush(), this.options.intervalMs ?? 250);
  }
}
