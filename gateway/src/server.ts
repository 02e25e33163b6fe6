/**
 * The gateway as its own process (distributed mode): reaches each service over Connect (HTTP/2) at its
 * `<SERVICE>_ADDR` and hears auth's events on NATS. `buildGateway` in app.ts is what tests and the
 * standalone process use.
 */
import { pathToFileURL } from "node:url";
import { createClient } from "@connectrpc/connect";
import { conversionTimeoutConfig } from "@countersign/domain";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { Health, HealthCheckResponse_ServingStatus } from "@countersign/gen/grpc/health/v1/health_pb.js";
import {
  createLogger,
  env,
  exitOnProcessFaults,
  loadConfig,
  networkTransport,
  openNats,
  runMain,
  SERVER_GRACE_MS,
  serviceClient,
  shutDownInStages,
  startTracing,
  stopTracing,
  warnWithoutNodeFlags,
} from "@countersign/kit";
import { collectDefaultMetrics, Registry } from "prom-client";
import { z } from "zod";
import { buildGateway } from "./app.js";
import { withRelayedUploads } from "./document-upload-relay.js";
import { bodyLimits, bodyLimitsConfig, edgeConfig } from "./edge-config.js";
import { listen, serveMetrics } from "./http-server.js";
import { admissionConfig, admissionLimits } from "./middleware/admission.js";
import { bodyMemoryConfig } from "./middleware/body-budget.js";

export {
  buildGateway,
  DEFAULT_LIMITS,
  describeApi,
  type Gateway,
  type GatewayLimits,
  type GatewayOptions,
  type GatewayServices,
} from "./app.js";
export { bodyLimits, bodyLimitsConfig, edgeConfig } from "./edge-config.js";
export { type ListeningGateway, listen } from "./http-server.js";
export { admissionConfig, admissionLimits } from "./middleware/admission.js";
export { bodyMemoryConfig } from "./middleware/body-budget.js";

/** The gateway's variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  PORT: env.port(8080),
  METRICS_PORT: env
    .port(9090)
    .describe(
      "Prometheus metrics (`GET /metrics`), on a port of their own so that the public one does not show them",
    ),
  LOG_LEVEL: env.logLevel(),
  AUTH_ADDR: serviceAddress("auth"),
  DOCUMENTS_ADDR: serviceAddress("documents"),
  TEMPLATES_ADDR: serviceAddress("templates"),
  REQUESTS_ADDR: serviceAddress("requests"),
  WEBHOOKS_ADDR: serviceAddress("webhooks"),
  NATS_URL: z.string().min(1),
  NATS_NAMESPACE: env.namespace(),
  COUNTERSIGN_SERVICE_TOKEN: env.secret(),
  COUNTERSIGN_PUBLIC_URL: env
    .url()
    .optional()
    .describe(
      "the base URL clients use, by default `http://localhost:$PORT`: links in e-mails, the console's cURL commands, cookies' `Secure`",
    ),
  /** The converter's time limit, which an upload's deadline makes room for. */
  ...conversionTimeoutConfig,
  ...bodyLimitsConfig,
  ...edgeConfig,
  ...admissionConfig,
  ...bodyMemoryConfig,
});

/** A service's base URL (or several: the gateway balances over them), such as `http://auth:8080`. */
function serviceAddress(service: string) {
  return env.serviceAddress().describe(`the ${service} service's base URL, e.g. \`http://${service}:8080\``);
}

const metricsRegistry = new Registry();

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const tracing = startTracing({ serviceName: "countersign-gateway" });
  const logger = createLogger({ name: "gateway", level: config.LOG_LEVEL });
  exitOnProcessFaults(logger);
  warnWithoutNodeFlags(logger);
  if (tracing) logger.info("tracing: spans are sent to the OTLP endpoint OTEL_* names");
  const server = await listen(config.PORT);
  collectDefaultMetrics({ register: metricsRegistry });
  const bus = await openNats(config.NATS_URL, config.NATS_NAMESPACE, "gateway", logger);
  const authTransport = networkTransport(config.AUTH_ADDR, config.COUNTERSIGN_SERVICE_TOKEN);
  const authHealth = createClient(Health, authTransport);
  const documentsTransport = networkTransport(config.DOCUMENTS_ADDR, config.COUNTERSIGN_SERVICE_TOKEN);
  const gateway = buildGateway({
    services: {
      auth: serviceClient(AuthService, authTransport),
      documents: withRelayedUploads(
        serviceClient(DocumentsService, documentsTransport),
        documentsTransport,
        config.COUNTERSIGN_SERVICE_TOKEN,
      ),
      templates: serviceClient(
        TemplatesService,
        networkTransport(config.TEMPLATES_ADDR, config.COUNTERSIGN_SERVICE_TOKEN),
      ),
      requests: serviceClient(
        RequestsService,
        networkTransport(config.REQUESTS_ADDR, config.COUNTERSIGN_SERVICE_TOKEN),
      ),
      webhooks: serviceClient(
        WebhooksService,
        networkTransport(config.WEBHOOKS_ADDR, config.COUNTERSIGN_SERVICE_TOKEN),
      ),
    },
    bus,
    logger,
    metrics: metricsRegistry,
    publicUrl: (config.COUNTERSIGN_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ""),
    limits: {
      ...bodyLimits(config),
      ratePerSecond: config.COUNTERSIGN_RATE_LIMIT_PER_SECOND,
      burst: config.COUNTERSIGN_RATE_LIMIT_BURST,
      ...admissionLimits(config),
      bodyMemoryBytes: config.COUNTERSIGN_BODY_MEMORY_MB * 1024 * 1024,
      conversionTimeoutMs: config.COUNTERSIGN_CONVERSION_TIMEOUT_MS,
    },
    trustedProxies: config.COUNTERSIGN_TRUSTED_PROXIES,
    // Not NATS: the gateway only hears cache invalidations there (keys expire after 30 s anyway), and
    // a NATS outage taking every gateway out of its Service would turn it into a full outage.
    ready: async () => {
      const { status } = await authHealth.check({}, { timeoutMs: 2000 });
      if (status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error("auth is not serving");
    },
  });
  await gateway.start();
  server.serve(gateway.app);
  const metricsServer = await serveMetrics(gateway.metrics, config.METRICS_PORT);
  logger.info({ port: server.port, metricsPort: metricsServer.port }, "gateway listening");
  const shutdown = async () => {
    await shutDownInStages(logger, [
      {
        name: "HTTP servers",
        run: () => Promise.all([server.close(), metricsServer.close()]),
        deadlineMs: SERVER_GRACE_MS + 1000,
      },
      { name: "gateway", run: () => gateway.stop(), deadlineMs: 3000 },
      { name: "event bus", run: () => bus.close(), deadlineMs: 2000 },
      { name: "traces", run: () => stopTracing(), deadlineMs: 2000 },
    ]);
    logger.info("stopped");
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runMain(main);
