/**
 * The one way out: every HTTP call a service makes to a peer outside the deployment (a webhook
 * endpoint, an identity provider, a time-stamping authority, an OCSP responder or CRL server) goes
 * through an OutboundClient, so the bounds are the mechanism's, not each caller's memory: the answer's
 * (decoded) bytes are capped per kind of answer, the whole exchange has one deadline, redirects are
 * followed only as far as the kind allows (each hop checked again), and peers an outside party names
 * are reached only on public addresses (address-policy.ts) unless an operator lists their network.
 * The lint forbids `fetch` and `node:http(s)` requests in services elsewhere.
 */
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from "node:http";
import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { pipeline, type Readable } from "node:stream";
import tls from "node:tls";
import zlib from "node:zlib";
import {
  guardedLookup,
  type LookupAll,
  literalHost,
  type Network,
  refusalReason,
  UnreachableAddress,
} from "./address-policy.js";
import type { Logger } from "./logger.js";
import { injectTraceContext, inSpan, SpanKind } from "./tracing.js";

/** How much of one kind of answer is read, and for how long. */
export interface AnswerLimits {
  /** Most bytes of the decoded body. */
  maxBytes: number;
  /** The whole exchange: resolving, connecting, sending, the answer's headers and body. */
  timeoutMs: number;
  /** Redirects followed, each hop checked again; past them the call fails. 0 (the default): none. */
  redirects?: number;
  /**
   * "whole" (the default): an answer over maxBytes, or cut short, is an error — it is data we act on.
   * "first-bytes": the first maxBytes are kept and the rest is not read, and a body cut short is kept
   * as it came — an answer we only record (a webhook receiver's).
   */
  keep?: "whole" | "first-bytes";
}

export interface OutboundClientOptions {
  /** What the calls are for, in operators' log lines ("webhook delivery", "identity provider"). */
  purpose: string;
  /**
   * "public": peers an outside party names — only public internet addresses and `allowNetworks`.
   * "any": peers the operator configured (a time-stamping authority's URL) — any address.
   */
  reach: "public" | "any";
  /** Networks reachable although not public (CIDR blocks, parsed with parseNetworks). */
  allowNetworks?: readonly Network[];
  /** Extra trusted CA certificates (PEM), added to Node's roots rather than replacing them. */
  extraCa?: string;
  /** Resolver used instead of the system's (tests resolve names to loopback with it). */
  lookup?: LookupAll;
  /** Sockets kept open per origin for reuse. Default 8. */
  maxSocketsPerOrigin?: number;
  /** Where refusals are written with their address and range; callers never read those. */
  logger?: Logger;
}

/** "unresolved": the name gave no address — told to the caller in the same words as "refused". */
export type OutboundFailure =
  | "refused"
  | "unresolved"
  | "too-large"
  | "timeout"
  | "redirects"
  | "network"
  | "aborted";

/** A call that did not produce an answer; the message is fit for whoever asked (no internal address). */
export class OutboundError extends Error {
  override name = "OutboundError";

  /** The bound that was met: the deadline in ms for "timeout", the byte cap for "too-large". */
  readonly limit: number | undefined;

  constructor(
    message: string,
    readonly failure: OutboundFailure,
    options?: ErrorOptions & { limit?: number },
  ) {
    super(message, options);
    this.limit = options?.limit;
  }
}

/**
 * What a peer did, in words that follow its name ("the time-stamping authority at tsa:443 did not
 * answer within 10000 ms"): the operators' and senders' view of a call that produced no answer.
 */
export function peerFailure(err: unknown): string {
  const failure = err instanceof OutboundError ? err.failure : "network";
  switch (failure) {
    case "timeout":
      return `did not answer within ${(err as OutboundError).limit} ms`;
    case "too-large":
      return `answered more than ${(err as OutboundError).limit} bytes`;
    case "redirects":
      return "redirected further than allowed";
    default:
      return "could not be reached";
  }
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The caller's own cancellation (a client that went away), besides the limits' deadline. */
  signal?: AbortSignal;
  /** Fields for the operators' log line of a refusal (an endpoint id). */
  logFields?: Record<string, string>;
}

export interface OutboundAnswer {
  status: number;
  statusText: string;
  /** Repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** With keep "first-bytes": the body was longer than maxBytes, or ended early. */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
  durationMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class OutboundClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly allowNetworks: readonly Network[];

