/** The webhooks service's settings, read by its own process and by standalone mode alike. */
import { readFileSync } from "node:fs";
import { ConfigError, env, type Network } from "@countersign/kit";
import { z } from "zod";
import { parseRetrySchedule } from "./delivery/retry-schedule.js";

export const webhookConfig = {
  COUNTERSIGN_WEBHOOK_SECRET_KEY: env
    .secret()
    .describe(
      "seals endpoint signing secrets at rest; changing it makes every stored secret unreadable (standalone and launcher: generated in the data dir)",
    ),
  COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: env
    .reachableNetworks()
    .describe(
      "CIDRs deliveries may reach although private, e.g. `10.20.0.0/16`; by default only public addresses",
    ),
  COUNTERSIGN_WEBHOOK_CA_FILE: z
    .string()
    .optional()
    .describe("a PEM file of CA certificates trusted besides the system's, for endpoints with a private CA"),
  COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("")
    .describe(
      "seconds to wait before each attempt of a message (±20 %); empty: `0,5,300,1800,7200,18000,36000,36000`",
    ),
  COUNTERSIGN_WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 24 * 3600)
    .describe("an endpoint whose every delivery failed this long (5 days) is disabled"),
  COUNTERSIGN_WEBHOOK_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0.1)
    .max(60)
    .default(15)
    .describe("how long an endpoint has to answer an attempt"),
};

type WebhookConfig = {
  COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: readonly Network[];
  COUNTERSIGN_WEBHOOK_CA_FILE?: string | undefined;
  COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE: string;
  COUNTERSIGN_WEBHOOK_DISABLE_AFTER_SECONDS: number;
  COUNTERSIGN_WEBHOOK_TIMEOUT_SECONDS: number;
};

/**
 * Settings in the shape buildWebhooks takes, but for the secret key (standalone makes one when none
 * is configured); a bad CA file or schedule names its variable (a bad network list is refused by the
 * schema).
 */
export function webhookSettings(config: WebhookConfig) {
  const named = <T>(variable: string, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw new ConfigError(`${variable}: ${(err as Error).message}`);
    }
  };
  return {
    allowNetworks: config.COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS,
    extraCa: config.COUNTERSIGN_WEBHOOK_CA_FILE
      ? named("COUNTERSIGN_WEBHOOK_CA_FILE", () => readCaFile(config.COUNTERSIGN_WEBHOOK_CA_FILE as string))
      : undefined,
    retryScheduleSeconds: config.COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE
      ? named("COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE", () =>
          parseRetrySchedule(config.COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE),
        )
      : undefined,
    disableAfterMs: config.COUNTERSIGN_WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
    timeoutMs: config.COUNTERSIGN_WEBHOOK_TIMEOUT_SECONDS * 1000,
  };
}

function readCaFile(path: string): string {
  const pem = readFileSync(path, "utf8");
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("holds no PEM certificate");
  return pem;
}
