/**
 * The converter as its own process (the converter deployment): ConverterService alone, with
 * LibreOffice. It keeps nothing and reaches nothing — no database, event bus or blob store — so its
 * pod may be denied every connection but the documents service's calls.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ConverterService } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import { runMain, statelessServiceMain, sweepSpool } from "@countersign/kit";
import { z } from "zod";
import { conversionConfig } from "./conversion/conversion-config.js";
import { converterRoutes } from "./conversion/converter-routes.js";
import { findLibreOffice } from "./conversion/libreoffice.js";
import {
  CONVERTER_FOLDER_PREFIX,
  conversionSeconds,
  LocalConverter,
  sweepConverterFolders,
} from "./conversion/local-converter.js";
import { CONVERTER_CALLERS } from "./converter-callers.js";
import { uploadConfig } from "./upload-config.js";

export const converterConfigSchema = z.object({
  ...conversionConfig,
  ...uploadConfig,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    statelessServiceMain({
      name: "converter",
      config: converterConfigSchema,
      callers: CONVERTER_CALLERS,
      build: async (logger, cfg) => {
        const libreOffice = findLibreOffice(cfg.COUNTERSIGN_LIBREOFFICE);
        if (!libreOffice)
          throw new Error(
            "the converter needs LibreOffice: install libreoffice-writer-nogui, or set COUNTERSIGN_LIBREOFFICE to its soffice",
          );
        const spoolDir = cfg.COUNTERSIGN_SPOOL_DIR ?? join(tmpdir(), "countersign-spool");
        const converter = new LocalConverter({
          libreOffice,
          workDir: join(spoolDir, `${CONVERTER_FOLDER_PREFIX}${randomUUID()}`),
          timeoutMs: cfg.COUNTERSIGN_CONVERSION_TIMEOUT_MS,
          sandbox: cfg.COUNTERSIGN_CONVERSION_SANDBOX,
          memoryMb: cfg.COUNTERSIGN_CONVERSION_MEMORY_MB,
        });
        // A converter that cannot confine LibreOffice would convert nothing: it does not start.
        const unconfinable = await converter.unconfinable();
        if (unconfinable)
          throw new Error(
            `the converter cannot confine LibreOffice (${unconfinable}): allow unprivileged user namespaces (docs/operations.md), or set COUNTERSIGN_CONVERSION_SANDBOX=off to convert unconfined`,
          );
        if (cfg.COUNTERSIGN_CONVERSION_SANDBOX === "off")
          logger.warn(
            "COUNTERSIGN_CONVERSION_SANDBOX=off: LibreOffice runs unconfined, able to read every file this process can",
          );
        logger.info({ libreOffice }, "converting office documents with LibreOffice");
        return {
          serviceNames: [ConverterService.typeName],
          metrics: [conversionSeconds],
          routes: converterRoutes(converter, { spoolDir, maxUploadBytes: cfg.COUNTERSIGN_MAX_UPLOAD_BYTES }),
          ready: async () => {},
          start: async () => {
            await sweepSpool(spoolDir);
            await sweepConverterFolders(spoolDir);
          },
          stop: async () => {},
          close: async () => converter.close(),
        };
      },
    }),
  );
}
