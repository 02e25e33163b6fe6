/**
 * Builds the templates service: reusable templates: signer roles and their fields on a base document.
 * Its contract is drafted in proto/countersign/templates/v1; the RPCs arrive with their issue, and until
 * then the service answers health checks only for the process as a whole.
 */
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  type ServiceModule,
} from "@countersign/kit";

export interface TemplatesDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
}

export async function buildTemplates({ db, bus }: TemplatesDeps): Promise<ServiceModule> {
  return {
    serviceNames: [],
    routes: () => {},
    ready: dependenciesAnswer(db, bus),
    start: async () => {},
    stop: async () => {},
  };
}
