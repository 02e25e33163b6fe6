/**
 * Builds the documents service: uploaded PDFs, their metadata in its database and their bytes in
 * the blob store.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type BlobStore,
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  migrate,
  type ServiceModule,
  sweepSpool,
  warnWithoutUploadCollection,
} from "@countersign/kit";
import type { DocumentConverter } from "./conversion/document-converter.js";
import { findLibreOffice } from "./conversion/libreoffice.js";
import {
  CONVERTER_FOLDER_PREFIX,
  conversionSeconds,
  LocalConverter,
  sweepConverterFolders,
} from "./conversion/local-converter.js";
import type { SandboxMode } from "./conversion/office-sandbox.js";
import { Documents } from "./documents.js";
import { TextFinder } from "./find-text.js";
import { DEFAULT_MAX_DOCUMENT_PAGES, PdfInspector } from "./pdf-inspection.js";
import { PdfTextReader } from "./pdf-text.js";

export { DEFAULT_MAX_DOCUMENT_PAGES };

import { documentsRoutes } from "./routes.js";

export interface DocumentsDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  logger: Logger;
  /** The largest file accepted; 25 MiB unless configured. */
  maxUploadBytes?: number;
  /** Where uploads are received (standalone: under the data dir); the system temp dir unless given. */
  spoolDir?: string;
  /** How long pdf-lib may take over one uploaded PDF; 20 s unless given. */
  inspectionTimeoutMs?: number;
  /** The most pages a document may have; DEFAULT_MAX_DOCUMENT_PAGES unless given. */
  maxPages?: number;
  /**
   * Where originals in other formats are made PDFs: the converter deployment (RemoteConverter), or
   * unless given this process, with the LibreOffice `libreOffice` names (findLibreOffice).
   */
  converter?: DocumentConverter;
  libreOffice?: string;
  /** How long one conversion in this process may take. */
  conversionTimeoutMs?: number;
  /** How soffice is confined in this process (`bwrap` unless given). */
  conversionSandbox?: SandboxMode;
  /** The address space one soffice may map, in MiB. */
  conversionMemoryMb?: number;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const MIGRATIONS = { name: "documents", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildDocuments(deps: DocumentsDeps): Promise<ServiceModule & { documents: Documents }> {
  const { db, bus, blobs, logger } = deps;
  warnWithoutUploadCollection(logger);
  await migrate(db, [MIGRATIONS]);
  const spoolDir = deps.spoolDir ?? join(tmpdir(), "countersign-spool");
  const maxPages = deps.maxPages ?? DEFAULT_MAX_DOCUMENT_PAGES;
  const inspector = new PdfInspector({ timeoutMs: deps.inspectionTimeoutMs, maxPages });
  const reader = new PdfTextReader({ maxPages });
  const local = deps.converter ? undefined : localConverter(deps, spoolDir, logger);
  const converter: DocumentConverter = deps.converter ?? (local as LocalConverter);
  const maxUploadBytes = deps.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const documents = new Documents({
    db,
    blobs,
    logger,
    maxUploadBytes,
    spoolDir,
    inspector,
    converter,
    maxPages,
  });
  const texts = new TextFinder({ documents, reader, maxUploadBytes, spoolDir });
  return {
    serviceNames: [DocumentsService.typeName],
    metrics: [conversionSeconds],
    routes: documentsRoutes(documents, texts),
    documents,
    ready: dependenciesAnswer(db, bus, blobs),
    start: async () => {
      const unconfinable = await local?.unconfinable();
      if (unconfinable)
        logger.error(
          { problem: unconfinable },
          "LibreOffice cannot be confined here, so Word, ODT and RTF uploads are refused: allow unprivileged user namespaces (docs/operations.md), or set COUNTERSIGN_CONVERSION_SANDBOX=off to convert unconfined",
        );
      const removed = (await sweepSpool(spoolDir)) + (await sweepConverterFolders(spoolDir));
      if (removed > 0) logger.info({ removed, spoolDir }, "removed uploads a stopped process left behind");
    },
    stop: async () => {
      inspector.close();
      reader.close();
      await converter.close();
    },
  };
}

function localConverter(deps: DocumentsDeps, spoolDir: string, logger: Logger): LocalConverter {
  const libreOffice = findLibreOffice(deps.libreOffice);
  if (!libreOffice)
    logger.info(
      "no LibreOffice: Word, ODT and RTF uploads are refused until it is installed or CONVERTER_ADDR names a converter",
    );
  else {
    logger.info({ libreOffice }, "converting office documents with LibreOffice");
    if (deps.conversionSandbox === "off")
      logger.warn(
        "COUNTERSIGN_CONVERSION_SANDBOX=off: LibreOffice runs unconfined, able to read every file this process can",
      );
  }
  return new LocalConverter({
    libreOffice,
    workDir: join(spoolDir, `${CONVERTER_FOLDER_PREFIX}${randomUUID()}`),
    timeoutMs: deps.conversionTimeoutMs,
    sandbox: deps.conversionSandbox,
    memoryMb: deps.conversionMemoryMb,
  });
}
