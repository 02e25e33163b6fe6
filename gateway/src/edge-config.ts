/**
 * The edge's variables that every entry point running a gateway reads alike (its own process and
 * standalone mode): how fast a key may call, whose `X-Forwarded-For` is believed, and the largest
 * bodies it takes.
 */
import { env } from "@countersign/kit";
import { z } from "zod";

export const edgeConfig = {
  COUNTERSIGN_RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .positive()
    .default(50)
    .describe("calls per second per key (per gateway replica)"),
  COUNTERSIGN_RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(100).describe("burst per key"),
  COUNTERSIGN_TRUSTED_PROXIES: env
    .networks()
    .describe(
      "addresses or CIDRs of proxies (an ingress) whose `X-Forwarded-For` is believed: client IPs in the audit trail, per-client log-in limits; by default it is ignored",
    ),
};

export const bodyLimitsConfig = {
  COUNTERSIGN_JSON_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024)
    .describe("the largest JSON body, in bytes (413 beyond)"),
  // Described where the documents service reads it (upload-config.ts), which bounds an upload alike.
  COUNTERSIGN_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(25 * 1024 * 1024),
};

/** The gateway's body limits from its variables. */
export function bodyLimits(config: {
  COUNTERSIGN_JSON_LIMIT_BYTES: number;
  COUNTERSIGN_MAX_UPLOAD_BYTES: number;
}) {
  return {
    jsonBodyBytes: config.COUNTERSIGN_JSON_LIMIT_BYTES,
    uploadBytes: config.COUNTERSIGN_MAX_UPLOAD_BYTES,
  };
}
