/**
 * Runs one service as its own process (distributed mode): reads the configuration every service
 * shares plus its own, opens Postgres (creating the service's database if missing) and NATS, serves
 * the module on its port, and on SIGTERM or SIGINT shuts down in order — NOT_SERVING, stop taking
 * calls, let calls in flight finish, stop background work, close the adapters.
 */
import { z } from "zod";
import { openNats, openPostgres } from "./adapters.js";
import { env, loadConfig } from "./config.js";
import type { Database } from "./database.js";
import type { EventBus } from "./event-bus.js";
import { HealthState } from "./health.js";
import { createLogger, type Logger } from "./logger.js";
import { createRpcMetrics } from "./metrics.js";
import { warnWithoutNodeFlags } from "./node-flags.js";
import { exitOnProcessFaults } from "./process-faults.js";
import { SERVER_GRACE_MS, startServiceServer } from "./server.js";
import { type MethodPolicy, parseCallers } from "./service-identity.js";
import type { ServiceModule } from "./service-module.js";
import { type ShutdownStage, shutDownInStages } from "./shutdown.js";
import { startTracing, stopTracing } from "./tracing.js";

/** The variables every service reads, beside its own and `<NAME>_DATABASE_URL`. */
export const serviceConfigSchema = z.object({
  PORT: env
    .port(8080)
    .describe(
      "listening port (gateway: HTTP; services: gRPC and HTTP/1.1 on one port; launcher: the first gateway's, the second on `PORT+1`)",
    ),
  LOG_LEVEL: env.logLevel().describe("`fatal` … `trace`, or `silent`"),
  NATS_URL: z
    .string()
    .min(1)
    .describe(
      "NATS with JetStream (comma-separated for a cluster); the launcher's default is a local server",
    ),
  NATS_NAMESPACE: env
    .namespace()
    .describe("stream `<ns>_events`, subjects `<ns>.events.>`: several deployments can share a server"),
  NATS_ACK_WAIT_SECONDS: z.coerce
    .number()
    .min(1)
    .max(3600)
    .default(60)
    .describe("how long an event a replica took may go unanswered before another replica gets it"),
  COUNTERSIGN_SERVICE_TOKEN: env
    .secret()
    .optional()
    .describe(
      "this process's own token for its calls to other services (those that call none need none); the CLI's is the operator's; the launcher generates them",
    ),
  COUNTERSIGN_CALLERS: z
    .string()
    .min(1)
    .describe(
      "`gateway=<sha256 of its token>,templates=…,requests=…,requests-sealer=…,operator=…`: the callers a service answers, each only the methods its code allows them (the launcher generates them; `cli identities` makes a set)",
    ),
  COUNTERSIGN_DRAIN_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("time between NOT_SERVING and closing the listener on shutdown"),
});

/** `<NAME>_DATABASE_URL`: the one variable whose name depends on the service. */
function databaseVariableOf(name: string): string {
  return `${name.toUpperCase()}_DATABASE_URL`;
}

/** Everything a service's process reads: the shared variables, its database's and its own. */
export function serviceSchema(name: string, own: z.ZodType) {
  return serviceConfigSchema
    .extend({
      [databaseVariableOf(name)]: env
        .url()
        .describe("the service's own Postgres database, created if missing (launcher: from `POSTGRES_URL`)"),
    })
    .and(own);
}

export interface ServiceAdapters {
  db: Database;
  bus: EventBus;
  logger: Logger;
}

export interface ServiceMainOptions<S extends z.ZodObject> {
  /** Short name: "auth", "templates" … ; the database URL is read from `<NAME>_DATABASE_URL`. */
  name: string;
  /** The service's own variables, validated with the shared ones. */
  config: S;
  /** The callers there are (COUNTERSIGN_CALLERS names no other), and which of its methods each may call. */
  callers: { known: readonly string[]; policy: MethodPolicy };
  build: (
    adapters: ServiceAdapters,
    config: z.output<S>,
  ) => Promise<ServiceModule & { close?: () => Promise<void> }>;
}

