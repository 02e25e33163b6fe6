/**
 * The in-process EventBus of standalone mode. `publish` resolves only once every durable consumer
 * with a member has handled the message, so the outbox keeps an event until it has really been
 * processed: the durability that JetStream gives the distributed mode comes from the outbox here.
 * Like a JetStream stream, the bus also keeps what it was given (bounded by count and age): a
 * consumer that appears later receives everything kept, and one whose members have all left finds
 * what came meanwhile when a member returns — nothing is dropped for want of a listener.
 */
import {
  type BusMessage,
  type EventBus,
  type PublishOptions,
  redeliveryDelayMs,
  subjectMatches,
  tracedHandler,
} from "./event-bus.js";

interface Kept {
  subject: string;
  data: Uint8Array;
  at: number;
  traceparent?: string | undefined;
}

interface ConsumerGroup {
  subject: string;
  members: ((msg: BusMessage) => Promise<void>)[];
  next: number;
  /** Messages that arrived while the group had no member, delivered when one joins. */
  backlog: Kept[];
  catchingUp: boolean;
}

const DEDUP_WINDOW_MS = 120_000;
const MAX_REMEMBERED_IDS = 100_000;

export interface MemoryEventBusOptions {
  /** Deliveries to one consumer before publish gives up (and the outbox tries again later). */
  maxAttempts?: number;
  /** How many messages the bus keeps for consumers that appear later, and for how long. */
  retention?: { messages: number; ms: number };
  /** The wait before delivery number n + 1. */
  retryDelayMs?: (deliveryCount: number) => number;
}

export class MemoryEventBus implements EventBus {
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly listeners = new Set<{ subject: string; handler: (msg: BusMessage) => void }>();
  private readonly seen = new Map<string, number>();
  private readonly kept: Kept[] = [];
  private closed = false;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (deliveryCount: number) => number;
  private readonly retention: { messages: number; ms: number };

  constructor(options: MemoryEventBusOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? ((n) => Math.min(redeliveryDelayMs(n), 2_000));
    // JetStream's stream keeps 7 days; in memory a count bounds it too.
    this.retention = options.retention ?? { messages: 10_000, ms: 7 * 86_400_000 };
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<void> {
    if (this.closed) throw new Error("event bus closed");
    if (options.msgId && this.isDuplicate(options.msgId)) return;
    for (const listener of this.listeners) {
      if (subjectMatches(listener.subject, subject)) listener.handler({ subject, data, deliveryCount: 1 });
    }
    const message: Kept = { subject, data, at: Date.now(), traceparent: options.traceparent };
    this.keep(message);
    const groups = [...this.groups.values()].filter((group) => subjectMatches(group.subject, subject));
    for (const group of groups) {
      if (group.members.length > 0) continue;
      group.backlog.push(message);
      if (group.backlog.length > this.retention.messages) group.backlog.shift();
    }
    const deliveries = groups
      .filter((group) => group.members.length > 0)
      .map((group) => this.deliver(group, message));
    const results = await Promise.allSettled(deliveries);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) {
      // Let the outbox publish it again; consumers that already handled it see a duplicate,
      // which at-least-once delivery allows.
      if (options.msgId) this.seen.delete(options.msgId);
      throw failed.reason;
    }
  }

  async consume(subject: string, consumer: string, given: (msg: BusMessage) => Promise<void>) {
    const handler = tracedHandler(consumer, given);
    let group = this.groups.get(consumer);
    if (!group) {
      // A new durable consumer starts at the beginning of what the bus keeps, as JetStream's does.
      const now = Date.now();
      const backlog = this.kept.filter(
        (m) => subjectMatches(subject, m.subject) && now - m.at < this.retention.ms,
      );
      group = { subject, members: [], next: 0, backlog, catchingUp: false };
      this.groups.set(consumer, group);
    }
    group.members.push(handler);
    if (group.backlog.length > 0) void this.catchUp(group);
    return async () => {
      if (group) group.members = group.members.filter((member) => member !== handler);
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

  private async deliver(group: ConsumerGroup, message: Kept): Promise<void> {
    const { subject, data, traceparent } = message;
    let lastError: unknown;
    for (let deliveryCount = 1; deliveryCount <= this.maxAttempts; deliveryCount++) {
      const member = group.members[group.next++ % group.members.length];
      if (!member) return;
      try {
        await member({ subject, data, deliveryCount, traceparent });
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

  /** Delivers what waited for the group, in order; what keeps failing waits for the next member. */
  private async catchUp(group: ConsumerGroup): Promise<void> {
    if (group.catchingUp) return;
    group.catchingUp = true;
    try {
      while (group.backlog.length > 0 && group.members.length > 0 && !this.closed) {
        const message = group.backlog[0] as Kept;
        await this.deliver(group, message);
        group.backlog.shift();
      }
    } catch {
      // Left in the backlog for the next member to join.
    } finally {
      group.catchingUp = false;
    }
  }

  private keep(message: Kept): void {
    this.kept.push(message);
    const oldest = message.at - this.retention.ms;
    while (this.kept.length > this.retention.messages || (this.kept[0] && this.kept[0].at < oldest)) {
      this.kept.shift();
    }
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
