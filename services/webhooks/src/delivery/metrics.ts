/** Prometheus metrics of deliveries, made per service instance and registered by whoever runs it. */
import { Counter, Gauge, Histogram, type Metric } from "prom-client";

export class DeliveryMetrics {
  readonly attempts = new Counter({
    name: "webhook_attempts_total",
    help: "Delivery attempts, by outcome: succeeded (2xx), failed (another status) or error (no answer).",
    labelNames: ["outcome"],
    registers: [],
  });
  readonly gaveUp = new Counter({
    name: "webhook_messages_failed_total",
    help: "Messages whose every scheduled attempt failed.",
    registers: [],
  });
  readonly attemptSeconds = new Histogram({
    name: "webhook_attempt_duration_seconds",
    help: "Time from the start of an attempt to the endpoint's answer or the error.",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [],
  });
  readonly latencySeconds = new Histogram({
    name: "webhook_delivery_latency_seconds",
    help: "Time from a message's making to its successful delivery.",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 300, 3600, 86400],
    registers: [],
  });
  readonly queueDepth: Gauge;

  /** `dueCount` is read on every scrape. */
  constructor(dueCount: () => Promise<number>) {
    this.queueDepth = new Gauge({
      name: "webhook_queue_depth",
      help: "Messages due for an attempt now and not yet delivered.",
      registers: [],
      async collect() {
        this.set(await dueCount().catch(() => Number.NaN));
      },
    });
  }

  all(): Metric[] {
    return [this.attempts, this.gaveUp, this.attemptSeconds, this.latencySeconds, this.queueDepth];
  }
}
