/**
 * Local servers for the adapter tests: Postgres and NATS at their default addresses (or
 * COUNTERSIGN_TEST_POSTGRES_URL / COUNTERSIGN_TEST_NATS_URL). Missing ones skip those tests with a
 * loud line, except under CI, where they fail.
 */
import net from "node:net";

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

/** True when the server answers; otherwise false (and a warning), or an error under CI. */
export async function available(name: string, url: string): Promise<boolean> {
  if (await answers(url)) return true;
  const message = `${name} does not answer at ${new URL(url).host}`;
  if (process.env.CI) throw new Error(message);
  console.warn(`\n!!! SKIPPING ${name} adapter tests: ${message}\n`);
  return false;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
