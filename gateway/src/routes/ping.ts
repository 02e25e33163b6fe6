/** GET /v1/ping: proves a key works. */
import type { PublicApi } from "../public-api.js";

export function pingRoutes(api: PublicApi): void {
  api.single("get", "/v1/ping", (_req, res) => {
    res.json({ status: "ok" });
  });
}
