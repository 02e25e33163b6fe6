/** GET /v1/ping: proves a key works. */
import { Ping } from "../contract/account.js";
import { ok, type PublicApi } from "../public-api.js";

export function pingRoutes(api: PublicApi): void {
  api.single(
    "get",
    "/v1/ping",
    {
      summary: "Check an API key",
      tag: "Health",
      scope: null,
      answers: { 200: { description: "The key is valid.", schema: Ping } },
      problems: [401, 403, 429],
    },
    () => {
      return ok({ status: "ok" });
    },
  );
}
