/**
 * Infrastructure for the distributed-mode suites: Postgres and NATS JetStream from the environment
 * (COUNTERSIGN_TEST_POSTGRES_URL, COUNTERSIGN_TEST_NATS_URL) or the local defaults; where neither is
 * reachable and a Docker engine answers, containers started with testcontainers. Otherwise the
 * suite is skipped with a loud line — except under CI, where missing infrastructure fails the run.
 */
import { execFileSync } from "node:child_process";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import pg from "pg";

export interface Infra {
  postgresUrl: string;
  natsUrl: string;
  close(): Promise<void>;
}

const DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";
const DEFAULT_NATS = "nats://127.0.0.1:4222";

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function jetStreamAnswers(url: string): Promise<boolean> {
  try {
    const nc = await connect({ servers: url, timeout: 2000, reconnect: false });
    try {
      await (await jetstreamManager(nc)).getAccountInfo();
      return true;
    } finally {
      await nc.close();
    }
  } catch {
    return false;
  }
}

function dockerAnswers(): boolean {
  try {
    execFileSync("docker", ["info"], { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

async function fromContainers(): Promise<Infra> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const postgres = await new GenericContainer("postgres:16-alpine")
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const nats = await new GenericContainer("nats:2").withCommand(["-js"]).withExposedPorts(4222).start();
  return {
    postgresUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    close: async () => {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}

/** The infrastructure, or undefined when the suite must be skipped (never under CI). */
export async function distributedInfra(): Promise<Infra | undefined> {
  const postgresUrl = process.env.COUNTERSIGN_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES;
  const natsUrl = process.env.COUNTERSIGN_TEST_NATS_URL ?? DEFAULT_NATS;
  const missing = [
    ...((await postgresAnswers(postgresUrl)) ? [] : [`Postgres at ${new URL(postgresUrl).host}`]),
    ...((await jetStreamAnswers(natsUrl)) ? [] : [`NATS JetStream at ${new URL(natsUrl).host}`]),
  ];
  if (missing.length === 0) return { postgresUrl, natsUrl, close: async () => {} };
  if (dockerAnswers()) return fromContainers();
  const message = `distributed-mode tests need ${missing.join(" and ")}, and no Docker engine answers`;
  if (process.env.CI) throw new Error(message);
  console.warn(
    `\n!!! SKIPPING distributed-mode tests: ${message}. Set COUNTERSIGN_TEST_POSTGRES_URL / COUNTERSIGN_TEST_NATS_URL.\n`,
  );
  return undefined;
}

/** A lower-case name no other run uses, for databases, streams and consumers. */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export async function dropDatabases(postgresUrl: string, names: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (const name of names)
      await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function deleteStream(natsUrl: string, stream: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}
