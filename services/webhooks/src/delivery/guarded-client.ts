/**
 * The one HTTP client webhook deliveries, retries and test-fires go through. Endpoint URLs are chosen by
 * API users, so the client must not become a way into our own network: every address a connection is
 * about to use is checked after DNS, in the agent's lookup, so a name that resolves to a public address
 * when the endpoint is saved and to 127.0.0.1 when the delivery runs (DNS rebinding) is still refused.
 * What a tenant reads about a refusal is one sentence whatever the address, and a name that does not
 * resolve reads the same, so attempts cannot map our network; the address and its range go to our log.
 */
import dns from "node:dns";
import type { ClientRequest, IncomingMessage } from "node:http";
import https from "node:https";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";
import tls from "node:tls";
import zlib from "node:zlib";
import type { Logger } from "@countersign/kit";
import ipaddr from "ipaddr.js";

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedClientOptions {
  /** CIDR blocks deliveries may reach even though they are not public (e.g. "127.0.0.0/8", "::1/128"); parsed with parseNetworks. */
  allowNetworks?: readonly Network[];
  /** Extra trusted CA certificates (PEM text), added to Node's default roots (tls.rootCertificates), not replacing them. */
  extraCa?: string;
  /** Whole-attempt timeout: connect + TLS + response headers + body read. Default 15_000. */
  timeoutMs?: number;
  /** How much of the (decompressed) response body is kept, in bytes. Default 20 * 1024. */
  maxBodyBytes?: number;
  /** DNS lookup used instead of dns.lookup (tests resolve names to loopback with it). Same signature as dns.lookup with {all:true}. */
  lookup?: LookupAll;
  /** Sockets kept open per origin for reuse (keep-alive). Default 8. */
  maxSocketsPerOrigin?: number;
  /** Where a refusal's address and range are written for operators; tenants never read them. */
  logger?: Logger;
}

/**
 * The tenant's whole answer for an address deliveries may not reach and for a name that does not
 * resolve: telling them apart, or naming the address, would let a tenant probe our internal names.
 */
export const NOT_PUBLIC_ADDRESS =
  "the endpoint's address is not a public internet address; deliveries go only to public addresses";

export type PostOutcome =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      body: string;
      bodyTruncated: boolean;
      durationMs: number;
    }
  | {
      kind: "error";
      /** Shown to the tenant: NOT_PUBLIC_ADDRESS for a refused address and for a name that does not resolve. */
      error: string;
      /** The guard refused the URL or an address it resolved to; nothing was sent. */
      refused: boolean;
      durationMs: number;
    };

