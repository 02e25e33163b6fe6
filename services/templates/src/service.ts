/**
 * Builds the templates service: reusable templates — signer roles and their fields on a base
 * document that the documents service keeps.
 */
import { fileURLToPath } from "node:url";
import type { Client } from "@connectrpc/connect";
import { ClaimSweep } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  migrate,
  OutboxRelay,
  outboxTrack,
  type ServiceModule,
} from "@countersign/kit";
import { templatesRoutes } from "./routes.js";
import { store } from "./store.js";
import { TEMPLATE_HOLDER_PREFIX, Templates } from "./templates.js";

export interface TemplatesDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  documents: Client<typeof DocumentsService>;
  /** The only process on this database (standalone): outbox claims of a killed process are released at start. */
  onlyReplica?: boolean;
}

export interface TemplatesModule extends ServiceModule {
  /** Releases document claims no template backs, as the periodic sweep does. */
  sweepClaims(olderThanMs?: number): Promise<number>;
}

const MIGRATIONS = { name: "templates", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildTemplates(deps: TemplatesDeps): Promise<TemplatesModule> {
  const { db, bus, logger, documents } = deps;
  await migrate(db, [outboxTrack, MIGRATIONS]);
  const relay = new OutboxRelay(db, bus, logger, { name: "templates outbox", onlyReplica: deps.onlyReplica });
  const templates = new Templates({ db, documents, logger, eventsWritten: () => relay.kick() });
  const claims = new ClaimSweep({
    documents,
    holderPrefix: TEMPLATE_HOLDER_PREFIX,
    uses: (holderIds) => store.documentsUsed(db, holderIds),
    logger,
  });
  return {
    serviceNames: [TemplatesService.typeName],
    routes: templatesRoutes(templates),
    ready: dependenciesAnswer(db, bus),
    async start() {
      relay.start();
      claims.start();
    },
    async stop() {
      await claims.stop();
      await relay.stop();
    },
    sweepClaims: (olderThanMs) => claims.sweep(olderThanMs),
  };
}
