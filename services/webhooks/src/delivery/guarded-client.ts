/**
 * How webhook deliveries, retries and test-fires go out: the kit's OutboundClient, reaching public
 * addresses only (endpoint URLs are chosen by API users, so the client must not become a way into our
 * own network), keeping the first 20 KB of a receiver's answer as a record, following no redirect
 * (a 3xx is the receiver's answer). This module adds what is the webhooks' own: https only, the
 * caller's headers over the defaults, and every outcome an answer rather than a throw.
 */
import { StringDecoder } from "node:string_decoder";
import {
  type Logger,
  type LookupAll,
  literalRefused,
  type Network,
  NOT_PUBLIC_ADDRESS,
  OutboundClient,
  OutboundError,
} from "@countersign/kit";

export {
  type LookupAll,
  type Network,
  NOT_PUBLIC_ADDRESS,
  parseNetworks,
  refusalReason,
} from "@countersign/kit";

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
  return literalRefused(parsed, allowNetworks) ? NOT_PUBLIC_ADDRESS : undefined;
}

export class GuardedClient {
  private readonly client: OutboundClient;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;

  constructor(options: GuardedClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 20 * 1024;
    this.client = new OutboundClient({
      purpose: "webhook delivery",
      reach: "public",
      allowNetworks: options.allowNetworks,
      extraCa: options.extraCa,
      lookup: options.lookup,
      maxSocketsPerOrigin: options.maxSocketsPerOrigin,
      logger: options.logger,
    });
  }

  /**
   * POSTs body with the given headers; never throws (network errors, refusals and timeouts are outcomes).
   * logFields (an endpoint id, say) go into the operators' log line of a refusal.
   */
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    logFields: Record<string, string> = {},
  ): Promise<PostOutcome> {
    const started = performance.now();
    const durationMs = () => Math.round((performance.now() - started) * 10) / 10;
    if (!URL.canParse(url))
      return { kind: "error", error: "not a valid URL", refused: true, durationMs: durationMs() };
    if (new URL(url).protocol !== "https:")
      return {
        kind: "error",
        error: "only https URLs are delivered to",
        refused: true,
        durationMs: durationMs(),
      };
    try {
      const answer = await this.client.request(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "Countersign-Webhooks/1",
            ...Object.fromEntries(
              Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
            ),
          },
          body,
          logFields,
        },
        { maxBytes: this.maxBodyBytes, timeoutMs: this.timeoutMs, keep: "first-bytes" },
      );
      return {
        kind: "response",
        status: answer.status,
        headers: answer.headers,
        body: utf8Prefix(answer.body, answer.truncated),
        bodyTruncated: answer.truncated,
        durationMs: answer.durationMs,
      };
    } catch (err) {
      const refused = err instanceof OutboundError && err.failure === "refused";
      return { kind: "error", error: (err as Error).message, refused, durationMs: durationMs() };
    }
  }

  /** Closes kept-alive sockets. */
  close(): void {
    this.client.close();
  }
}

/** The body as text; a cut one ends mid-character at worst, and that partial character is left out. */
function utf8Prefix(bytes: Buffer, truncated: boolean): string {
  const decoder = new StringDecoder("utf8");
  return truncated ? decoder.write(bytes) : decoder.write(bytes) + decoder.end();
}
