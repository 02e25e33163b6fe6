/**
 * A webhooks service in memory — PGlite and the in-process bus — with an HTTPS receiver on loopback
 * that trusts nothing but its own CA, which the service is given as its extra CA. Events are
 * published on the bus as the requests service's outbox publishes them.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { type SignatureRequestEventType, signatureRequestSubject } from "@countersign/domain";
import { SignatureRequestEventSchema } from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import {
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  inMemoryTransport,
  MemoryEventBus,
  serverInterceptors,
  serviceClient,
  uuidv7,
} from "@countersign/kit";
import { createTestCa } from "../../../test/support/webhook-receiver.js";
import { parseNetworks } from "../src/delivery/guarded-client.js";
import { buildWebhooks, type WebhooksDeps, type WebhooksModule } from "../src/service.js";

export const PUBLIC_URL = "https://sign.example.com";
export const SECRET_KEY = "a-webhook-secret-key-of-enough-length";

/** One embedded Postgres per test file, a schema of its own per harness: opening one takes seconds. */
let embedded: Promise<EmbeddedPostgres> | undefined;
let schemas = 0;

export async function closeDatabase(): Promise<void> {
  await (await embedded)?.close();
  embedded = undefined;
}

export async function startHarness(options: Partial<WebhooksDeps> = {}) {
  const logger = createLogger({
    name: "webhooks-test",
    level: (process.env.TEST_LOG_LEVEL as "silent" | undefined) ?? "silent",
  });
  embedded ??= EmbeddedPostgres.open();
  const db = (await embedded).database(`webhooks_${++schemas}`);
  const bus = new MemoryEventBus({ retryDelayMs: () => 10 });
  const metrics = createRpcMetrics();
  const modules: WebhooksModule[] = [];
  /** A webhooks module on this harness's database: the one under test, or another replica of it. */
  const buildModule = async (overrides: Partial<WebhooksDeps> = {}): Promise<WebhooksModule> => {
    const module = await buildWebhooks({
      db,
      bus,
      logger,
      publicUrl: PUBLIC_URL,
      secretKey: SECRET_KEY,
      allowNetworks: parseNetworks("127.0.0.0/8"),
      extraCa: createTestCa().caPem,
      retryScheduleSeconds: [0, 0.05, 0.05, 0.05],
      pollIntervalMs: 50,
      timeoutMs: 2000,
      ...options,
      ...overrides,
    });
    modules.push(module);
    await module.start();
    return module;
  };
  const module = await buildModule();
  const webhooks = serviceClient(
    WebhooksService,
    inMemoryTransport(module.routes, serverInterceptors({ logger, metrics })),
  );

  /** Publishes an event of the type for a request of the workspace, as the outbox would; returns its id. */
  async function publish(
    workspaceId: string,
    type: SignatureRequestEventType,
    eventId: string = uuidv7(),
  ): Promise<string> {
    const recipient = {
      id: uuidv7(),
      name: "Ada Lovelace",
      email: "ada@example.com",
      role: "Signer",
      kind: "signer",
      routingOrder: 1,
      status: "sent",
    };
    const event = create(SignatureRequestEventSchema, {
      eventId,
      type,
      occurTime: timestampNow(),
      signatureRequest: {
        id: uuidv7(),
        workspaceId,
        title: "Lease",
        status: type === "sent" ? "sent" : type,
        documentIds: [uuidv7()],
        recipients: [recipient],
        createTime: timestampNow(),
      },
      recipient,
    });
    await bus.publish(signatureRequestSubject(type), toBinary(SignatureRequestEventSchema, event), {
      msgId: uuidv7(),
    });
    return eventId;
  }

  return {
    db,
    bus,
    module,
    webhooks,
    buildModule,
    publish,
    /** Waits until no delivery is running or due on any module. */
    idle: () => Promise.all(modules.map((m) => m.deliveriesIdle())),
    async close() {
      for (const m of modules) await m.stop();
      await bus.close();
    },
  };
}

export { rejection, until } from "../../../test/support/service-calls.js";
