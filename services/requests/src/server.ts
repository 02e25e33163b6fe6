/** The requests service as its own process (distributed mode); it asks templates and documents. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  createMailer,
  env,
  mailConfig,
  networkTransport,
  runMain,
  serviceClient,
  serviceMain,
} from "@countersign/kit";
import { z } from "zod";
import { configuredSeal, requestsConfig, requestsSettings } from "./config.js";
import { buildRequests } from "./service.js";

export * from "./config.js";
export type { TimestampAuthority } from "./pdf/pades/timestamp-client.js";
export {
  generateSealP12,
  generateSealP12InBackground,
  type SealCredentials,
} from "./pdf/seal-certificate.js";
export { sealCertificateRequest } from "./pdf/seal-request.js";

import { REQUESTS_CALLERS } from "./callers.js";

export { type VerificationReport, verifyDocument } from "./pdf/verify/verify-document.js";
export { buildRequests, type RequestsDeps, type RequestsModule, type RequestsRole } from "./service.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z
  .object({
    /** Where the API runs (roles all and api); the sealer creates no requests. */
    TEMPLATES_ADDR: env.serviceAddress().optional(),
    DOCUMENTS_ADDR: env.serviceAddress(),
    COUNTERSIGN_SERVICE_TOKEN: env.secret(),
    COUNTERSIGN_PUBLIC_URL: env.url(),
    COUNTERSIGN_LINK_SECRET: env
      .secret()
      .describe(
        "key signing-link tokens are derived from; changing it retires every link (standalone and launcher: generated in the data dir)",
      ),
    COUNTERSIGN_DATA_DIR: z.string().min(1).default("./data"),
    ...mailConfig,
    ...requestsConfig,
    COUNTERSIGN_REQUESTS_ROLE: z
      .enum(["all", "api", "sealer"])
      .default("all")
      .describe(
        "`all`: the API and sealing; `api` serves the API without the seal's key; `sealer` seals completed PDFs, answers no calls and is the only process given the key",
      ),
  })
  .refine((cfg) => cfg.COUNTERSIGN_REQUESTS_ROLE === "api" || cfg.COUNTERSIGN_SEAL_P12 !== undefined, {
    path: ["COUNTERSIGN_SEAL_P12"],
    message:
      "is required where sealing runs (role all or sealer): the path of the PKCS#12 file completed PDFs are sealed with",
  })
  .refine((cfg) => cfg.COUNTERSIGN_REQUESTS_ROLE === "sealer" || cfg.TEMPLATES_ADDR !== undefined, {
    path: ["TEMPLATES_ADDR"],
    message: "is required where the API runs (role all or api)",
  });

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "requests",
      config: configSchema,
      callers: REQUESTS_CALLERS,
      build: (adapters, cfg) =>
        buildRequests({
          ...adapters,
          templates:
            cfg.TEMPLATES_ADDR === undefined
              ? undefined
              : serviceClient(
                  TemplatesService,
                  networkTransport(cfg.TEMPLATES_ADDR, cfg.COUNTERSIGN_SERVICE_TOKEN),
                ),
          documents: serviceClient(
            DocumentsService,
            networkTransport(cfg.DOCUMENTS_ADDR, cfg.COUNTERSIGN_SERVICE_TOKEN),
          ),
          mailer: createMailer({
            smtpUrl: cfg.SMTP_URL,
            outboxDir: join(cfg.COUNTERSIGN_DATA_DIR, "outbox"),
            from: { name: "Countersign", email: cfg.COUNTERSIGN_MAIL_FROM },
          }),
          publicUrl: cfg.COUNTERSIGN_PUBLIC_URL,
          linkSecret: cfg.COUNTERSIGN_LINK_SECRET,
          role: cfg.COUNTERSIGN_REQUESTS_ROLE,
          // The API role never opens the key, even where one is mounted by mistake.
          seal: cfg.COUNTERSIGN_REQUESTS_ROLE === "api" ? undefined : configuredSeal(cfg),
          ...requestsSettings(cfg),
        }),
    }),
  );
}
