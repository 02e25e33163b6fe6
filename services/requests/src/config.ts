/** The requests service's settings, read by its own process and by standalone mode alike. */
import { z } from "zod";

export const mailConfig = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  COUNTERSIGN_MAIL_FROM: z.email().default("no-reply@countersign.local"),
};

export const requestTimingConfig = {
  COUNTERSIGN_REMINDER_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(600),
  COUNTERSIGN_EMBEDDED_URL_TTL_SECONDS: z.coerce.number().int().min(10).default(300),
  COUNTERSIGN_EXPIRY_SWEEP_SECONDS: z.coerce.number().min(0.1).default(30),
};

type Timings = { [K in keyof typeof requestTimingConfig]: number };

export function requestTimings(config: Timings) {
  return {
    reminderIntervalMs: config.COUNTERSIGN_REMINDER_INTERVAL_SECONDS * 1000,
    embeddedUrlTtlMs: config.COUNTERSIGN_EMBEDDED_URL_TTL_SECONDS * 1000,
    expirySweepIntervalMs: config.COUNTERSIGN_EXPIRY_SWEEP_SECONDS * 1000,
  };
}
