/**
 * `npm run start:distributed [-- --replicas requests=2,templates=2,…]`: distributed mode on one
 * machine — a process per replica of each service (by default one, two for webhooks and the
 * gateway), Connect over HTTP/2 between them with every caller balancing over all replicas, Postgres (a
 * database per service, created if missing), NATS JetStream, and an S3 endpoint (s3rver on loopback
 * unless S3_ENDPOINT is set). What Kubernetes runs, minus Kubernetes. Every process's log lines go
 * to this stdout; the addresses and process ids go to `distributed.json` in the data dir.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { findLibreOffice } from "@countersign/documents";
import { CALLERS, type Caller } from "@countersign/domain";
import { Health, HealthCheckResponse_ServingStatus } from "@countersign/gen/grpc/health/v1/health_pb.js";
import {
  ConfigError,
  createLogger,
  exitOnProcessFaults,
  type Logger,
  loadConfig,
  missingNodeFlags,
  networkTransport,
  runMain,
  tokenDigest,
  warnWithoutNodeFlags,
} from "@countersign/kit";
import { DISTRIBUTED_FILE, type DistributedEndpoints } from "./distributed-endpoints.js";
import { freePort } from "./free-port.js";
import { type LauncherConfig, launcherConfigSchema } from "./launcher-config.js";
import { type LocalS3, startLocalS3 } from "./local-s3.js";
import { GATEWAY_HEAP_MB, UPLOAD_READER_NODE_FLAGS } from "./pod-resources.js";
import { loadOrCreateSecrets, sealFiles } from "./state-files.js";
import { startLocalTimestampAuthority } from "./timestamp-authority.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const SERVICES = ["auth", "templates", "documents", "requests", "webhooks"] as const;
type Service = (typeof SERVICES)[number];
/**
 * The requests service's sealers, the only processes given the seal's key, run apart from its API;
 * the converter, which makes PDFs of office documents for the documents service, apart from all.
 */
const COMPONENTS = [...SERVICES, "requests-sealer", "converter", "gateway"] as const;
type Component = (typeof COMPONENTS)[number];
/** A process that ran at least this long before it died is started again. */
const RESTART_AFTER_MS = 10_000;

type Config = LauncherConfig;

function databaseUrl(config: Config, service: Service): string {
  const explicit = config[`${service.toUpperCase() as Uppercase<Service>}_DATABASE_URL`];
  if (explicit) return explicit;
  const url = new URL(config.POSTGRES_URL);
  url.pathname = `/${config.COUNTERSIGN_DB_PREFIX}${service}`;
  return url.toString();
}

/** `--replicas requests=2,gateway=3`: how many processes each component runs. */
function replicaCounts(args: string[], config: Config): Record<Component, number> {
  const counts = Object.fromEntries(COMPONENTS.map((c) => [c, 1])) as Record<Component, number>;
  counts.gateway = config.GATEWAY_REPLICAS;
  counts.webhooks = config.WEBHOOKS_REPLICAS;
  let values: { replicas?: string };
  try {
    ({ values } = parseArgs({ args, options: { replicas: { type: "string" } }, strict: true }));
  } catch (err) {
    throw new ConfigError(`arguments: ${(err as Error).message}`);
  }
  for (const part of (values.replicas ?? "").split(",").filter(Boolean)) {
    const [name, count] = part.split("=");
    const replicas = Number(count);
    if (
      !COMPONENTS.includes(name as Component) ||
      !Number.isInteger(replicas) ||
      replicas < 1 ||
      replicas > 8
    ) {
      throw new ConfigError(
        `--replicas: "${part}" must be <component>=<1..8>, the component one of ${COMPONENTS.join(", ")}`,
      );
    }
    counts[name as Component] = replicas;
  }
  return counts;
}

