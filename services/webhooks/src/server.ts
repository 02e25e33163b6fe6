/** The webhooks service as its own process (distributed mode). */
import { pathToFileURL } from "node:url";
import { env, runMain, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { WEBHOOKS_CALLERS } from "./callers.js";
import { webhookConfig, webhookSettings } from "./config.js";
import { buildWebhooks } from "./service.js";

export { webhookConfig, webhookSettings } from "./config.js";
export { parseNetworks } from "./delivery/guarded-client.js";
export { buildWebhooks, type WebhooksDeps, type WebhooksModule } from "./service.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  COUNTERSIGN_PUBLIC_URL: env.url(),
  ...webhookConfig,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "webhooks",
      config: configSchema,
      callers: WEBHOOKS_CALLERS,
      build: (adapters, cfg) =>
        buildWebhooks({
          ...adapters,
          publicUrl: cfg.COUNTERSIGN_PUBLIC_URL,
          secretKey: cfg.COUNTERSIGN_WEBHOOK_SECRET_KEY,
          ...webhookSettings(cfg),
        }),
    }),
  );
}
