/**
 * The composition root of standalone mode: every service and the gateway in one process, wired
 * with the in-memory Connect transport, one embedded PGlite (a schema per service), the in-process
 * bus and filesystem blobs — plus a loopback-only admin port for the ops CLI.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { buildAuth, firstStartBanner } from "@countersign/auth";
import { buildDocuments, type ConversionSettings } from "@countersign/documents";
import { DEFAULT_CONVERSION_TIMEOUT_MS } from "@countersign/domain";
import { buildGateway, type GatewayLimits, listen } from "@countersign/gateway";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import {
  createMailer,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  HealthState,
  inMemoryTransport,
  type Logger,
  MemoryEventBus,
  type Network,
  operatorOnly,
  SERVER_GRACE_MS,
  type ServiceModule,
  serverInterceptors,
  serviceClient,
  shutDownInStages,
  startServiceServer,
} from "@countersign/kit";
import { buildRequests, type SealCredentials, type TimestampAuthority } from "@countersign/requests";
import { buildTemplates } from "@countersign/templates";
import { buildWebhooks, type WebhooksDeps } from "@countersign/webhooks";
import { type DataDirLock, holdDataDir } from "./data-dir-lock.js";
import {
  loadOrCreateSeal,
  loadOrCreateSecrets,
  removeAdminEndpoint,
  writeAdminEndpoint,
} from "./state-files.js";

export interface StandaloneOptions {
  dataDir: string;
  /** The data directory, already held (npm start takes it first thing); taken here otherwise. */
  lock?: DataDirLock;
  port: number;
  host?: string;
  publicUrl?: string;
  /** 0 picks a free port; the CLI finds it in the data dir either way. */
  adminPort?: number;
  adminEmail: string;
  adminPassword?: string;
  /** A logger per part ("auth", "gateway" …), all writing to one destination. */
  loggerFor: (service: string) => Logger;
  /** Where the first-start banner goes (stdout by default). */
  announce?: (text: string) => void;
  /** The gateway's limits where they differ from its defaults (an upload's deadline follows `documents`). */
  limits?: Partial<Omit<GatewayLimits, "conversionTimeoutMs">>;
  /** Proxies whose X-Forwarded-For is believed. */
  trustedProxies?: string[];
  mail?: { smtpUrl?: string; from: string };
  /** The configured seal certificate; without one, seal.p12 in the data dir (made on first start). */
  seal?: SealCredentials;
  /** Timings of the requests service that operators may tune. */
  requests?: {
    reminderIntervalMs?: number;
    embeddedUrlTtlMs?: number;
    expirySweepIntervalMs?: number;
    maxRequestPages?: number;
    completionAttempts?: number;
    timestampAuthority?: TimestampAuthority | undefined;
  };
  /** Limits of the documents service that operators may tune. */
  documents?: { maxPages?: number; maxUploadBytes?: number } & Partial<ConversionSettings>;
  /** Networks identity providers may be on although not public. */
  identityProviderNetworks?: readonly Network[];
  /** Webhook delivery settings; without a secret key, the one made on first start in the data dir. */
  webhooks?: Partial<Omit<WebhooksDeps, "db" | "bus" | "logger" | "publicUrl">>;
}

export interface Standalone {
  gatewayUrl: string;
  adminUrl: string;
  adminToken: string;
  close(): Promise<void>;
}

