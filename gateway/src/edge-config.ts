/**
 * The edge's variables that every entry point running a gateway reads alike (its own process and
 * standalone mode): how fast a key may call, and whose `X-Forwarded-For` is believed.
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