  constructor(private readonly options: OutboundClientOptions) {
    this.allowNetworks = options.allowNetworks ?? [];
    const maxSockets = options.maxSocketsPerOrigin ?? 8;
    const lookup = options.reach === "public" ? guardedLookup(this.allowNetworks, options.lookup) : undefined;
    const shared = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, ...(lookup ? { lookup } : {}) };
    this.httpAgent = new http.Agent(shared);
    this.httpsAgent = new https.Agent({
      ...shared,
      rejectUnauthorized: true,
      // One context made now: given as `ca`, the roots would be parsed again for every connection.
      ...(options.extraCa === undefined
        ? {}
        : { secureContext: tls.createSecureContext({ ca: [...tls.rootCertificates, options.extraCa] }) }),
    });
  }

  /** One exchange within `limits`; throws OutboundError when there is no answer to give. */
  async request(url: string | URL, request: OutboundRequest, limits: AnswerLimits): Promise<OutboundAnswer> {
    const started = performance.now();
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    let target = typeof url === "string" ? parseUrl(url) : url;
    let method = (request.method ?? "GET").toUpperCase();
    let body = request.body;
    // Lower-case names, so that the credentials below are found however the caller spelt them.
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    for (let hop = 0; ; hop++) {
      const answer = await this.exchange(target, method, headers, body, limits, signal, request.logFields);
      const location = REDIRECTS.has(answer.status) ? answer.headers.location : undefined;
      if (location === undefined || (limits.redirects ?? 0) === 0) {
        return { ...answer, durationMs: Math.round((performance.now() - started) * 10) / 10 };
      }
      if (hop >= (limits.redirects ?? 0))
        throw new OutboundError(`${target.host} redirected more than ${limits.redirects} times`, "redirects");
      const next = parseUrl(new URL(location, target).href);
      if (target.protocol === "https:" && next.protocol !== "https:")
        throw new OutboundError(`${target.host} redirected from https to ${next.protocol}`, "redirects");
      // A credential is for the origin it was given to.
      if (next.origin !== target.origin)
        for (const name of ["authorization", "cookie", "proxy-authorization"]) delete headers[name];
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        delete headers["content-type"];
      }
      target = next;
    }
  }

  /**
   * A `fetch` for libraries that take one (openid-client's customFetch): the same exchange within
   * `limits`, answered as a Response whose body is already read. `redirect: "manual"` answers a 3xx as
   * it is, "error" fails on one, "follow" follows as far as the limits allow.
   */
  fetcher(limits: AnswerLimits): (url: string | URL, init?: RequestInit) => Promise<Response> {
    return async (url, init = {}) => {
      const followed =
        init.redirect === "follow" || init.redirect === undefined ? limits : { ...limits, redirects: 0 };
      const answer = await this.request(
        url,
        {
          method: init.method,
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          body: await requestBody(init.body),
          signal: init.signal ?? undefined,
        },
        followed,
      );
      if (init.redirect === "error" && REDIRECTS.has(answer.status))
        throw new OutboundError(`${new URL(answer.url).host} answered a redirect`, "redirects");
      return toResponse(answer);
    };
  }

  /** Closes kept-alive sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private exchange(
    target: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    limits: AnswerLimits,
    signal: AbortSignal,
    logFields: Record<string, string> = {},
  ): Promise<Omit<OutboundAnswer, "durationMs">> {
    if (target.protocol !== "https:" && target.protocol !== "http:")
      return Promise.reject(new OutboundError(`${target.protocol} URLs are not requested`, "refused"));
    // Node skips the agent's lookup for an IP literal, so one is checked here.
    const literal = literalHost(target);
    const literalWhy =
      this.options.reach === "public" && literal !== undefined
        ? refusalReason(literal, this.allowNetworks)
        : undefined;
    if (literalWhy !== undefined)
      return Promise.reject(this.refused(new UnreachableAddress(literalWhy, true), logFields));
    return inSpan(
      method,
      {
        kind: SpanKind.CLIENT,
        onlyInTrace: true,
        attributes: {
          "http.request.method": method,
          "server.address": target.hostname,
          // Not the path: a webhook endpoint's or a provider's path may carry a token.
          "url.scheme": target.protocol.replace(":", ""),
        },
      },
      async (span) => {
        const answer = await this.send(target, method, headers, body, limits, signal, logFields);
        span?.setAttribute("http.response.status_code", answer.status);
        return answer;
      },
    );
  }

  private send(
    target: URL,
    method: string,
    given: Record<string, string>,
    body: string | Uint8Array | undefined,
    limits: AnswerLimits,
    signal: AbortSignal,
    logFields: Record<string, string>,
  ): Promise<Omit<OutboundAnswer, "durationMs">> {
    const headers: OutgoingHttpHeaders = { "user-agent": "Countersign/1" };
    for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
    // Only encodings the reader can undo, counted after decoding.
    headers["accept-encoding"] = "gzip, deflate, br";
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    injectTraceContext({
      set: (name, value) => {
        headers[name] = value;
      },
    });
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => reject(this.failure(err, target, limits, signal, logFields));
      let req: ClientRequest;
      try {
        req = (target.protocol === "https:" ? https : http).request(target, {
          agent: target.protocol === "https:" ? this.httpsAgent : this.httpAgent,
          method,
          headers,
          signal,
        });
      } catch (err) {
        // Header names or values Node will not send throw here, before any connection.
        fail(err as Error);
        return;
      }
      req.on("error", fail);
      req.on("response", (res) => {
        readBody(res, target.host, limits, signal).then(
          ({ bytes, truncated }) =>
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? "",
              headers: Object.fromEntries(
                Object.entries(res.headersDistinct).map(([name, values]) => [
                  name,
                  (values ?? []).join(", "),
                ]),
              ),
              body: bytes,
              truncated,
              url: target.href,
            }),
          fail,
        );
      });
      req.end(body);
    });
  }

  private failure(
    err: Error,
    target: URL,
    limits: AnswerLimits,
    signal: AbortSignal,
    logFields: Record<string, string>,
  ): OutboundError {
    if (err instanceof OutboundError) return err;
    if (err instanceof UnreachableAddress) return this.refused(err, logFields);
    const cause = err.cause instanceof UnreachableAddress ? err.cause : undefined;
    if (cause) return this.refused(cause, logFields);
    if (signal.aborted) {
      const timedOut = (signal.reason as Error | undefined)?.name === "TimeoutError";
      return timedOut
        ? new OutboundError(`timed out after ${limits.timeoutMs} ms`, "timeout", {
            cause: err,
            limit: limits.timeoutMs,
          })
        : new OutboundError(`the call to ${target.host} was cancelled`, "aborted", { cause: err });
    }
    return new OutboundError(describeError(err), "network", { cause: err });
  }

  private refused(err: UnreachableAddress, logFields: Record<string, string>): OutboundError {
    this.options.logger?.warn(
      { purpose: this.options.purpose, ...logFields, reason: err.detail },
      "outbound address refused; nothing sent",
    );
    return new OutboundError(err.message, err.refused ? "refused" : "unresolved", { cause: err });
  }
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new OutboundError("not a valid URL", "refused");
  }
}

/** The request bodies libraries hand a fetch: a form (a token request), text or bytes. */
async function requestBody(body: RequestInit["body"]): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new OutboundError("this kind of request body is not sent", "refused");
}

