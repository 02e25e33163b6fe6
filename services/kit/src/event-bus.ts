/**
 * The EventBus port. Subjects are relative ("auth.api_key_deleted"); an adapter puts them under
 * its namespace. Two ways to receive:
 * - `consume`: a durable consumer shared by every replica that names it; each message reaches one
 *   of them at least once, and a handler that throws gets it again later (work distribution).
 * - `listen`: every listener gets every message published from now on, with no redelivery
 *   (cache invalidation on every replica).
 */
import { contextFrom, inSpan, outsideTrace, SpanKind, tracingEnabled } from "./tracing.js";

export interface BusMessage {
  subject: string;
  data: Uint8Array;
  /** How often this message has been delivered to this consumer, 1 the first time. */
  deliveryCount: number;
  /** The trace the event was written in (W3C `traceparent`), when it was traced. */
  traceparent?: string | undefined;
}

export type Unsubscribe = () => Promise<void>;

export interface PublishOptions {
  /** De-duplication id: a second publish with the same id within the window is dropped. */
  msgId?: string;
  /** The trace the event belongs to, carried in a message header. */
  traceparent?: string | undefined;
}

export interface EventBus {
  publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void>;
  consume(
    subject: string,
    consumer: string,
    handler: (msg: BusMessage) => Promise<void>,
  ): Promise<Unsubscribe>;
  listen(subject: string, handler: (msg: BusMessage) => void): Promise<Unsubscribe>;
  /** Resolves when the bus answers; readiness probes call it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Redelivery delay after a handler failed: 1 s doubling to 5 minutes. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(1000 * 2 ** Math.max(0, deliveryCount - 1), 300_000);
}

/** NATS subject matching: `*` is one token, a final `>` is one or more tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (pattern === subject) return true;
  const want = pattern.split(".");
  const have = subject.split(".");
  for (let i = 0; i < want.length; i++) {
    if (want[i] === ">") return have.length > i;
    if (i >= have.length || (want[i] !== "*" && want[i] !== have[i])) return false;
  }
  return want.length === have.length;
}

/**
 * A consumer's handler whose work joins the trace its event was written in: a CONSUMER span,
 * a child of the event's context, around each delivery of a traced event.
 */
export function tracedHandler(
  consumer: string,
  handler: (msg: BusMessage) => Promise<void>,
): (msg: BusMessage) => Promise<void> {
  return (msg) => {
    if (!tracingEnabled()) return handler(msg);
    // An event nobody traced is handled in no trace, whoever published it in this process.
    if (!msg.traceparent) return outsideTrace(() => handler(msg));
    return inSpan(
      `process ${msg.subject}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(msg.traceparent),
        attributes: {
          "messaging.system": "nats",
          "messaging.operation.type": "process",
          "messaging.destination.name": msg.subject,
          "messaging.consumer.group.name": consumer,
          "messaging.message.delivery_count": msg.deliveryCount,
        },
      },
      () => handler(msg),
    );
  };
}
