/**
 * Prometheus metrics: RPC counts by code and latency histograms per method, plus Node's default
 * process metrics. One registry per process; in standalone mode the services share it.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { drainFailures } from "./drain-loop.js";
import { busConsumerRestarts } from "./event-bus-nats.js";
import { backgroundJobAttempts, backgroundJobs, backgroundJobsOldest } from "./job-queue.js";

export interface RpcMetrics {
  registry: Registry;
  /** Starts timing a call; the returned function records it with its status code. */
  start(service: string, method: string): (code: string) => void;
}

export function createRpcMetrics(registry = new Registry()): RpcMetrics {
  if (!registry.getSingleMetric("process_cpu_seconds_total")) collectDefaultMetrics({ register: registry });
  // Counters of the kit's own machinery, made once per process and reported by every registry.
  if (!registry.getSingleMetric("background_jobs")) {
    for (const metric of [backgroundJobs, backgroundJobsOldest, backgroundJobAttempts])
      registry.registerMetric(metric);
  }
  if (!registry.getSingleMetric("event_bus_consumer_restarts_total"))
    registry.registerMetric(busConsumerRestarts);
  if (!registry.getSingleMetric("background_work_failures_total")) registry.registerMetric(drainFailures);
  const calls =
    (registry.getSingleMetric("rpc_server_handled_total") as Counter | undefined) ??
    new Counter({
      name: "rpc_server_handled_total",
      help: "RPCs completed on the server, by service, method and status code.",
      labelNames: ["service", "method", "code"],
      registers: [registry],
    });
  const latency =
    (registry.getSingleMetric("rpc_server_handling_seconds") as Histogram | undefined) ??
    new Histogram({
      name: "rpc_server_handling_seconds",
      help: "Time to answer an RPC, by service and method.",
      labelNames: ["service", "method"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  return {
    registry,
    start(service, method) {
      const end = latency.startTimer({ service, method });
      return (code) => {
        end();
        calls.inc({ service, method, code });
      };
    },
  };
}