export async function serviceMain<S extends z.ZodObject>(options: ServiceMainOptions<S>): Promise<void> {
  const databaseVariable = databaseVariableOf(options.name);
  const config = loadConfig(serviceSchema(options.name, options.config)) as z.output<
    typeof serviceConfigSchema
  > &
    Record<string, string> &
    z.output<S>;
  const logger = startProcess(options.name, config.LOG_LEVEL);
  const db = await openPostgres(config[databaseVariable] as string);
  const bus = await openNats(
    config.NATS_URL,
    config.NATS_NAMESPACE,
    options.name,
    logger,
    config.NATS_ACK_WAIT_SECONDS * 1000,
  );
  const module = await options.build({ db, bus, logger }, config);
  await serve(
    module,
    config,
    parseCallers(config.COUNTERSIGN_CALLERS, options.callers.known),
    options.callers,
    logger,
    [
      { name: "event bus", run: () => bus.close(), deadlineMs: 2000 },
      { name: "database", run: () => db.close(), deadlineMs: 2000 },
    ],
  );
}

/** The variables a service that keeps nothing reads: no database, no event bus. */
export const statelessServiceConfigSchema = serviceConfigSchema.omit({
  NATS_URL: true,
  NATS_NAMESPACE: true,
  NATS_ACK_WAIT_SECONDS: true,
});

/** Everything a stateless service's process reads: the shared variables but the event bus's, and its own. */
export function statelessServiceSchema(own: z.ZodType) {
  return statelessServiceConfigSchema.and(own);
}

export interface StatelessServiceMainOptions<S extends z.ZodObject>
  extends Omit<ServiceMainOptions<S>, "build"> {
  build: (logger: Logger, config: z.output<S>) => Promise<ServiceModule & { close?: () => Promise<void> }>;
}

/** A service that keeps nothing and reaches nothing (the converter): served as serviceMain serves one. */
export async function statelessServiceMain<S extends z.ZodObject>(
  options: StatelessServiceMainOptions<S>,
): Promise<void> {
  const config = loadConfig(statelessServiceSchema(options.config)) as z.output<
    typeof statelessServiceConfigSchema
  > &
    z.output<S>;
  const logger = startProcess(options.name, config.LOG_LEVEL);
  const module = await options.build(logger, config);
  await serve(
    module,
    config,
    parseCallers(config.COUNTERSIGN_CALLERS, options.callers.known),
    options.callers,
    logger,
    [],
  );
}

/** Tracing (before anything is opened, so that the first call is traced), the log, fault handling. */
function startProcess(name: string, level: z.output<typeof serviceConfigSchema>["LOG_LEVEL"]): Logger {
  const tracing = startTracing({ serviceName: `countersign-${name}` });
  const logger = createLogger({ name, level });
  exitOnProcessFaults(logger);
  warnWithoutNodeFlags(logger);
  if (tracing) logger.info("tracing: spans are sent to the OTLP endpoint OTEL_* names");
  return logger;
}

/** Serves the module, and on SIGTERM or SIGINT shuts it down in order, then what it was given. */
async function serve(
  module: ServiceModule & { close?: () => Promise<void> },
  config: z.output<typeof statelessServiceConfigSchema>,
  callers: ReturnType<typeof parseCallers>,
  { policy }: { policy: MethodPolicy },
  logger: Logger,
  adapters: ShutdownStage[],
): Promise<void> {
  const metrics = createRpcMetrics();
  for (const metric of module.metrics ?? []) metrics.registry.registerMetric(metric);
  const server = await startServiceServer({
    routes: [module.routes],
    health: new HealthState(module.serviceNames, module.ready),
    logger,
    metrics,
    port: config.PORT,
    access: { callers, policy },
    drainMs: config.COUNTERSIGN_DRAIN_MS,
  });
  await module.start();
  logger.info({ port: server.port }, "serving");
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Kubernetes kills the pod 30 s after SIGTERM, 5 s of which its preStop hook sleeps.
    await shutDownInStages(logger, [
      {
        name: "server",
        run: () => server.close(),
        deadlineMs: config.COUNTERSIGN_DRAIN_MS + SERVER_GRACE_MS + 1000,
      },
      { name: "background work", run: () => module.stop(), deadlineMs: 5000 },
      { name: "resources", run: async () => module.close?.(), deadlineMs: 1000 },
      ...adapters,
      { name: "traces", run: () => stopTracing(), deadlineMs: 2000 },
    ]);
    logger.info("stopped");
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
