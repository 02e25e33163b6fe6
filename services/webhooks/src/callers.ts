/** Who may call webhooks: the gateway serves endpoints and their messages; the operator replays them. */
import { callersOf } from "@countersign/domain";

export const WEBHOOKS_CALLERS = callersOf({
  gateway: "*",
  operator: "*",
});
