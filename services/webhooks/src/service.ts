/**
 * Builds the webhooks service: webhook endpoints and the signed, retried deliveries of events to them.
 * Its contract is drafted in proto/countersign/webhooks/v1; the RPCs arrive with their issue, and until
 * then the service answers health checks only for the process as a whole.
 */
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  type ServiceModule,
} from "@countersign/kit";

export interface WebhooksDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
}

export async function buildWebhooks({ db, bus }: WebhooksDeps): Promise<ServiceModule> {
  return {
    serviceNames: [],
    routes: () => {},
    ready: dependenciesAnswer(db, bus),
    start: async () => {},
    stop: async () => {},
  };
}
