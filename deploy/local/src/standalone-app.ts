/**
 * `npm start`'s second step, once standalone.ts holds the data directory: reads the configuration,
 * starts every service in this process and stops them on SIGTERM or SIGINT.
 */
import { resolve } from "node:path";
import { identityProviderConfig } from "@countersign/auth";
import { conversionConfig, conversionSettings, DEFAULT_MAX_DOCUMENT_PAGES } from "@countersign/documents";
import {
  admissionConfig,
  admissionLimits,
  bodyLimits,
  bodyLimitsConfig,
  bodyMemoryConfig,
  edgeConfig,
} from "@countersign/gateway";
import {
  createLogger,
  env,
  exitOnProcessFaults,
  loadConfig,
  mailConfig,
  startTracing,
  stopTracing,
  warnWithoutNodeFlags,
} from "@countersign/kit";
import { configuredSeal, requestsConfig, requestsSettings } from "@countersign/requests";
import { webhookConfig, webhookSettings } from "@countersign/webhooks";
import type { DestinationStream } from "pino";
import { z } from "zod";
import { startStandalone } from "./compose-standalone.js";
import type { DataDirLock } from "./data-dir-lock.js";

/** Standalone's variables (standalone.ts reads LOG_LEVEL and COUNTERSIGN_DATA_DIR once before, to hold the data dir). */
export const standaloneConfigSchema = z.object({
  PORT: env.port(8080),
  HOST: z.string().default("0.0.0.0").describe("the gateway's listening address"),
  LOG_LEVEL: env.logLevel(),
  COUNTERSIGN_DATA_DIR: z
    .string()
    .min(1)
    .default("./data")
    .describe(
      "data, secrets and the admin port's address (standalone; services that write e-mails to files keep their outbox there); the CLI finds a running deployment through it",
    ),
  COUNTERSIGN_PUBLIC_URL: env.url().optional(),
  COUNTERSIGN_ADMIN_PORT: env.port(0).describe("the loopback-only admin port for the CLI; 0: a free port"),
  COUNTERSIGN_ADMIN_EMAIL: z.email().default("admin@localhost"),
  COUNTERSIGN_ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  ...edgeConfig,
  ...bodyLimitsConfig,
  ...admissionConfig,
  ...bodyMemoryConfig,
  ...mailConfig,
  ...requestsConfig,
  COUNTERSIGN_MAX_DOCUMENT_PAGES: z.coerce.number().int().min(1).default(DEFAULT_MAX_DOCUMENT_PAGES),
  ...conversionConfig,
  ...webhookConfig,
  ...identityProviderConfig,
  COUNTERSIGN_WEBHOOK_SECRET_KEY: env.secret().optional(),
});

export interface HeldStart {
  /** The data directory, held since the process began. */
  lock: DataDirLock;
  /** Where every part's log lines go. */
  destination: DestinationStream;
  /** When the process began (performance.now()), for the start's duration. */
  started: number;
}

export async function runStandalone({ lock, destination, started }: HeldStart): Promise<void> {
  const config = loadConfig(standaloneConfigSchema);
  const loggerFor = (service: string) =>
    createLogger({ name: service, level: config.LOG_LEVEL, destination });
  // Off unless OTEL_* names an exporter; before anything is built, so every part is traced.
  const tracing = startTracing({ serviceName: "countersign" });
  const logger = loggerFor("standalone");
  exitOnProcessFaults(logger);
  warnWithoutNodeFlags(logger);
  if (tracing) logger.info("tracing: spans are sent to the OTLP endpoint OTEL_* names");
  const dataDir = resolve(config.COUNTERSIGN_DATA_DIR);
  const app = await startStandalone({
    dataDir,
    lock,
    port: config.PORT,
    host: config.HOST,
    publicUrl: config.COUNTERSIGN_PUBLIC_URL,
    adminPort: config.COUNTERSIGN_ADMIN_PORT,
    adminEmail: config.COUNTERSIGN_ADMIN_EMAIL,
    adminPassword: config.COUNTERSIGN_ADMIN_PASSWORD,
    limits: {
      ratePerSecond: config.COUNTERSIGN_RATE_LIMIT_PER_SECOND,
      burst: config.COUNTERSIGN_RATE_LIMIT_BURST,
      ...bodyLimits(config),
      ...admissionLimits(config),
      bodyMemoryBytes: config.COUNTERSIGN_BODY_MEMORY_MB * 1024 * 1024,
    },
    trustedProxies: config.COUNTERSIGN_TRUSTED_PROXIES,
    loggerFor,
    mail: { smtpUrl: config.SMTP_URL, from: config.COUNTERSIGN_MAIL_FROM },
    seal: configuredSeal(config),
    requests: requestsSettings(config),
    documents: {
      maxPages: config.COUNTERSIGN_MAX_DOCUMENT_PAGES,
      maxUploadBytes: config.COUNTERSIGN_MAX_UPLOAD_BYTES,
      ...conversionSettings(config),
    },
    identityProviderNetworks: config.COUNTERSIGN_IDENTITY_PROVIDER_ALLOW_NETWORKS,
    webhooks: {
      ...webhookSettings(config),
      ...(config.COUNTERSIGN_WEBHOOK_SECRET_KEY ? { secretKey: config.COUNTERSIGN_WEBHOOK_SECRET_KEY } : {}),
    },
  });
  logger.info(
    { url: app.gatewayUrl, dataDir, startupMs: Math.round(performance.now() - started) },
    "Countersign is ready (standalone)",
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    await app.close();
    await stopTracing().catch(() => {});
    logger.info("stopped");
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
