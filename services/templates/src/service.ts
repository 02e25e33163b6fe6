/**
 * Builds the templates service: reusable templates — signer roles and their fields on a base
 * document that the documents service keeps.
 */
import { fileURLToPath } from "node:url";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  migrate,
  type ServiceModule,
} from "@countersign/kit";
import { templatesRoutes } from "./routes.js";
import { Templates } from "./templates.js";

export interface TemplatesDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  documents: Client<typeof DocumentsService>;
}

const MIGRATIONS = { name: "templates", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildTemplates({ db, bus, logger, documents }: TemplatesDeps): Promise<ServiceModule> {
  await migrate(db, [MIGRATIONS]);
  const templates = new Templates({ db, documents, logger });
  return {
    serviceNames: [TemplatesService.typeName],
    routes: templatesRoutes(templates),
    ready: dependenciesAnswer(db, bus),
    start: async () => {},
    stop: async () => {},
  };
}
