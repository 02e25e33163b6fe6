/**
 * The HTTP client every delivery, retry and test-fire goes through. Endpoint URLs come from
 * customers, so the client is a server-side request forgery risk: it posts to `https:` only, and it
 * checks the address it is about to connect to — after DNS, in the socket's own lookup, so a name
 * that resolves to a public address when the endpoint is saved and to 169.254.169.254 later
 * (DNS rebinding) is still refused. Address classes come from `ipaddr.js`, not from our parsing.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import tls from "node:tls";
import zlib from "node:zlib";
import ipaddr from "ipaddr.js";

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedClientOptions {
  /** CIDR blocks deliveries may reach although they are not public (parseNetworks). */
  allowNetworks?: readonly Network[];
  /** Extra trusted CA certificates (PEM), added to Node's roots. */
  extraCa?: string;
  /** The whole attempt: connect, TLS, the answer's headers and body. */
  timeoutMs?: number;
  /** How much of the decompressed answer body is kept. */
  maxBodyBytes?: number;
  /** Resolves names instead of the system resolver (tests). */
  lookup?: LookupAll;
  /** Kept-alive sockets per origin. */
  maxSocketsPerOrigin?: number;
}

export type PostOutcome =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      body: string;
      bodyTruncated: boolean;
      durationMs: number;
    }
  | { kind: "error"; error: string; refused: boolean; durationMs: number };

/** Readable words for ipaddr.js's range names; any other range is named as it is. */
const RANGE_WORDS: Record<string, string> = {
  private: "a private address",
  uniqueLocal: "a unique local (private) address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT (CGNAT) address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  reserved: "in a reserved or documentation range",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "an IPv4-embedded IPv6 address (NAT64)",
  "6to4": "a 6to4 relay address",
  teredo: "a Teredo tunnel address",
};

class RefusedAddress extends Error {}

/** "127.0.0.0/8, ::1/128" → networks; an entry that is not a CIDR block throws, naming it. */
export function parseNetworks(list: string): Network[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        return ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`"${entry}" is not a CIDR block, such as 10.0.0.0/8`);
      }
    });
}

/** Why an address may not be reached, in words, or undefined when it may. */
export function refusalReason(address: string, allowNetworks: readonly Network[]): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (
    allowNetworks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))
  ) {
    return undefined;
  }
  const range = parsed.range();
  if (range === "unicast") return undefined;
  return `${address} is ${RANGE_WORDS[range] ?? `in the special-purpose range "${range}"`}`;
}

/** Why a URL can never be a webhook endpoint, or undefined. Names are checked when a delivery connects. */
export function endpointUrlProblem(url: string, allowNetworks: readonly Network[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute https: URL";
  }
  if (parsed.protocol !== "https:") return "must be an https: URL";
  if (parsed.username || parsed.password) return "must not contain a user name or password";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const reason = refusalReason(host, allowNetworks);
    if (reason) return `cannot be delivered to: ${reason}`;
  }
  return undefined;
}

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function decoderFor(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Unzip | zlib.BrotliDecompress | undefined {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
    case "deflate":
      return zlib.createUnzip();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Network errors in a line, without a stack: TLS failures say so. */
function describeError(err: Error & { code?: string }): string {
  if (err.code && /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/.test(err.code)) return `certificate: ${err.message}`;
  return err.message;
}

export class GuardedClient {
  private readonly allow: readonly Network[];
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly resolve: LookupAll;
  private readonly agent: https.Agent;

  constructor(options: GuardedClientOptions = {}) {
    this.allow = options.allowNetworks ?? [];
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 20 * 1024;
    this.resolve = options.lookup ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: options.maxSocketsPerOrigin ?? 8,
      lookup: this.guardedLookup,
      ...(options.extraCa ? { ca: [...tls.rootCertificates, options.extraCa] } : {}),
    });
  }

  /** Posts the body; every failure, refusal and timeout is an outcome, never a throw. */
  post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const refused = (error: string): Promise<PostOutcome> =>
      Promise.resolve({ kind: "error", error, refused: true, durationMs: elapsed() });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return refused("the endpoint URL is not a valid URL");
    }
    if (target.protocol !== "https:") return refused("only https URLs are delivered to");
    // Node skips the lookup for an address literal, so the guard in it would never see one.
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    if (isIP(literal)) {
      const reason = refusalReason(literal, this.allow);
      if (reason) return refused(`refused: ${reason}`);
    }
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = https.request(
        target,
        {
          method: "POST",
          agent: this.agent,
          headers: {
            "content-type": "application/json",
            "user-agent": "Countersign-Webhooks/1",
            "accept-encoding": "gzip, deflate, br",
            ...headers,
            "content-length": Buffer.byteLength(body),
          },
        },
        (response) => this.read(response, elapsed, settle),
      );
      const timer = setTimeout(
        () => request.destroy(new Error(`timed out after ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      request.on("error", (err: Error & { code?: string }) =>
        settle({
          kind: "error",
          error: err instanceof RefusedAddress ? `refused: ${err.message}` : describeError(err),
          refused: err instanceof RefusedAddress,
          durationMs: elapsed(),
        }),
      );
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }

  /** Reads at most maxBodyBytes of the decompressed body; an answer that goes on is cut off there. */
  private read(response: IncomingMessage, elapsed: () => number, settle: (outcome: PostOutcome) => void) {
    const decoder = decoderFor(response.headers["content-encoding"]);
    const source: Readable = decoder ? response.pipe(decoder) : response;
    const text = new StringDecoder("utf8");
    let body = "";
    let kept = 0;
    let truncated = false;
    const finish = () => {
      settle({
        kind: "response",
        status: response.statusCode ?? 0,
        headers: headersOf(response.headers),
        body,
        bodyTruncated: truncated,
        durationMs: elapsed(),
      });
      response.destroy();
      decoder?.destroy();
    };
    source.on("data", (chunk: Buffer) => {
      const room = this.maxBodyBytes - kept;
      if (chunk.length > room) {
        // A partial character at the cut stays in the decoder and is dropped with it.
        body += text.write(chunk.subarray(0, room));
        truncated = true;
        finish();
        return;
      }
      body += text.write(chunk);
      kept += chunk.length;
    });
    source.on("end", () => {
      body += text.end();
      finish();
    });
    // A body that cannot be decompressed, or a connection lost mid-body: the status has been said.
    source.on("error", finish);
    response.on("error", finish);
    response.on("aborted", finish);
  }

  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const candidates = addresses.filter((a) => !wanted || a.family === wanted);
        const allowed = candidates.filter((a) => !refusalReason(a.address, this.allow));
        if (allowed.length === 0) {
          const first = candidates[0];
          const reason = first
            ? `${hostname} resolves to ${refusalReason(first.address, this.allow)}`.replace(
                `to ${first.address} is `,
                `to ${first.address}, `,
              )
            : `${hostname} has no address`;
          callback(new RefusedAddress(reason), "", 0);
          return;
        }
        if (options.all) callback(null, allowed);
        else
          callback(
            null,
            (allowed[0] as { address: string }).address,
            (allowed[0] as { family: number }).family,
          );
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}
