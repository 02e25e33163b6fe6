/**
 * The auth service for tests: built with an in-memory PGlite and the in-process bus, reached through
 * Connect's in-memory transport with the real server interceptors — the real protocol, no network.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  createLogger,
  createMailer,
  createRpcMetrics,
  EmbeddedPostgres,
  inMemoryTransport,
  MemoryEventBus,
  serverInterceptors,
  serviceClient,
} from "@countersign/kit";
import { type AuthDeps, type AuthModule, buildAuth } from "../src/service.js";

export const PEPPER = "test-pepper-that-is-long-enough-for-hmac";
export const PUBLIC_URL = "https://sign.example.test";

export async function startAuth(options: Pick<AuthDeps, "identityProviderNetworks"> = {}) {
  const pg = await EmbeddedPostgres.open();
  const outboxDir = await mkdtemp(join(tmpdir(), "countersign-auth-outbox-"));
  const db = pg.database("auth");
  const bus = new MemoryEventBus();
  const logger = createLogger({ name: "auth-test", level: "silent" });
  const module: AuthModule = await buildAuth({
    db,
    bus,
    logger,
    keyPepper: PEPPER,
    publicUrl: PUBLIC_URL,
    mailer: createMailer({ outboxDir, from: { name: "Countersign", email: "no-reply@example.com" } }),
    apiCallFlushIntervalMs: 10,
    ...options,
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
    /** Where the e-mails auth sent are written, one .eml file each. */
    outboxDir,
    async close() {
      await module.stop();
      await pg.close();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

export type StartedAuth = Awaited<ReturnType<typeof startAuth>>;
