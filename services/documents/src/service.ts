/**
 * Builds the documents service: uploaded PDFs, their metadata in its database and their bytes in
 * the blob store.
 */
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
import { Documents } from "./documents.js";
import { DEFAULT_MAX_DOCUMENT_PAGES, PdfInspector } from "./pdf-inspection.js";

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
}

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const MIGRATIONS = { name: "documents", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildDocuments(deps: DocumentsDeps): Promise<ServiceModule & { documents: Documents }> {
  const { db, bus, blobs, logger } = deps;
  warnWithoutUploadCollection(logger);
  await migrate(db, [MIGRATIONS]);
  const spoolDir = deps.spoolDir ?? join(tmpdir(), "countersign-spool");
  const inspector = new PdfInspector({ timeoutMs: deps.inspectionTimeoutMs, maxPages: deps.maxPages });
  const documents = new Documents({
    db,
    blobs,
    logger,
    maxUploadBytes: deps.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    spoolDir,
    inspector,
  });
  return {
    serviceNames: [DocumentsService.typeName],
    routes: documentsRoutes(documents),
    documents,
    ready: dependenciesAnswer(db, bus, blobs),
    start: async () => {
      const removed = await sweepSpool(spoolDir);
      if (removed > 0) logger.info({ removed, spoolDir }, "removed uploads a stopped process left behind");
    },
    stop: async () => inspector.close(),
  };
}
