/**
 * A name's TXT records, read so that no DNS server can stretch the read: every try waits a bounded
 * time, there are at most so many tries, and the whole lookup is cancelled at its own deadline; of
 * the answer (a DNS message, itself at most 64 KiB) at most TXT_LIMITS.records records of at most
 * TXT_LIMITS.chars characters each are kept. Servers other than the system's are set by
 * COUNTERSIGN_DNS_SERVERS.
 */
import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { z } from "zod";

export const TXT_LIMITS = { records: 20, chars: 1024 } as const;

/** An address a resolver is asked at: an IP, with a port when it is not 53. */
const SERVER = /^(?:\[(?<v6>[0-9a-fA-F:.]+)\]|(?<v4>[0-9.]+))(?::(?<port>\d{1,5}))?$/;

function serverProblem(server: string): string | undefined {
  const parts = SERVER.exec(server)?.groups;
  const ip = parts?.v6 ?? parts?.v4 ?? (isIP(server) === 6 ? server : undefined);
  if (!ip || isIP(ip) === 0) return `"${server}" is not an IP address (with an optional :port)`;
  const port = Number(parts?.port ?? 53);
  return port >= 1 && port <= 65535 ? undefined : `"${server}" has no valid port`;
}

/** The variables of a service that reads DNS records. */
export const dnsConfig = {
  COUNTERSIGN_DNS_SERVERS: z
    .string()
    .optional()
    .transform((text) =>
      (text ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .superRefine((servers, ctx) => {
      for (const server of servers) {
        const problem = serverProblem(server);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }
    })
    .describe(
      "comma-separated resolvers (`1.1.1.1`, `[2606:4700::1111]:53`) asked for a workspace's sending-domain TXT record; without it, the system's",
    ),
};

export interface TxtLookupOptions {
  /** Resolvers to ask ("ip" or "ip:port"); the system's when empty. */
  servers?: readonly string[];
  /** How long one try waits. */
  timeoutMs?: number;
  tries?: number;
}

/** Why a lookup told nothing: the servers did not answer in time, or answered with a failure. */
export class TxtLookupFailed extends Error {
  constructor(
    readonly reason: "timeout" | "failed",
    message: string,
  ) {
    super(message);
    this.name = "TxtLookupFailed";
  }
}

/** Answers the TXT records of `name`, each one's strings joined; none when the name has none. */
export async function lookupTxt(name: string, options: TxtLookupOptions = {}): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const tries = options.tries ?? 2;
  const resolver = new Resolver({ timeout: timeoutMs, tries });
  if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
  // The resolver's own bound is per try and per server; this one is the lookup's, whatever happens.
  const deadline = setTimeout(() => resolver.cancel(), timeoutMs * tries + 500);
  try {
    const records = await resolver.resolveTxt(name);
    return records.slice(0, TXT_LIMITS.records).map((strings) => strings.join("").slice(0, TXT_LIMITS.chars));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENODATA" || code === "ENOTFOUND") return [];
    if (code === "ETIMEOUT" || code === "ECANCELLED") {
      throw new TxtLookupFailed("timeout", `no DNS server answered for ${name} in time`);
    }
    throw new TxtLookupFailed("failed", `the DNS lookup of ${name} failed (${code ?? "unknown error"})`);
  } finally {
    clearTimeout(deadline);
  }
}
