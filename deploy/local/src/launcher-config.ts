/**
 * The variables the distributed launcher reads itself. Everything else in its environment passes on
 * to the processes it starts, which read their own.
 */
import { conversionConfig } from "@countersign/documents";
import { env } from "@countersign/kit";
import { z } from "zod";

const databaseUrl = () => env.url().optional();

export const launcherConfigSchema = z.object({
  PORT: env.port(8080),
  GATEWAY_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(8)
    .default(2)
    .describe("gateway replicas in local distributed mode; `--replicas name=N,…` sets any component's"),
  WEBHOOKS_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(8)
    .default(2)
    .describe("webhooks replicas in local distributed mode; `--replicas name=N,…` sets any component's"),
  LOG_LEVEL: env.logLevel(),
  COUNTERSIGN_DATA_DIR: z.string().min(1).default("./data/distributed"),
  POSTGRES_URL: env
    .url()
    .default("postgres://postgres@127.0.0.1:5432/postgres")
    .describe("the server the launcher puts the databases `<COUNTERSIGN_DB_PREFIX><service>` on"),
  COUNTERSIGN_DB_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,40}$/, "must be lower-case letters, digits and _")
    .default("countersign_")
    .describe("the prefix of the databases the launcher names on `POSTGRES_URL`"),
  AUTH_DATABASE_URL: databaseUrl(),
  TEMPLATES_DATABASE_URL: databaseUrl(),
  DOCUMENTS_DATABASE_URL: databaseUrl(),
  REQUESTS_DATABASE_URL: databaseUrl(),
  WEBHOOKS_DATABASE_URL: databaseUrl(),
  NATS_URL: z.string().min(1).default("nats://127.0.0.1:4222"),
  NATS_NAMESPACE: env.namespace(),
  S3_ENDPOINT: env.url().optional(),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_BUCKET: z.string().default("countersign"),
  COUNTERSIGN_PUBLIC_URL: env.url().optional(),
  COUNTERSIGN_ADMIN_EMAIL: z.email().optional(),
  COUNTERSIGN_ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  /** A time-stamping authority of your own; without one the launcher runs one on loopback (OpenSSL). */
  COUNTERSIGN_TSA_URL: env.url().optional(),
  /** Where one is, the launcher starts converters. */
  COUNTERSIGN_LIBREOFFICE: conversionConfig.COUNTERSIGN_LIBREOFFICE,
  /** Given to the webhooks processes in place of the one generated in the data dir. */
  COUNTERSIGN_WEBHOOK_SECRET_KEY: env.secret().optional(),
});

export type LauncherConfig = z.output<typeof launcherConfigSchema>;
