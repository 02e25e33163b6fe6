/** A TCP port that nothing listens on right now, for a process of the launcher to bind. */
import { readFileSync } from "node:fs";
import net from "node:net";

/**
 * Ports handed out by this process: one released by its probe may be handed out again before the
 * process it was meant for binds it, so each is handed out once.
 */
const handedOut = new Set<number>();

/** Where the ports are chosen from when the system does not say (Linux's default starts at 32768). */
const LOWEST = 20_000;
const DEFAULT_EPHEMERAL_START = 32_768;

/**
 * Ports below the system's range for outgoing connections. A port the system picks for a probe
 * (listen on 0) comes from that range, where any outgoing connection may take it as its local port
 * between the probe and the bind: a service then failed to start with EADDRINUSE (seen in CI, with
 * tests making connections beside the launcher).
 */
function listeningRange(): { from: number; to: number } {
  let ephemeralStart = DEFAULT_EPHEMERAL_START;
  try {
    ephemeralStart = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
  } catch {
    // Not Linux: its default range is assumed.
  }
  return { from: LOWEST, to: Math.max(LOWEST + 1000, ephemeralStart) - 1 };
}

/** Read once: the system's range does not change while the launcher runs. */
let range: { from: number; to: number } | undefined;

export async function freePort(): Promise<number> {
  range ??= listeningRange();
  const { from, to } = range;
  for (let tries = 0; tries < 200; tries++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${from} and ${to} after 200 tries`);
}

/** Whether the port can be bound on every interface, as the launcher's processes bind it. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "0.0.0.0", () => server.close(() => resolve(true)));
  });
}