/** Parses "127.0.0.0/8, ::1/128" (comma-separated, spaces allowed, empty string → []). */
export function parseNetworks(list: string): Network[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not a CIDR block`);
      return ipaddr.parseCIDR(entry);
    });
}

// ipaddr.js files the documentation ranges under "reserved" together with others; these tell them apart.
const documentationRanges = [
  "192.0.2.0/24",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "2001:db8::/32",
  "3fff::/20",
].map((cidr) => ipaddr.parseCIDR(cidr));

const ipv4Compatible = ipaddr.parseCIDR("::/96");

// Readable names for ipaddr.js range names; a range it adds later still gets refused, under its own name.
const rangeWords: Record<string, string> = {
  private: "a private address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  reserved: "in a reserved range",
  uniqueLocal: "a unique local address",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "in a benchmarking range",
  amt: "an AMT relay address",
  as112: "an AS112 address",
  as112v6: "an AS112 address",
  deprecatedSiteLocal: "a site-local address",
  deprecatedOrchid: "an ORCHID address",
  orchid2: "an ORCHIDv2 address",
  discard: "in the discard prefix",
  droneRemoteIdProtocolEntityTags: "a drone remote ID address",
  segmentRouting: "a segment routing address",
};

function matchesAny(address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly Network[]): boolean {
  // match() throws when the families differ.
  return networks.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** What makes an address unreachable ("is a loopback address"), or undefined when it may be reached. */
function refusal(address: string, allowNetworks: readonly Network[]): string | undefined {
  if (!ipaddr.isValid(address)) return "is not an IP address";
  // parse(), not process(): process() turns ::ffff:127.0.0.1 into 127.0.0.1, and an IPv4 allow entry
  // would then open IPv4-mapped addresses too. Mapped addresses pass only an IPv6 allow entry.
  const parsed = ipaddr.parse(address);
  if (matchesAny(parsed, allowNetworks)) return undefined;
  const range = parsed.range();
  // ipaddr.js calls IPv4-compatible IPv6 (::/96, deprecated) unicast; it embeds an IPv4 address.
  if (range === "unicast" && parsed.kind() === "ipv6" && parsed.match(ipv4Compatible)) {
    return "is an IPv4-compatible IPv6 address";
  }
  if (range === "unicast") return undefined;
  if (range === "reserved" && matchesAny(parsed, documentationRanges)) return "is in a documentation range";
  return `is ${rangeWords[range] ?? `in the ${range} range`}`;
}

/** Why an address may not be reached, in words ("127.0.0.1 is a loopback address"), or undefined when it may. */
export function refusalReason(address: string, allowNetworks: readonly Network[]): string | undefined {
  const why = refusal(address, allowNetworks);
  return why === undefined ? undefined : `${address} ${why}`;
}

/** Why a URL can never be a webhook endpoint, or undefined. Used when an endpoint is created or changed. */
export function endpointUrlProblem(url: string, allowNetworks: readonly Network[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a valid URL";
  }
  if (parsed.protocol !== "https:") return "only https URLs are delivered to";
  if (parsed.username !== "" || parsed.password !== "")
    return "URLs with a user name or password are not allowed";
  const host = literalHost(parsed);
  return host !== undefined && refusal(host, allowNetworks) !== undefined ? NOT_PUBLIC_ADDRESS : undefined;
}

/** The URL's host when it is an IP address (IPv6 without brackets). */
function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return net.isIP(host) === 0 ? undefined : host;
}

/** An address the guard will not connect to, or no address at all; detail is for operators only. */
class UnreachableAddress extends Error {
  constructor(
    readonly detail: string,
    /** The guard refused an address; false when the name gave none. */
    readonly refused: boolean,
  ) {
    super(NOT_PUBLIC_ADDRESS);
  }
}

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

const defaultLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true });

export class GuardedClient {
  private readonly agent: https.Agent;
  private readonly allowNetworks: readonly Network[];
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly logger: Logger | undefined;

  constructor(options: GuardedClientOptions = {}) {
    this.allowNetworks = options.allowNetworks ?? [];
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 20 * 1024;
    this.logger = options.logger;
    const resolve = options.lookup ?? defaultLookup;
    const maxSockets = options.maxSocketsPerOrigin ?? 8;
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets,
      maxFreeSockets: maxSockets,
      rejectUnauthorized: true,
      // One context made now: given as `ca`, the roots would be parsed again for every connection and
      // joined into the agent's pool key for every request.
      ...(options.extraCa === undefined
        ? {}
        : { secureContext: tls.createSecureContext({ ca: [...tls.rootCertificates, options.extraCa] }) }),
      lookup: ((hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback) => {
        this.resolveAllowed(resolve, hostname, lookupOptions.family).then(
          (addresses) => {
            // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), one otherwise.
            if (lookupOptions.all) callback(null, addresses);
            else callback(null, addresses[0]?.address ?? "", addresses[0]?.family);
          },
          (err: Error) => callback(err, ""),
        );
      }) as unknown as net.LookupFunction,
    });
  }

  /** Every address must be allowed: one bad record among good ones is how a rebinding name would look. */
  private async resolveAllowed(
    resolve: LookupAll,
    hostname: string,
    family: dns.LookupOptions["family"],
  ): Promise<{ address: string; family: number }[]> {
    let all: { address: string; family: number }[];
    try {
      all = await resolve(hostname);
    } catch (err) {
      throw new UnreachableAddress(`${hostname} does not resolve: ${(err as Error).message}`, false);
    }
    for (const { address } of all) {
      const why = refusal(address, this.allowNetworks);
      if (why !== undefined)
        throw new UnreachableAddress(`${hostname} resolves to ${address}, which ${why}`, true);
    }
    const wanted = family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0;
    const usable = all.filter((entry) => wanted === 0 || entry.family === wanted);
    if (usable.length === 0)
      throw new UnreachableAddress(`${hostname} has no ${wanted === 0 ? "" : `IPv${wanted} `}address`, false);
    return usable;
  }

  /**
   * POSTs body with the given headers; never throws (network errors, refusals and timeouts are outcomes).
   * logFields (an endpoint id, say) go into the operators' log line of a refusal.
   */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    logFields: Record<string, string> = {},
  ): Promise<PostOutcome> {
    const started = performance.now();
    const durationMs = () => Math.round((performance.now() - started) * 10) / 10;
    const refused = (error: string): Promise<PostOutcome> =>
      Promise.resolve({ kind: "error", error, refused: true, durationMs: durationMs() });
    const unreachable = (err: UnreachableAddress): PostOutcome => {
      this.logger?.warn({ ...logFields, reason: err.detail }, "webhook address not reachable; nothing sent");
      return { kind: "error", error: err.message, refused: err.refused, durationMs: durationMs() };
    };

    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return refused("not a valid URL");
    }
    if (target.protocol !== "https:") return refused("only https URLs are delivered to");
    // Node skips the agent's lookup for IP literals, so they are checked here.
    const literal = literalHost(target);
    const literalReason = literal === undefined ? undefined : refusalReason(literal, this.allowNetworks);
    if (literalReason !== undefined)
      return Promise.resolve(unreachable(new UnreachableAddress(literalReason, true)));

    return new Promise<PostOutcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (outcome: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const fail = (err: Error) =>
        settle(
          err instanceof UnreachableAddress
            ? unreachable(err)
            : { kind: "error", error: describeError(err), refused: false, durationMs: durationMs() },
        );

      let req: ClientRequest;
      try {
        req = https.request(target, {
          agent: this.agent,
          method: "POST",
          headers: requestHeaders(headers, body),
        });
      } catch (err) {
        // Invalid header names or values throw here, before any connection.
        fail(err as Error);
        return;
      }
      timer = setTimeout(() => {
        settle({
          kind: "error",
          error: `timed out after ${this.timeoutMs} ms`,
          refused: false,
          durationMs: durationMs(),
        });
        req.destroy();
      }, this.timeoutMs);

      req.on("error", fail);
      req.on("response", (res) => {
        readBody(res, this.maxBodyBytes).then(({ text, truncated }) =>
          settle({
            kind: "response",
            status: res.statusCode ?? 0,
            headers: responseHeaders(res),
            body: text,
            bodyTruncated: truncated,
            durationMs: durationMs(),
          }),
        );
      });
      req.end(body);
    });
  }

  /** Closes kept-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}

function requestHeaders(given: Record<string, string>, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Countersign-Webhooks/1",
  };
  for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
  headers["content-length"] = String(Buffer.byteLength(body));
  // Only encodings readBody can undo.
  headers["accept-encoding"] = "gzip, deflate, br";
  return headers;
}

function responseHeaders(res: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(res.headersDistinct).map(([name, values]) => [name, (values ?? []).join(", ")]),
  );
}

function decompressor(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * Keeps at most maxBytes of the decoded body and then hangs up: a receiver that streams forever (or a
 * small gzip bomb) must not hold the attempt or our memory. The status has already arrived, so a
 * broken body or stream ends the reading, never the delivery.
 */
function readBody(res: IncomingMessage, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve) => {
    const inflate = decompressor(res.headers["content-encoding"]);
    const source = inflate === undefined ? res : res.pipe(inflate);
    const chunks: Buffer[] = [];
    let kept = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      if (truncated) res.destroy();
      inflate?.destroy();
      const decoder = new StringDecoder("utf8");
      // A cut body ends mid-character at worst; write() holds back the incomplete bytes, end() would not.
      const text = decoder.write(Buffer.concat(chunks));
      resolve({ text: truncated ? text : text + decoder.end(), truncated });
    };
    source.on("data", (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - kept;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(chunk.length, room);
      if (chunk.length > room) finish(true);
    });
    source.on("end", () => finish(false));
    source.on("error", () => finish(false));
    res.on("error", () => finish(false));
    res.on("close", () => {
      if (!res.complete) finish(false);
    });
  });
}

/** The error's own words without a stack; certificate problems say so, as OpenSSL's codes do not read well. */
function describeError(err: Error): string {
  if (err instanceof AggregateError && err.message === "") {
    return err.errors.map((inner: Error) => describeError(inner)).join("; ");
  }
  const code = (err as NodeJS.ErrnoException).code ?? "";
  if (/CERT|SIGNATURE|ISSUER|SELF_SIGNED/.test(code)) return `certificate: ${err.message}`;
  return err.message;
}
