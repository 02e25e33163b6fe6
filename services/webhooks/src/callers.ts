/** Who may call webhooks: the gateway serves endpoints and their messages; the operator replays them. */
import type { CallerPolicy } from "@countersign/kit";

export const WEBHOOKS_CALLERS: CallerPolicy = {
  gateway: "*",
  operator: "*",
};
