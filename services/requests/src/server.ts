/** The requests service as its own process (distributed mode); it asks templates and documents. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { env, networkTransport, runMain, serviceClient, serviceMain } from "@countersign/kit";
import { z } from "zod";
import type { SealCredentials } from "./completion/seal-certificate.js";
import {
  configuredSeal,
  configuredTimestampAuthority,
  mailConfig,
  requestLimits,
  requestLimitsConfig,
  requestTimingConfig,
  requestTimings,
  sealConfig,
  timestampConfig,
} from "./config.js";
import { createMailer } from "./mail/mailer.js";
import { buildRequests } from "./service.js";

export type { TimestampAuthority } from "./completion/pades/timestamp-client.js";
export {
  generateSealP12,
  generateSealP12InBackground,
  type SealCredentials,
} from "./completion/seal-certificate.js";
export {
  configuredSeal,
  configuredTimestampAuthority,
  mailConfig,
  requestLimits,
  requestLimitsConfig,
  requestTimingConfig,
  requestTimings,
  sealConfig,
  timestampConfig,
} from "./config.js";
export { createMailer, type Mailer } from "./mail/mailer.js";
export { buildRequests, type RequestsDeps, type RequestsModule } from "./service.js";
export { type VerificationReport, verifyDocument } from "./verification/verify-document.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  TEMPLATES_ADDR: env.serviceAddress(),
  DOCUMENTS_ADDR: env.serviceAddress(),
  COUNTERSIGN_INTERNAL_TOKEN: env.secret(),
  COUNTERSIGN_PUBLIC_URL: env.url(),
  COUNTERSIGN_LINK_SECRET: env.secret(),
  COUNTERSIGN_DATA_DIR: z.string().min(1).default("./data"),
  ...mailConfig,
  ...requestTimingConfig,
  ...requestLimitsConfig,
  ...sealConfig,
  ...timestampConfig,
  COUNTERSIGN_SEAL_P12: z.string().min(1, "is required: the PKCS#12 file completed PDFs are sealed with"),
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "requests",
      config: configSchema,
      build: (adapters, cfg) =>
        buildRequests({
          ...adapters,
          templates: serviceClient(
            TemplatesService,
            networkTransport(cfg.TEMPLATES_ADDR, cfg.COUNTERSIGN_INTERNAL_TOKEN),
          ),
          documents: serviceClient(
            DocumentsService,
            networkTransport(cfg.DOCUMENTS_ADDR, cfg.COUNTERSIGN_INTERNAL_TOKEN),
          ),
          mailer: createMailer({
            smtpUrl: cfg.SMTP_URL,
            outboxDir: join(cfg.COUNTERSIGN_DATA_DIR, "outbox"),
            from: { name: "Countersign", email: cfg.COUNTERSIGN_MAIL_FROM },
          }),
          publicUrl: cfg.COUNTERSIGN_PUBLIC_URL,
          linkSecret: cfg.COUNTERSIGN_LINK_SECRET,
          seal: configuredSeal(cfg) as SealCredentials,
          timestampAuthority: configuredTimestampAuthority(cfg),
          ...requestTimings(cfg),
          ...requestLimits(cfg),
        }),
    }),
  );
}
