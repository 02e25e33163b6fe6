/**
 * Builds the requests service: signature requests: recipients, routing, signing links, completion and the audit trail.
 * Its contract is drafted in proto/countersign/requests/v1; the RPCs arrive with their issue, and until
 * then the service answers health checks only for the process as a whole.
 */
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  type ServiceModule,
} from "@countersign/kit";

export interface RequestsDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
}

export async function buildRequests({ db, bus }: RequestsDeps): Promise<ServiceModule> {
  return {
    serviceNames: [],
    routes: () => {},
    ready: dependenciesAnswer(db, bus),
    start: async () => {},
    stop: async () => {},
  };
}
