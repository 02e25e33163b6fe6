/** Who may call templates, and what: the gateway serves them; requests reads the one a request is made from. */
import type { CallerPolicy } from "@countersign/kit";

export const TEMPLATES_CALLERS: CallerPolicy = {
  gateway: "*",
  requests: ["GetTemplate"],
  operator: "*",
};
