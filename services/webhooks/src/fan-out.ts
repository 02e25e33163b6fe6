/**
 * Turns each signature request event into one message per subscribed endpoint. The consumer is
 * durable and shared by every replica; a message is made idempotently from the event id, so an
 * event the bus delivers twice (a replica died before its ack) still makes one message each.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { SignatureRequestEventSchema } from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import {
  type BusMessage,
  type Database,
  type EventBus,
  isUuid,
  type Logger,
  SIGNATURE_REQUEST_EVENT_TYPES,
  type SignatureRequestEventType,
  subjects,
  type Unsubscribe,
  uuidv7,
} from "@countersign/kit";
import { webhookEventType } from "./event-types.js";
import type { Payloads } from "./payload.js";
import { store } from "./store.js";

const CONSUMER = "webhooks-fan-out";

export interface FanOutOptions {
  db: Database;
  bus: EventBus;
  payloads: Payloads;
  logger: Logger;
  /** The wait before a message's first attempt (the schedule's first entry). */
  firstDelayMs: number;
  /** Called after messages were made, so that their delivery starts at once. */
  made: () => void;
}

export class FanOut {
  private unsubscribe: Unsubscribe | undefined;

  constructor(private readonly options: FanOutOptions) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.options.bus.consume(subjects.signatureRequestEvents, CONSUMER, (msg) =>
      this.handle(msg),
    );
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** Throws (so the bus delivers the event again) only when the database does not answer. */
  async handle(msg: BusMessage): Promise<void> {
    const { db, payloads, logger } = this.options;
    let event: ReturnType<typeof fromBinary<typeof SignatureRequestEventSchema>>;
    try {
      event = fromBinary(SignatureRequestEventSchema, msg.data);
    } catch (err) {
      logger.error({ err, subject: msg.subject }, "dropped an event that is not a SignatureRequestEvent");
      return;
    }
    const request = event.signatureRequest;
    const known = (SIGNATURE_REQUEST_EVENT_TYPES as readonly string[]).includes(event.type);
    if (!request || !known || !isUuid(event.eventId) || !isUuid(request.workspaceId)) {
      logger.error(
        { subject: msg.subject, eventId: event.eventId },
        "dropped a signature request event it cannot read",
      );
      return;
    }
    const type = webhookEventType(event.type as SignatureRequestEventType);
    const endpoints = await store.subscribers(db, request.workspaceId, type);
    if (endpoints.length === 0) return;
    const made = await store.insertMessages(
      db,
      endpoints.map((endpointId) => ({ id: uuidv7(), endpointId })),
      { id: event.eventId, type, payload: payloads.of(event), firstDelayMs: this.options.firstDelayMs },
    );
    if (made > 0) this.options.made();
  }
}
