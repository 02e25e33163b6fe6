/**
 * Infrastructure for the distributed-mode suites: Postgres and NATS JetStream from the environment
 * (COUNTERSIGN_TEST_POSTGRES_URL, COUNTERSIGN_TEST_NATS_URL) or the local defaults; where neither is
 * reachable and podman or a Docker engine is, containers (container-infra.ts), which
 * COUNTERSIGN_TEST_INFRA=containers asks for even where the machine's servers answer. Otherwise the
 * suite is skipped with a loud line — except under CI, where missing infrastructure fails the run.
 */
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import pg from "pg";
import { containerEngineAvailable, type InfraContainers, startInfraContainers } from "./container-infra.js";

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

/** Whether the two answer, each asked again until it does or `ms` have passed. */
async function infraAnswers(infra: Pick<Infra, "postgresUrl" | "natsUrl">, ms = 0): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (const answers of [() => postgresAnswers(infra.postgresUrl), () => jetStreamAnswers(infra.natsUrl)]) {
    while (!(await answers())) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return true;
}

/** Postgres and NATS JetStream in containers of their own, answering. */
export async function containerInfra(): Promise<InfraContainers> {
  const infra = await startInfraContainers();
  if (!(await infraAnswers(infra, 30_000))) {
    await infra.close();
    throw new Error(
      `the containers' Postgres (${infra.postgresUrl}) or NATS (${infra.natsUrl}) did not answer`,
    );
  }
  return infra;
}

/** What a suite does without what it needs: fails under CI, else says loudly that it skips. */
export function unavailable(reason: string, remedy: string): undefined {
  if (process.env.CI) throw new Error(reason);
  console.warn(`\n!!! SKIPPING: ${reason}. ${remedy}\n`);
  return undefined;
}

/** Whether COUNTERSIGN_TEST_INFRA asks for containers even where the machine's servers answer. */
function containersRequired(): boolean {
  const setting = process.env.COUNTERSIGN_TEST_INFRA ?? "";
  if (setting !== "" && setting !== "containers")
    throw new Error(`COUNTERSIGN_TEST_INFRA must be "containers" or unset, not ${JSON.stringify(setting)}`);
  return setting === "containers";
}

/** The infrastructure, or undefined when the suite must be skipped (never under CI). */
export async function distributedInfra(): Promise<Infra | undefined> {
  if (containersRequired()) return containerInfra();
  const postgresUrl = process.env.COUNTERSIGN_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES;
  const natsUrl = process.env.COUNTERSIGN_TEST_NATS_URL ?? DEFAULT_NATS;
  const missing = [
    ...((await postgresAnswers(postgresUrl)) ? [] : [`Postgres at ${new URL(postgresUrl).host}`]),
    ...((await jetStreamAnswers(natsUrl)) ? [] : [`NATS JetStream at ${new URL(natsUrl).host}`]),
  ];
  if (missing.length === 0) return { postgresUrl, natsUrl, close: async () => {} };
  if (containerEngineAvailable()) return containerInfra();
  return unavailable(
    `distributed-mode tests need ${missing.join(" and ")}, and neither podman nor a Docker engine answers`,
    "Set COUNTERSIGN_TEST_POSTGRES_URL / COUNTERSIGN_TEST_NATS_URL.",
  );
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
