/**
 * Reports every public API call to auth (Recent Errors, API Usage) as an ApiCallRecorded event once
 * the response is done. Publishing never delays or fails a response: if the bus lags, at most
 * `maxInFlight` reports wait and the rest are dropped and counted.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { ApiCallRecordedSchema } from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { type EventBus, type Logger, subjects } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import type { Caller } from "../key-verifier.js";

export const UNMATCHED_ROUTE = "unmatched";

export class ApiCallRecorder {
  private inFlight = 0;
  dropped = 0;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly maxInFlight = 5000,
  ) {}

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      res.on("finish", () => this.record(req, res));
      next();
    };
  }

  private record(req: Request, res: Response): void {
    const caller = res.locals.caller as Caller | undefined;
    if (!caller) return;
    if (this.inFlight >= this.maxInFlight) {
      this.dropped += 1;
      return;
    }
    const event = create(ApiCallRecordedSchema, {
      requestId: res.locals.requestId as string,
      workspaceId: caller.workspaceId,
      keyId: caller.keyId,
      method: req.method,
      route: (res.locals.route as string | undefined) ?? UNMATCHED_ROUTE,
      path: req.path,
      status: res.statusCode,
      code: (res.locals.problemCode as string | undefined) ?? "",
      durationMs: performance.now() - (res.locals.startedAt as number),
      time: timestampNow(),
    });
    this.inFlight += 1;
    this.bus
      .publish(subjects.apiCallRecorded, toBinary(ApiCallRecordedSchema, event), { msgId: event.requestId })
      .catch((err: unknown) => this.logger.warn({ err }, "could not report an API call"))
      .finally(() => {
        this.inFlight -= 1;
      });
  }
}
