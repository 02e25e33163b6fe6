/**
 * What the kit's tests share: the local servers the adapter tests run against (Postgres and NATS at
 * their default addresses, or COUNTERSIGN_TEST_POSTGRES_URL / COUNTERSIGN_TEST_NATS_URL), unique
 * names, temporary folders, and waiting for something that happens in the background.
 */
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const POSTGRES_URL =
  process.env.COUNTERSIGN_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const NATS_URL = process.env.COUNTERSIGN_TEST_NATS_URL ?? "nats://127.0.0.1:4222";

function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Whether the tests that need this server should run. A server that does not answer skips them
 * with a loud line on a developer's machine; under CI they run anyway, and fail.
 */
export async function available(name: string, url: string): Promise<boolean> {
  if (await answers(url)) return true;
  const where = new URL(url).host;
  if (process.env.CI) {
    console.error(`\n!!! ${name} does not answer at ${where}; under CI its tests run and fail\n`);
    return true;
  }
  console.warn(`\n!!! SKIPPING ${name} tests: ${name} does not answer at ${where}\n`);
  return false;
}

/** A Postgres URL for a database of this name on the test server. */
export function postgresUrl(database: string): string {
  return Object.assign(new URL(POSTGRES_URL), { pathname: `/${database}` }).toString();
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** A fresh folder under the system's temporary folder, and the function that removes it. */
export async function temporaryFolder(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `countersign-kit-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Resolves once check passes; fails with what was being waited for after timeoutMs. */
export async function eventually(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const bytes = (text: string) => new TextEncoder().encode(text);
export const text = (data: Uint8Array) => new TextDecoder().decode(data);
