/**
 * Builds the documents service: uploaded PDFs: metadata in its database, bytes in the blob store.
 * Its contract is drafted in proto/countersign/documents/v1; the RPCs arrive with their issue, and until
 * then the service answers health checks only for the process as a whole.
 */
import {
  type BlobStore,
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  type ServiceModule,
} from "@countersign/kit";

export interface DocumentsDeps {
  db: Database;
  bus: EventBus;
  blobs: BlobStore;
  logger: Logger;
}

export async function buildDocuments({ db, bus, blobs }: DocumentsDeps): Promise<ServiceModule> {
  return {
    serviceNames: [],
    routes: () => {},
    ready: dependenciesAnswer(db, bus, blobs),
    start: async () => {},
    stop: async () => {},
  };
}
