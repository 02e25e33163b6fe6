/** The webhooks service as its own process (distributed mode). */
import { pathToFileURL } from "node:url";
import { runMain, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { buildWebhooks } from "./service.js";

export { buildWebhooks, type WebhooksDeps } from "./service.js";

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({ name: "webhooks", config: z.object({}), build: (adapters) => buildWebhooks(adapters) }),
  );
}
