/**
 * What a service hands to whoever runs it: its routes, its readiness probe, and its background
 * work (outbox relays, consumers) to start and stop. The same module runs alone in its own process
 * (distributed mode) or beside the others in one process (standalone mode).
 */
import type { Metric } from "prom-client";
import type { ReadinessProbe } from "./health.js";
import type { Routes } from "./server.js";

export interface ServiceModule {
  /** Fully-qualified gRPC service names, for health checks. */
  serviceNames: string[];
  routes: Routes;
  ready: ReadinessProbe;
  /** The service's own Prometheus metrics, registered by whoever serves /metrics. */
  metrics?: Metric[];
  start(): Promise<void>;
  stop(): Promise<void>;
}
