/**
 * grpc.health.v1.Health, as Kubernetes gRPC probes and grpc-health-probe call it. The overall
 * status ("") and each registered service's status is SERVING only while the process is not
 * shutting down and its readiness probe (database, bus, blob store) answers.
 */
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponse_ServingStatus as Status,
} from "@countersign/gen/grpc/health/v1/health_pb.js";

export { Status as ServingStatus };

export type ReadinessProbe = () => Promise<void>;

const PROBE_CACHE_MS = 2000;

/** The health "service" Kubernetes liveness probes ask about. */
export const LIVENESS = "liveness";
const WATCH_INTERVAL_MS = 1000;

export class HealthState {
  private shuttingDown = false;
  private lastProbe = { at: 0, ok: false };
  private pending: Promise<boolean> | undefined;

  constructor(
    private readonly services: readonly string[],
    private readonly probe: ReadinessProbe = async () => {},
  ) {}

  /** Called at the start of a graceful shutdown: load balancers stop sending new calls. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async status(service: string): Promise<Status> {
    // Liveness asks only whether the process still answers: restarting it cannot bring back a
    // database, so an outage must show in readiness, not in restarts.
    if (service === LIVENESS) return Status.SERVING;
    if (service !== "" && !this.services.includes(service)) {
      throw new ConnectError(`unknown service "${service}"`, Code.NotFound);
    }
    if (this.shuttingDown) return Status.NOT_SERVING;
    return (await this.ready()) ? Status.SERVING : Status.NOT_SERVING;
  }

  private ready(): Promise<boolean> {
    if (Date.now() - this.lastProbe.at < PROBE_CACHE_MS) return Promise.resolve(this.lastProbe.ok);
    this.pending ??= this.probe()
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        this.lastProbe = { at: Date.now(), ok };
        this.pending = undefined;
        return ok;
      });
    return this.pending;
  }
}

export function healthRoutes(state: HealthState) {
  const impl: ServiceImpl<typeof Health> = {
    async check(req) {
      return { status: await state.status(req.service) };
    },
    async *watch(req, context) {
      let last: Status | undefined;
      while (!context.signal.aborted) {
        const status = await state.status(req.service);
        if (status !== last) yield { status };
        last = status;
        await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS));
      }
    },
  };
  return (router: ConnectRouter) => router.service(Health, impl);
}

/** Readiness as the design defines it: my database, bus and blob store answer. */
export function dependenciesAnswer(
  ...dependencies: { ping?: () => Promise<void>; query?: (sql: string) => Promise<unknown> }[]
): ReadinessProbe {
  return async () => {
    for (const dependency of dependencies) {
      if (dependency.ping) await dependency.ping();
      else await dependency.query?.("SELECT 1");
    }
  };
}
