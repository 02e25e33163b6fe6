/** The templates service as its own process (distributed mode). */
import { pathToFileURL } from "node:url";
import { runMain, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { buildTemplates } from "./service.js";

export { buildTemplates, type TemplatesDeps } from "./service.js";

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({ name: "templates", config: z.object({}), build: (adapters) => buildTemplates(adapters) }),
  );
}
