/** The templates service as its own process (distributed mode); it asks documents for page sizes. */
import { pathToFileURL } from "node:url";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { env, networkTransport, runMain, serviceClient, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { TEMPLATES_CALLERS } from "./callers.js";
import { buildTemplates } from "./service.js";

export { buildTemplates, type TemplatesDeps } from "./service.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  DOCUMENTS_ADDR: env.serviceAddress(),
  COUNTERSIGN_SERVICE_TOKEN: env.secret(),
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "templates",
      config: configSchema,
      callers: TEMPLATES_CALLERS,
      build: (adapters, cfg) =>
        buildTemplates({
          ...adapters,
          documents: serviceClient(
            DocumentsService,
            networkTransport(cfg.DOCUMENTS_ADDR, cfg.COUNTERSIGN_SERVICE_TOKEN),
          ),
        }),
    }),
  );
}