export async function startStandalone(options: StandaloneOptions): Promise<Standalone> {
  const { dataDir } = options;
  const log = options.loggerFor("standalone");
  const lock = options.lock ?? (await holdDataDir(dataDir, log));
  const unlock = () => lock.release();
  // The port is bound before anything is made: a port in use stops the start with nothing done.
  const server = await listen(options.port, options.host).catch(async (err: unknown) => {
    await unlock();
    throw err;
  });
  const announce = options.announce ?? ((text: string) => process.stdout.write(text));
  // The first start's banner (and a generated password) is shown once the service answers — or,
  // should the start fail after the admin was made, before the process stops, so it is never lost.
  let banner = "";
  try {
    const secrets = await loadOrCreateSecrets(dataDir);
    // A first start makes the seal's key while the database opens and migrates.
    const seal = loadOrCreateSeal(dataDir, secrets, options.seal);
    seal.catch(() => {});
    const pg = await EmbeddedPostgres.open(join(dataDir, "pg"));
    const bus = new MemoryEventBus();
    const blobFiles = join(dataDir, "blobs");
    const spoolDir = join(dataDir, "spool");
    const blobs = new FileBlobStore(blobFiles);
    const metrics = createRpcMetrics();
    const loggerOf = options.loggerFor;
    // Links in e-mails name the gateway, so its port must be known before anything is built.
    const publicUrl = (options.publicUrl ?? `http://localhost:${server.port}`).replace(/\/$/, "");

    // Auth (lock-out notices, team invitations, password resets) and requests (signing invitations,
    // reminders) each send with a mailer of its own.
    const mail = {
      smtpUrl: options.mail?.smtpUrl,
      outboxDir: join(dataDir, "outbox"),
      from: { name: "Countersign", email: options.mail?.from ?? "no-reply@countersign.local" },
    };
    const auth = await buildAuth({
      db: pg.database("auth"),
      bus,
      logger: loggerOf("auth"),
      keyPepper: secrets.keyPepper,
      publicUrl,
      mailer: createMailer(mail),
      onlyReplica: true,
      identityProviderNetworks: options.identityProviderNetworks,
      bootstrap: {
        workspaceName: "Default workspace",
        adminEmail: options.adminEmail,
        adminPassword: options.adminPassword,
        report: (created) => {
          banner = firstStartBanner(created);
        },
      },
    });
    const transportOf = (name: string, module: ServiceModule) =>
      inMemoryTransport(module.routes, serverInterceptors({ logger: loggerOf(name), metrics }));
    const documents = await buildDocuments({
      db: pg.database("documents"),
      bus,
      blobs,
      logger: loggerOf("documents"),
      spoolDir,
      ...options.documents,
    });
    const documentsClient = serviceClient(DocumentsService, transportOf("documents", documents));
    const templates = await buildTemplates({
      db: pg.database("templates"),
      bus,
      logger: loggerOf("templates"),
      documents: documentsClient,
      onlyReplica: true,
    });

    const templatesClient = serviceClient(TemplatesService, transportOf("templates", templates));
    const requests = await buildRequests({
      db: pg.database("requests"),
      bus,
      logger: loggerOf("requests"),
      templates: templatesClient,
      documents: documentsClient,
      mailer: createMailer(mail),
      publicUrl,
      linkSecret: secrets.linkSecret,
      seal: await seal,
      onlyReplica: true,
      ...options.requests,
    });

    const webhooks = await buildWebhooks({
      db: pg.database("webhooks"),
      bus,
      logger: loggerOf("webhooks"),
      publicUrl,
      secretKey: secrets.webhookSecretKey,
      onlyReplica: true,
      ...options.webhooks,
    });
    const modules: Record<string, ServiceModule> = {
      auth,
      templates,
      documents,
      requests,
      webhooks,
    };
    const allModules = Object.values(modules);
    for (const metric of allModules.flatMap((m) => m.metrics ?? [])) metrics.registry.registerMetric(metric);
    const everyServiceReady = async () => {
      for (const module of allModules) await module.ready();
    };
    const health = new HealthState(
      allModules.flatMap((m) => m.serviceNames),
      everyServiceReady,
    );
    const gateway = buildGateway({
      services: {
        auth: serviceClient(AuthService, transportOf("auth", auth)),
        documents: documentsClient,
        templates: templatesClient,
        requests: serviceClient(RequestsService, transportOf("requests", requests)),
        webhooks: serviceClient(WebhooksService, transportOf("webhooks", webhooks)),
      },
      bus,
      logger: loggerOf("gateway"),
      // The admin port serves the gateway's metrics beside the services'.
      metrics: metrics.registry,
      publicUrl,
      // The converter's time limit, from the one setting the documents service converts under.
      limits: {
        ...options.limits,
        conversionTimeoutMs: options.documents?.conversionTimeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS,
      },
      trustedProxies: options.trustedProxies,
      ready: everyServiceReady,
      blobFiles,
      uploadSpool: spoolDir,
    });

    for (const module of allModules) await module.start();
    await gateway.start();
    server.serve(gateway.app);
    const adminToken = randomBytes(32).toString("base64url");
    const admin = await startServiceServer({
      routes: allModules.map((m) => m.routes),
      health,
      logger: loggerOf("admin"),
      metrics,
      port: options.adminPort ?? 0,
      host: "127.0.0.1",
      access: operatorOnly(adminToken),
    });
    await writeAdminEndpoint(dataDir, { url: admin.url, token: adminToken, pid: process.pid });
    if (banner) announce(banner);

    let closing: Promise<void> | undefined;
    return {
      gatewayUrl: server.url,
      adminUrl: admin.url,
      adminToken,
      close() {
        closing ??= (async () => {
          await shutDownInStages(log, [
            { name: "admin endpoint file", run: () => removeAdminEndpoint(dataDir), deadlineMs: 1000 },
            {
              name: "HTTP and admin servers",
              run: () => Promise.all([server.close(), admin.close()]),
              deadlineMs: SERVER_GRACE_MS + 1000,
            },
            { name: "gateway", run: () => gateway.stop(), deadlineMs: 3000 },
            ...Object.entries(modules).map(([name, module]) => ({
              name: `${name} background work`,
              run: () => module.stop(),
              deadlineMs: 5000,
            })),
            { name: "event bus", run: () => bus.close(), deadlineMs: 2000 },
            { name: "database", run: () => pg.close(), deadlineMs: 5000 },
            { name: "data directory lock", run: () => unlock(), deadlineMs: 1000 },
          ]);
        })();
        return closing;
      },
    };
  } catch (err) {
    if (banner) announce(banner);
    await server.close();
    await unlock();
    throw err;
  }
}
