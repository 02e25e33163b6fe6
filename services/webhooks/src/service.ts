/**
 * Builds the webhooks service: endpoints, the fan-out of signature request events into one message
 * per subscribed endpoint, and the signed, retried, logged deliveries of those messages.
 */
import { fileURLToPath } from "node:url";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  migrate,
  type ServiceModule,
} from "@countersign/kit";
import { Deliveries } from "./delivery/deliveries.js";
import { GuardedClient, type LookupAll, type Network } from "./delivery/guarded-client.js";
import { DeliveryMetrics } from "./delivery/metrics.js";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "./delivery/retry-schedule.js";
import { endpointSecretBox } from "./endpoint-secrets.js";
import { Endpoints } from "./endpoints.js";
import { FanOut } from "./fan-out.js";
import { MessageLog } from "./message-log.js";
import { Payloads } from "./payload.js";
import { webhooksRoutes } from "./routes.js";
import { store } from "./store.js";
import { TestFire } from "./test-fire.js";

export interface WebhooksDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  /** The base URL of the links in payloads. */
  publicUrl: string;
  /** COUNTERSIGN_WEBHOOK_SECRET_KEY: seals endpoint secrets at rest. */
  secretKey: string;
  /** Networks deliveries may reach although they are not public (tests, in-cluster receivers). */
  allowNetworks?: readonly Network[];
  /** An extra trusted CA (PEM). */
  extraCa?: string;
  /** Resolves endpoint names instead of the system's DNS (tests give names internal addresses with it). */
  lookup?: LookupAll;
  /** The wait before each attempt of a round, in seconds. */
  retryScheduleSeconds?: readonly number[];
  /** Continuous failure after which an endpoint is disabled. */
  disableAfterMs?: number;
  timeoutMs?: number;
  pollIntervalMs?: number;
  concurrency?: number;
  /** The only replica on its database (standalone): claims of a killed process are released at start. */
  onlyReplica?: boolean;
}

export interface WebhooksModule extends ServiceModule {
  /** Resolves when no delivery is running or due now; tests wait on it. */
  deliveriesIdle(): Promise<void>;
}

const MIGRATIONS = { name: "webhooks", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildWebhooks(deps: WebhooksDeps): Promise<WebhooksModule> {
  const { db, bus, logger } = deps;
  await migrate(db, [MIGRATIONS]);
  const allowNetworks = deps.allowNetworks ?? [];
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const schedule = deps.retryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;
  const secrets = endpointSecretBox(deps.secretKey);
  const concurrency = deps.concurrency ?? 64;
  // As many sockets to one endpoint as attempts at once: an attempt queued for a socket would spend
  // its timeout waiting.
  const client = new GuardedClient({
    allowNetworks,
    extraCa: deps.extraCa,
    timeoutMs,
    maxSocketsPerOrigin: concurrency,
    lookup: deps.lookup,
    logger,
  });
  const payloads = new Payloads(deps.publicUrl);
  const metrics = new DeliveryMetrics(() => store.dueCount(db));
  const deliveries = new Deliveries({
    db,
    client,
    secrets,
    logger,
    metrics,
    scheduleSeconds: schedule,
    disableAfterMs: deps.disableAfterMs ?? 5 * 24 * 3600 * 1000,
    timeoutMs,
    pollIntervalMs: deps.pollIntervalMs,
    concurrency,
    onlyReplica: deps.onlyReplica,
  });
  const fanOut = new FanOut({
    db,
    bus,
    payloads,
    logger,
    firstDelayMs: (schedule[0] ?? 0) * 1000,
    made: () => deliveries.kick(),
  });
  const endpoints = new Endpoints({ db, secrets, allowNetworks });
  return {
    serviceNames: [WebhooksService.typeName],
    routes: webhooksRoutes({
      endpoints,
      messageLog: new MessageLog(db, endpoints, () => deliveries.kick()),
      testFire: new TestFire(db, endpoints, payloads, secrets, client),
    }),
    ready: dependenciesAnswer(db, bus),
    metrics: metrics.all(),
    async start() {
      deliveries.start();
      await fanOut.start();
    },
    async stop() {
      await fanOut.stop();
      await deliveries.stop();
      client.close();
    },
    deliveriesIdle: () => deliveries.idle(),
  };
}