runMain(async () => {
  const config = loadConfig(launcherConfigSchema);
  const replicas = replicaCounts(process.argv.slice(2), config);
  const logger = createLogger({ name: "launcher", level: config.LOG_LEVEL });
  exitOnProcessFaults(logger);
  warnWithoutNodeFlags(logger);
  const dataDir = resolve(config.COUNTERSIGN_DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const secrets = await loadOrCreateSecrets(dataDir);
  const seal = await sealFiles(dataDir, secrets);
  // A token of its own for each caller, made for this run; services know them by their digests.
  const tokens = Object.fromEntries(
    CALLERS.map((caller) => [caller, randomBytes(32).toString("base64url")]),
  ) as Record<Caller, string>;
  const callers = CALLERS.map((caller) => `${caller}=${tokenDigest(tokens[caller])}`).join(",");
  let localS3: LocalS3 | undefined;
  if (!config.S3_ENDPOINT) {
    localS3 = await startLocalS3(join(dataDir, "s3"));
    logger.info({ endpoint: localS3.endpoint }, "S3_ENDPOINT not set: serving S3 from s3rver on loopback");
  }
  const timestamps = await timestampAuthority(config, dataDir, logger);
  const children = new Set<ChildProcess>();
  const pids: Record<string, number> = {};
  let stopping = false;
  let endpoints: DistributedEndpoints | undefined;
  const writeEndpoints = async () => {
    if (!endpoints) return;
    await writeFile(join(dataDir, DISTRIBUTED_FILE), `${JSON.stringify({ ...endpoints, pids })}\n`, {
      mode: 0o600,
    });
  };

  const common = {
    LOG_LEVEL: config.LOG_LEVEL,
    NATS_URL: config.NATS_URL,
    NATS_NAMESPACE: config.NATS_NAMESPACE,
    COUNTERSIGN_CALLERS: callers,
  };
  // Like a Deployment's ReplicaSet, a process that dies after it ran a while, or that something
  // killed (a chaos test, the OOM killer), is started again; one that exits on its own at once (a
  // bad configuration, a port in use) stops everything.
  const start = (
    name: string,
    entry: string,
    extra: Record<string, string | undefined>,
    nodeFlags: string[] = [],
  ) => {
    const startedAt = Date.now();
    // Children run with the launcher's own Node flags (its loader, a profiler), as cluster.fork does,
    // and with the flags every process needs whether or not the launcher was given them.
    const child = spawn(process.execPath, [...process.execArgv, ...missingNodeFlags(), ...nodeFlags, entry], {
      cwd: REPO,
      env: { ...process.env, ...common, ...withoutUndefined(extra) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    children.add(child);
    if (child.pid !== undefined) pids[name] = child.pid;
    void writeEndpoints();
    child.on("exit", (code, signal) => {
      children.delete(child);
      delete pids[name];
      if (stopping) return;
      const killed = signal === "SIGKILL" || signal === "SIGTERM";
      if (killed || Date.now() - startedAt >= RESTART_AFTER_MS) {
        logger.warn({ process: name, code, signal }, "a process exited; starting it again");
        setTimeout(() => {
          if (!stopping) start(name, entry, extra);
        }, 1000);
        return;
      }
      logger.error(
        { process: name, code, signal },
        "a process exited right after its start; stopping the deployment",
      );
      void stop(1);
    });
  };

  // The converter needs LibreOffice; without it, the documents service refuses office documents.
  const libreOffice = findLibreOffice(config.COUNTERSIGN_LIBREOFFICE);
  const converters: string[] = [];
  if (libreOffice) {
    for (let replica = 0; replica < replicas.converter; replica++) {
      const address = `http://127.0.0.1:${await freePort()}`;
      converters.push(address);
      start(`converter-${replica}`, sourceOrBuilt("services/documents/src/converter-server.ts"), {
        PORT: new URL(address).port,
        COUNTERSIGN_LIBREOFFICE: libreOffice,
      });
    }
  } else {
    logger.warn("no LibreOffice here: no converter runs, and Word, ODT and RTF uploads are refused");
  }
  // Every address is known before any process starts: services call each other from the start.
  const addresses = {} as Record<Service, string[]>;
  for (const service of SERVICES) {
    addresses[service] = [];
    for (let replica = 0; replica < replicas[service]; replica++) {
      addresses[service].push(`http://127.0.0.1:${await freePort()}`);
    }
  }
  const gateways: string[] = [];
  for (let replica = 0; replica < replicas.gateway; replica++) {
    gateways.push(`http://127.0.0.1:${config.PORT === 0 ? await freePort() : config.PORT + replica}`);
  }
  // Each caller is given every replica of a service and balances its calls over them.
  const addressOf = (service: Service) => addresses[service].join(",");
  // Links in e-mails lead to the public URL, which is the first gateway unless set.
  const publicUrl =
    config.COUNTERSIGN_PUBLIC_URL ?? `http://localhost:${new URL(gateways[0] as string).port}`;
  // What the requests service's API and its sealers share; only sealers are given the key.
  const requestsSettings = {
    DOCUMENTS_ADDR: addressOf("documents"),
    COUNTERSIGN_PUBLIC_URL: publicUrl,
    COUNTERSIGN_LINK_SECRET: secrets.linkSecret,
    COUNTERSIGN_DATA_DIR: dataDir,
  };
  for (const service of SERVICES) {
    for (const [replica, address] of addresses[service].entries()) {
      start(
        `${service}-${replica}`,
        sourceOrBuilt(`services/${service}/src/server.ts`),
        {
          PORT: new URL(address).port,
          [`${service.toUpperCase()}_DATABASE_URL`]: databaseUrl(config, service),
          ...(service === "auth"
            ? {
                COUNTERSIGN_KEY_PEPPER: secrets.keyPepper,
                // Lock-out, invitation and reset e-mails land in the same outbox as the requests
                // service's, their links leading to the same public URL.
                COUNTERSIGN_DATA_DIR: dataDir,
                COUNTERSIGN_PUBLIC_URL: publicUrl,
                COUNTERSIGN_ADMIN_EMAIL: config.COUNTERSIGN_ADMIN_EMAIL,
                COUNTERSIGN_ADMIN_PASSWORD: config.COUNTERSIGN_ADMIN_PASSWORD,
              }
            : {}),
          ...(service === "templates"
            ? { DOCUMENTS_ADDR: addressOf("documents"), COUNTERSIGN_SERVICE_TOKEN: tokens.templates }
            : {}),
          ...(service === "requests"
            ? {
                ...requestsSettings,
                TEMPLATES_ADDR: addressOf("templates"),
                COUNTERSIGN_REQUESTS_ROLE: "api",
                COUNTERSIGN_SERVICE_TOKEN: tokens.requests,
              }
            : {}),
          ...(service === "webhooks"
            ? {
                COUNTERSIGN_PUBLIC_URL: publicUrl,
                COUNTERSIGN_WEBHOOK_SECRET_KEY:
                  config.COUNTERSIGN_WEBHOOK_SECRET_KEY ?? secrets.webhookSecretKey,
              }
            : {}),
          ...(service === "documents"
            ? {
                S3_ENDPOINT: config.S3_ENDPOINT ?? localS3?.endpoint,
                S3_ACCESS_KEY: config.S3_ACCESS_KEY ?? localS3?.accessKey,
                S3_SECRET_KEY: config.S3_SECRET_KEY ?? localS3?.secretKey,
                S3_BUCKET: config.S3_BUCKET,
                CONVERTER_ADDR: converters.length > 0 ? converters.join(",") : undefined,
                COUNTERSIGN_SERVICE_TOKEN: tokens.documents,
                // Images are made pages here when there is no converter.
                COUNTERSIGN_LIBREOFFICE: "off",
              }
            : {}),
        },
        service === "documents" ? UPLOAD_READER_NODE_FLAGS : [],
      );
    }
  }
  const sealers: string[] = [];
  for (let replica = 0; replica < replicas["requests-sealer"]; replica++) {
    const address = `http://127.0.0.1:${await freePort()}`;
    sealers.push(address);
    start(`requests-sealer-${replica}`, sourceOrBuilt("services/requests/src/server.ts"), {
      PORT: new URL(address).port,
      REQUESTS_DATABASE_URL: databaseUrl(config, "requests"),
      ...requestsSettings,
      COUNTERSIGN_REQUESTS_ROLE: "sealer",
      COUNTERSIGN_SERVICE_TOKEN: tokens["requests-sealer"],
      COUNTERSIGN_SEAL_P12: seal.p12Path,
      COUNTERSIGN_SEAL_P12_PASSWORD_FILE: seal.passwordPath,
      ...timestamps?.settings,
    });
  }
  await Promise.all(
    [...Object.values(addresses).flat(), ...sealers, ...converters].map((address) =>
      waitForHealth(address, tokens.operator),
    ),
  );

  for (const [replica, url] of gateways.entries()) {
    const port = new URL(url).port;
    start(
      `gateway-${replica}`,
      sourceOrBuilt("gateway/src/server.ts"),
      {
        PORT: port,
        METRICS_PORT: String(await freePort()),
        COUNTERSIGN_PUBLIC_URL: config.COUNTERSIGN_PUBLIC_URL ?? `http://localhost:${port}`,
        COUNTERSIGN_SERVICE_TOKEN: tokens.gateway,
        ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_ADDR`, addressOf(s)])),
      },
      // The heap and flags a gateway pod gets (deploy/base/gateway), so that memory here is memory there.
      [`--max-old-space-size=${GATEWAY_HEAP_MB}`, ...UPLOAD_READER_NODE_FLAGS],
    );
  }
  await Promise.all(gateways.map((url) => waitForReady(url)));

  endpoints = {
    gateways,
    services: { ...addresses, "requests-sealer": sealers, converter: converters },
    operatorToken: tokens.operator,
    pid: process.pid,
    pids,
  };
  await writeEndpoints();
  logger.info({ gateways, dataDir, replicas }, "Countersign is ready (distributed)");

  async function stop(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const exited = [...children].map((child) => new Promise((done) => child.once("exit", done)));
    for (const child of children) child.kill("SIGTERM");
    const force = setTimeout(() => {
      for (const child of children) child.kill("SIGKILL");
    }, 15_000);
    await Promise.all(exited);
    clearTimeout(force);
    await rm(join(dataDir, DISTRIBUTED_FILE), { force: true });
    await localS3?.close();
    await timestamps?.local?.close();
    logger.flush();
    process.exit(exitCode);
  }
  process.on("SIGTERM", () => void stop(0));
  process.on("SIGINT", () => void stop(0));
});

/**
 * The time-stamping authority the requests service is given: the configured one, else one on
 * loopback with its keys in the data dir. Without OpenSSL there is none, and seals are PAdES B-B.
 */
async function timestampAuthority(config: Config, dataDir: string, logger: Logger) {
  if (config.COUNTERSIGN_TSA_URL) return { settings: { COUNTERSIGN_TSA_URL: config.COUNTERSIGN_TSA_URL } };
  try {
    const local = await startLocalTimestampAuthority(join(dataDir, "tsa"));
    const caFile = join(dataDir, "tsa", "root.pem");
    logger.info({ url: local.url }, "COUNTERSIGN_TSA_URL not set: time-stamping with OpenSSL on loopback");
    return { local, settings: { COUNTERSIGN_TSA_URL: local.url, COUNTERSIGN_TSA_CA_FILE: caFile } };
  } catch (err) {
    logger.warn({ err }, "no time-stamping authority (OpenSSL could not run one): seals will be PAdES B-B");
    return undefined;
  }
}

function withoutUndefined(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function waitForHealth(address: string, token: string, timeoutMs = 60_000): Promise<void> {
  const health = createClient(Health, networkTransport(address, token));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { status } = await health.check({}, { timeoutMs: 1000 });
      if (status === HealthCheckResponse_ServingStatus.SERVING) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${address} did not become healthy within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function waitForReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not become ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Run from `npm run build:server`'s JavaScript, the launcher starts the JavaScript of each component too. */
function sourceOrBuilt(source: string): string {
  return import.meta.url.endsWith(".js") ? source.replace("/src/", "/dist/").replace(/\.ts$/, ".js") : source;
}
