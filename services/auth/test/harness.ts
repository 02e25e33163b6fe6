/**
 * The auth service for tests: built with an in-memory PGlite and the in-process bus, reached through
 * Connect's in-memory transport with the real server interceptors — the real protocol, no network.
 */
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  inMemoryTransport,
  MemoryEventBus,
  serverInterceptors,
  serviceClient,
} from "@countersign/kit";
import { type AuthModule, buildAuth } from "../src/service.js";

export const PEPPER = "test-pepper-that-is-long-enough-for-hmac";

export async function startAuth() {
  const pg = await EmbeddedPostgres.open();
  const db = pg.database("auth");
  const bus = new MemoryEventBus();
  const logger = createLogger({ name: "auth-test", level: "silent" });
  const module: AuthModule = await buildAuth({
    db,
    bus,
    logger,
    keyPepper: PEPPER,
    apiCallFlushIntervalMs: 10,
  });
  await module.start();
  const transport = inMemoryTransport(
    module.routes,
    serverInterceptors({ logger, metrics: createRpcMetrics() }),
  );
  return {
    client: serviceClient(AuthService, transport),
    module,
    db,
    bus,
    async close() {
      await module.stop();
      await pg.close();
    },
  };
}

export type StartedAuth = Awaited<ReturnType<typeof startAuth>>;