function toResponse(answer: OutboundAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    // The body is decoded and whole: its length and encoding are no longer the wire's.
    if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding")
      headers.set(name, value);
  }
  const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
  const response = new Response(empty ? null : new Uint8Array(answer.body), {
    status: answer.status < 200 || answer.status > 599 ? 502 : answer.status,
    statusText: answer.statusText,
    headers,
  });
  Object.defineProperty(response, "url", { value: answer.url });
  return response;
}

function decoder(
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
 * Reads at most limits.maxBytes of the decoded body and then hangs up: a peer that streams forever,
 * or a small gzip bomb, holds neither the call nor our memory. A declared length over the cap is
 * refused before a byte is read.
 */
async function readBody(
  res: IncomingMessage,
  host: string,
  limits: AnswerLimits,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const whole = (limits.keep ?? "whole") === "whole";
  const tooLarge = () =>
    new OutboundError(`${host} answered more than ${limits.maxBytes} bytes`, "too-large", {
      limit: limits.maxBytes,
    });
  const declared = Number(res.headers["content-length"]);
  const inflate = decoder(res.headers["content-encoding"]);
  if (whole && inflate === undefined && declared > limits.maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const source: Readable = inflate === undefined ? res : pipeline(res, inflate, () => {});
  const chunks: Buffer[] = [];
  let kept = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = limits.maxBytes - kept;
      if (chunk.length > room) {
        if (whole) throw tooLarge();
        chunks.push(chunk.subarray(0, room));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      kept += chunk.length;
    }
    if (!res.complete && whole) throw new OutboundError(`${host} ended its answer early`, "network");
    return { bytes: Buffer.concat(chunks), truncated: !res.complete };
  } catch (err) {
    // The status has arrived: an answer only recorded keeps what came; one acted on fails.
    if (whole || signal.aborted || err instanceof OutboundError) throw err;
    return { bytes: Buffer.concat(chunks), truncated: true };
  } finally {
    res.destroy();
    inflate?.destroy();
  }
}

/** The error's own words without a stack; certificate problems say so, as OpenSSL's codes do not read well. */
export function describeError(err: Error): string {
  if (err instanceof AggregateError && err.message === "") {
    return err.errors.map((inner: Error) => describeError(inner)).join("; ");
  }
  const code = (err as NodeJS.ErrnoException).code ?? "";
  if (/CERT|SIGNATURE|ISSUER|SELF_SIGNED/.test(code)) return `certificate: ${err.message}`;
  return err.message;
}
