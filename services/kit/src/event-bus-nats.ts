/**
 * The NATS JetStream EventBus of distributed mode: one stream per namespace holding every event
 * subject, durable pull consumers declared idempotently at start, explicit acks, `nak(delay)` for
 * backoff, and the message id on publish so that a re-published outbox row is dropped as a duplicate.
 */

import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { Counter } from "prom-client";
import {
  type BusMessage,
  type EventBus,
  type PublishOptions,
  redeliveryDelayMs,
  tracedHandler,
} from "./event-bus.js";
import type { Logger } from "./logger.js";
import { TRACEPARENT } from "./tracing.js";

export interface NatsEventBusOptions {
  url: string;
  namespace: string;
  /** How long the stream keeps events; consumers that are down longer than this lose them. */
  maxAgeDays?: number;
  name?: string;
  /** Where a consumer that stopped and was started again is reported. */
  logger?: Logger;
  /** The wait before a stopped consumer is started again. */
  resubscribeDelayMs?: number;
  /** How long a consumer's message may go unanswered before JetStream gives it to another replica. */
  ackWaitMs?: number;
}

/** Consumers that stopped and were started again, by consumer (Prometheus). */
export const busConsumerRestarts = new Counter({
  name: "event_bus_consumer_restarts_total",
  help: "Times a durable consumer's message stream ended unexpectedly and was started again.",
  labelNames: ["consumer"],
  registers: [],
});

const NANOS_PER_MS = 1_000_000;

export class NatsEventBus implements EventBus {
  private readonly stream: string;
  private readonly prefix: string;
  /** Set by close(): consumers then end instead of starting again. */
  private closing = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    namespace: string,
    private readonly options: NatsEventBusOptions,
  ) {
    this.stream = `${namespace.replace(/[^A-Za-z0-9_-]/g, "_")}_events`;
    this.prefix = `${namespace}.events.`;
  }

  static async connect(options: NatsEventBusOptions): Promise<NatsEventBus> {
    const nc = await connect({
      servers: options.url.split(","),
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    const jsm = await jetstreamManager(nc);
    const bus = new NatsEventBus(nc, jetstream(nc), jsm, options.namespace, options);
    await bus.ensureStream();
    return bus;
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<void> {
    let traced: ReturnType<typeof headers> | undefined;
    if (options.traceparent) {
      traced = headers();
      traced.set(TRACEPARENT, options.traceparent);
    }
    await this.js.publish(this.prefix + subject, data, {
      ...(options.msgId ? { msgID: options.msgId } : {}),
      ...(traced ? { headers: traced } : {}),
    });
  }

  async consume(subject: string, consumer: string, given: (msg: BusMessage) => Promise<void>) {
    const handler = tracedHandler(consumer, given);
    const durable = `${this.stream}-${consumer}`.replace(/[^A-Za-z0-9_-]/g, "_");
    const open = async (reopening: boolean) => {
      // The consumer is declared every time; the stream, made at connect, again only on a reopen:
      // either may have been deleted behind our back.
      if (reopening) await this.ensureStream();
      await this.jsm.consumers.add(this.stream, {
        durable_name: durable,
        filter_subject: this.prefix + subject,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: (this.options.ackWaitMs ?? 60_000) * NANOS_PER_MS,
        max_ack_pending: 1000,
      });
      // A stream or consumer that goes missing ends the iteration, and the loop below makes both again.
      return (await this.js.consumers.get(this.stream, durable)).consume({
        max_messages: 256,
        abort_on_missing_resource: true,
      });
    };
    let messages = await open(false);
    let unsubscribed = false;
    const stopped = () => unsubscribed || this.closing || this.nc.isClosed();
    const prefixLength = this.prefix.length;
    const run = async () => {
      while (!stopped()) {
        try {
          for await (const msg of messages) {
            const deliveryCount = msg.info.deliveryCount;
            // Handlers run concurrently (bounded by max_ack_pending) so that a batching handler can
            // gather many messages before it answers for any of them.
            handler({
              subject: msg.subject.slice(prefixLength),
              data: msg.data,
              deliveryCount,
              traceparent: msg.headers?.get(TRACEPARENT) || undefined,
            }).then(
              () => msg.ack(),
              () => msg.nak(redeliveryDelayMs(deliveryCount)),
            );
          }
          if (stopped()) return;
          this.options.logger?.warn(
            { consumer: durable },
            "event consumer stopped receiving; starting it again",
          );
        } catch (err) {
          if (stopped()) return;
          this.options.logger?.warn({ err, consumer: durable }, "event consumer failed; starting it again");
        }
        busConsumerRestarts.inc({ consumer: durable });
        // Until it is back: a server restarting, a consumer deleted and not yet made again.
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, this.options.resubscribeDelayMs ?? 1000));
          if (stopped()) return;
          try {
            messages = await open(true);
            // Stopped while it opened: nobody else would ever close it.
            if (stopped()) await messages.close();
            break;
          } catch (err) {
            this.options.logger?.warn({ err, consumer: durable }, "event consumer cannot start yet");
          }
        }
      }
    };
    void run();
    return async () => {
      unsubscribed = true;
      await messages.close();
    };
  }

  async listen(subject: string, handler: (msg: BusMessage) => void) {
    const prefixLength = this.prefix.length;
    const subscription = this.nc.subscribe(this.prefix + subject, {
      callback: (err, msg) => {
        if (!err) handler({ subject: msg.subject.slice(prefixLength), data: msg.data, deliveryCount: 1 });
      },
    });
    return async () => subscription.unsubscribe();
  }

  /** JetStream answers, not only the NATS server: the outbox tells an outage from a refused event by it. */
  async ping(): Promise<void> {
    await this.jsm.getAccountInfo();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.nc.drain();
  }

  /** Deletes the stream and its consumers; tests use it to leave nothing behind. */
  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.stream).catch(() => false);
    await this.close();
  }

  private async ensureStream(): Promise<void> {
    const maxAgeDays = this.options.maxAgeDays ?? 7;
    const config = {
      name: this.stream,
      subjects: [`${this.prefix}>`],
      duplicate_window: 120_000 * NANOS_PER_MS,
      max_age: maxAgeDays * 86_400_000 * NANOS_PER_MS,
    };
    try {
      await this.jsm.streams.info(this.stream);
      await this.jsm.streams.update(this.stream, config);
    } catch {
      await this.jsm.streams.add(config).catch(async (err: unknown) => {
        // Another replica created it between our look-up and our add.
        await this.jsm.streams.info(this.stream).catch(() => Promise.reject(err));
      });
    }
  }
}
