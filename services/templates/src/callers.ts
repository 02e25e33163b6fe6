/** Who may call templates, and what: the gateway serves them; requests reads the one a request is made from. */
import { callersOf } from "@countersign/domain";

export const TEMPLATES_CALLERS = callersOf({
  gateway: "*",
  requests: ["GetTemplate"],
  operator: "*",
});
