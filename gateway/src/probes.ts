/** The probes Kubernetes asks: `/healthz` (the process answers) and `/readyz` (what it needs answers too). */
import type { Logger } from "@countersign/kit";
import { z } from "zod";
import type { Contract } from "./contract/operation.js";
import { DeclaredRouter } from "./declared-router.js";
import { ApiProblem } from "./problems.js";

const Health = z.strictObject({ status: z.literal("ok") }).meta({ id: "Health" });

export function probeRoutes(contract: Contract, ready: () => Promise<void>, logger: Logger) {
  const routes = new DeclaredRouter(contract, "", "none");
  routes.on(
    "get",
    "/healthz",
    {
      summary: "Liveness: the gateway answers",
      tag: "Health",
      answers: { 200: { description: "Alive.", schema: Health } },
      problems: [],
    },
    ({ res }) => {
      res.json({ status: "ok" });
    },
  );
  routes.on(
    "get",
    "/readyz",
    {
      summary: "Readiness: the services and the event bus answer",
      tag: "Health",
      answers: { 200: { description: "Ready.", schema: Health } },
      problems: [503],
    },
    async ({ res }) => {
      await ready().catch((err: unknown) => {
        logger.warn({ err }, "not ready");
        throw new ApiProblem("unavailable", "a service or the event bus is not answering");
      });
      res.json({ status: "ok" });
    },
  );
  return routes.router;
}
