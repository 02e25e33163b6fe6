/**
 * The in-process EventBus of standalone mode. `publish` resolves only once every durable consumer
 * has handled the message, so the outbox keeps an event until it has really been processed: the
 * durability that JetStream gives the distributed mode comes from the outbox here.
 */
import {
  type BusMessage,
  type EventBus,
  type PublishOptions,
  redeliveryDelayMs,
  subjectMatches,
} from "./event-bus.js";

interface ConsumerGroup {
  subject: string;
  members: ((msg: BusMessage) => Promise<void>)[];
  next: number;
}

const DEDUP_WINDOW_MS = 120_000;
const MAX_REMEMBERED_IDS = 100_000;

export interface MemoryEventBusOptions {
  /** Deliveries to one consumer before publish gives up (and the outbox tries again later). */
  maxAttempts?: number;
  /** The wait before delivery number n + 1. */
  retryDelayMs?: (deliveryCount: number) => number;
}

export class MemoryEventBus implements EventBus {
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly listeners = new Set<{ subject: string; handler: (msg: BusMessage) => void }>();
  private readonly seen = new Map<string, number>();
  private closed = false;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (deliveryCount: number) => number;

  constructor(options: MemoryEventBusOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? ((n) => Math.min(redeliveryDelayMs(n), 2_000));
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<void> {
    if (this.closed) throw new Error("event bus closed");
    if (options.msgId && this.isDuplicate(options.msgId)) return;
    for (const listener of this.listeners) {
      if (subjectMatches(listener.subject, subject)) listener.handler({ subject, data, deliveryCount: 1 });
    }
    const deliveries = [...this.groups.values()]
      .filter((group) => subjectMatches(group.subject, subject) && group.members.length > 0)
      .map((group) => this.deliver(group, subject, data));
    const results = await Promise.allSettled(deliveries);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) {
      // Let the outbox publish it again; consumers that already handled it see a duplicate,
      // which at-least-once delivery allows.
      if (options.msgId) this.seen.delete(options.msgId);
      throw failed.reason;
    }
  }

  async consume(subject: string, consumer: string, handler: (msg: BusMessage) => Promise<void>) {
    const group = this.groups.get(consumer) ?? { subject, members: [], next: 0 };
    group.members.push(handler);
    this.groups.set(consumer, group);
    return async () => {
      group.members = group.members.filter((member) => member !== handler);
    };
  }

  async listen(subject: string, handler: (msg: BusMessage) => void) {
    const listener = { subject, handler };
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error("event bus closed");
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private async deliver(group: ConsumerGroup, subject: string, data: Uint8Array): Promise<void> {
    let lastError: unknown;
    for (let deliveryCount = 1; deliveryCount <= this.maxAttempts; deliveryCount++) {
      const member = group.members[group.next++ % group.members.length];
      if (!member) return;
      try {
        await member({ subject, data, deliveryCount });
        return;
      } catch (err) {
        lastError = err;
        if (deliveryCount < this.maxAttempts) {
          await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs(deliveryCount)));
        }
      }
    }
    throw lastError;
  }

  private isDuplicate(msgId: string): boolean {
    const now = Date.now();
    if ((this.seen.get(msgId) ?? 0) > now - DEDUP_WINDOW_MS) return true;
    this.seen.delete(msgId);
    this.seen.set(msgId, now);
    // Entries sit in the order they were seen: drop from the oldest until one is still in the window.
    for (const [id, at] of this.seen) {
      if (at > now - DEDUP_WINDOW_MS && this.seen.size <= MAX_REMEMBERED_IDS) break;
      this.seen.delete(id);
    }
    return false;
  }
}
