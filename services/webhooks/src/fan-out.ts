/**
 * Turns each signature request event into one message per subscribed endpoint. The consumer is
 * durable and shared by every replica; a message is made idempotently from the event id, so an
 * event the bus delivers twice (a replica died before its ack) still makes one message each.
 * Events that arrive while a batch is being written wait for the next one: a query for the
 * subscribers and one insert serve a whole batch, and each event is acknowledged once its
 * messages are committed.
 */
import { fromBinary } from "@bufbuild/protobuf";
import {
  SIGNATURE_REQUEST_EVENT_TYPES,
  type SignatureRequestEventType,
  subjects,
  type WebhookFormat,
} from "@countersign/domain";
import {
  type SignatureRequestEvent,
  SignatureRequestEventSchema,
} from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import {
  type BusMessage,
  currentTraceparent,
  type Database,
  type EventBus,
  isUuid,
  type Logger,
  type Unsubscribe,
  uuidv7,
} from "@countersign/kit";
import { webhookEventType } from "./event-types.js";
import { GroupCommit } from "./group-commit.js";
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

type ReadableEvent = SignatureRequestEvent & {
  signatureRequest: NonNullable<SignatureRequestEvent["signatureRequest"]>;
};

/** An event waiting for its batch, with the trace it was consumed in (its messages' deliveries join it). */
interface Pending {
  event: ReadableEvent;
  traceparent: string | null;
}

export class FanOut {
  private unsubscribe: Unsubscribe | undefined;
  private readonly batches: GroupCommit<Pending>;

  constructor(private readonly options: FanOutOptions) {
    this.batches = new GroupCommit(async (events) => {
      if ((await this.write(events)) > 0) options.made();
    });
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.bus.consume(subjects.signatureRequestEvents, CONSUMER, (msg) =>
      this.handle(msg),
    );
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** Resolves when the event's messages are committed; rejects (the bus delivers it again) when they cannot be. */
  async handle(msg: BusMessage): Promise<void> {
    const { logger } = this.options;
    let event: SignatureRequestEvent;
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
    await this.batches.add({ event: event as ReadableEvent, traceparent: currentTraceparent() });
  }

  private async write(pending: Pending[]): Promise<number> {
    const { db, payloads } = this.options;
    const endpoints = await store.subscribers(db, [
      ...new Set(pending.map(({ event }) => event.signatureRequest.workspaceId)),
    ]);
    const messages = pending.flatMap(({ event, traceparent }) => {
      const type = webhookEventType(event.type as SignatureRequestEventType);
      // A test request's events go to the endpoints test keys registered, a live one's to the others.
      const subscribed = endpoints.filter(
        (e) =>
          e.workspace_id === event.signatureRequest.workspaceId &&
          e.test === event.signatureRequest.test &&
          e.event_types.includes(type),
      );
      if (subscribed.length === 0) return [];
      // One body per format, shared by every endpoint of that format.
      const bodies = new Map<WebhookFormat, string>();
      const bodyIn = (format: WebhookFormat) => {
        let body = bodies.get(format);
        if (body === undefined) {
          body = payloads.of(event, format);
          bodies.set(format, body);
        }
        return body;
      };
      return subscribed.map((endpoint) => ({
        id: uuidv7(),
        endpointId: endpoint.id,
        eventId: event.eventId,
        eventType: type,
        payload: bodyIn(endpoint.format),
        traceparent,
      }));
    });
    if (messages.length === 0) return 0;
    return store.insertMessages(db, messages, this.options.firstDelayMs);
  }
}
