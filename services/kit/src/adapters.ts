/**
 * Opening the distributed-mode adapters from configuration, the same way in every service process.
 */
import { createPostgresDatabase, type Database, ensurePostgresDatabase } from "./database.js";
import { NatsEventBus } from "./event-bus-nats.js";
import type { Logger } from "./logger.js";

export async function openPostgres(url: string): Promise<Database> {
  await ensurePostgresDatabase(url);
  return createPostgresDatabase(url);
}

export function openNats(
  url: string,
  namespace: string,
  name: string,
  logger?: Logger,
  ackWaitMs?: number,
): Promise<NatsEventBus> {
  return NatsEventBus.connect({ url, namespace, name, logger, ackWaitMs });
}
