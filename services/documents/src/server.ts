/** The documents service as its own process (distributed mode): Postgres, NATS and an S3 endpoint. */
import { pathToFileURL } from "node:url";
import { ConverterService } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import { env, networkTransport, runMain, serviceClient, serviceMain } from "@countersign/kit";
import { S3BlobStore } from "@countersign/kit/s3-blob-store.js";
import { z } from "zod";
import { DOCUMENTS_CALLERS } from "./callers.js";
import { conversionConfig, conversionSettings } from "./conversion/conversion-config.js";
import { RemoteConverter } from "./conversion/remote-converter.js";
import { buildDocuments, DEFAULT_MAX_DOCUMENT_PAGES } from "./service.js";
import { uploadConfig } from "./upload-config.js";

export {
  type ConversionSettings,
  conversionConfig,
  conversionSettings,
} from "./conversion/conversion-config.js";
export { findLibreOffice } from "./conversion/libreoffice.js";
export { converterConfigSchema } from "./converter-server.js";
export { buildDocuments, DEFAULT_MAX_DOCUMENT_PAGES, type DocumentsDeps } from "./service.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  S3_ENDPOINT: env
    .url()
    .describe(
      "MinIO or any S3 API endpoint (launcher: without one, s3rver on loopback); the bucket is created if missing",
    ),
  S3_ACCESS_KEY: z.string().min(1).describe("the S3 endpoint's access key"),
  S3_SECRET_KEY: z.string().min(1).describe("the S3 endpoint's secret key"),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid S3 bucket name")
    .default("countersign")
    .describe("the bucket blobs are kept in"),
  S3_REGION: z.string().default("us-east-1").describe("the S3 region signed requests name"),
  ...uploadConfig,
  COUNTERSIGN_MAX_DOCUMENT_PAGES: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_MAX_DOCUMENT_PAGES)
    .describe("the most pages an uploaded PDF may have (422 beyond)"),
  CONVERTER_ADDR: env
    .serviceAddress()
    .optional()
    .describe(
      "the converter deployment, which converts Word, ODT, RTF and images; without it, this process converts with a LibreOffice of its own, if it has one (launcher: started where LibreOffice is installed)",
    ),
  /** This service's token for its calls to the converter. */
  COUNTERSIGN_SERVICE_TOKEN: env.secret().optional(),
  ...conversionConfig,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "documents",
      config: configSchema,
      callers: DOCUMENTS_CALLERS,
      build: async (adapters, cfg) => {
        const blobs = await S3BlobStore.open({
          endpoint: cfg.S3_ENDPOINT,
          accessKey: cfg.S3_ACCESS_KEY,
          secretKey: cfg.S3_SECRET_KEY,
          bucket: cfg.S3_BUCKET,
          region: cfg.S3_REGION,
        });
        return buildDocuments({
          ...adapters,
          blobs,
          maxUploadBytes: cfg.COUNTERSIGN_MAX_UPLOAD_BYTES,
          spoolDir: cfg.COUNTERSIGN_SPOOL_DIR,
          maxPages: cfg.COUNTERSIGN_MAX_DOCUMENT_PAGES,
          converter: cfg.CONVERTER_ADDR
            ? new RemoteConverter(
                serviceClient(
                  ConverterService,
                  networkTransport(cfg.CONVERTER_ADDR, cfg.COUNTERSIGN_SERVICE_TOKEN),
                ),
              )
            : undefined,
          ...conversionSettings(cfg),
        });
      },
    }),
  );
}
