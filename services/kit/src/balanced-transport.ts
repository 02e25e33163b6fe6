/**
 * Client-side balancing over every replica of a service. One HTTP/2 connection carries all of a
 * client's calls, so behind a ClusterIP Service every caller would stay on the one pod its
 * connection reached. Instead a service's address names all its replicas: a list of URLs, and each
 * host name in it is resolved to all its addresses (a headless Service answers with one per ready
 * pod) again every few seconds. Each call goes to the less busy of two replicas picked at random
 * (power of two choices, Envoy's LEAST_REQUEST); a call that never reached its replica (connection
 * refused, or refused by a replica that is shutting down) is tried on the next one, and that
 * replica rests for a while.
 */
import { lookup } from "node:dns/promises";
import type http2 from "node:http2";
import { isIP } from "node:net";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import {
  type ConnectTransportOptions,
  createConnectTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { asBrokenCall } from "./outage.js";

/** Each replica is reached by the Connect protocol over HTTP/2 (see transport.ts for why not gRPC). */
type ReplicaTransportOptions = Extract<ConnectTransportOptions, { httpVersion: "2" }>;

export interface BalancerOptions {
  /** How often host names are resolved again. */
  refreshMs?: number;
  /** How long a replica that refused a connection is left out, doubling on each refusal. */
  restMs?: number;
  maxRestMs?: number;
  /** The connection options of each replica's transport (everything but its address and protocol). */
  transport: Omit<ReplicaTransportOptions, "baseUrl" | "sessionManager" | "httpVersion" | "useBinaryFormat">;
  /** How host names are resolved; tests replace it. */
  resolve?: (host: string) => Promise<string[]>;
}

/** Request-stream messages kept to send again elsewhere (a document chunk is at most 1 MiB). */
const REPLAYABLE_MESSAGES = 4;

/** A failure before the request left this process: safe to send to another replica. */
class NotSent extends Error {
  override name = "NotSent";
}

interface Replica {
  key: string;
  transport: Transport;
  sessions: ReportingSessions;
  inFlight: number;
  calls: number;
  restUntil: number;
  restMs: number;
}

/** A replica's HTTP/2 connection, for a call that writes its own frames (see onConnection). */
export interface ReplicaConnection {
  /** Opens a request on the connection; a failure to open it is one that sent nothing. */
  request(path: string, headers: http2.OutgoingHttpHeaders): Promise<http2.ClientHttp2Stream>;
  /** To be called as the answer's bytes are read: it keeps the connection from counting as idle. */
  read(stream: http2.ClientHttp2Stream): void;
}

export interface BalancedTransport extends Transport {
  /** Calls each replica has taken, by its URL; for tests and the launcher's report. */
  callsByReplica(): Record<string, number>;
  /**
   * Runs a call on a replica's connection, chosen and counted as every call is. A call the replica
   * never took (its request could not be opened, or was refused) goes to another replica while
   * `replayable` says it can be made again: until it has taken anything of its input.
   */
  onConnection<T>(
    call: (connection: ReplicaConnection) => Promise<T>,
    replayable: () => boolean,
    signal?: AbortSignal,
  ): Promise<T>;
}

export function balancedTransport(address: string, options: BalancerOptions): BalancedTransport {
  const targets = parseAddress(address);
  const refreshMs = options.refreshMs ?? 5_000;
  const restMs = options.restMs ?? 1_000;
  const maxRestMs = options.maxRestMs ?? 30_000;
  const resolveHost = options.resolve ?? resolveAll;
  const replicas = new Map<string, Replica>();
  let resolvedAt = 0;
  let resolving: Promise<void> | undefined;

  const replicaFor = (url: URL): Replica => {
    const key = url.origin;
    let replica = replicas.get(key);
    if (!replica) {
      const sessions = new ReportingSessions(url, options.transport);
      replica = {
        key,
        transport: createConnectTransport({
          ...options.transport,
          httpVersion: "2",
          useBinaryFormat: true,
          baseUrl: url.toString(),
          sessionManager: sessions,
        }),
        sessions,
        inFlight: 0,
        calls: 0,
        restUntil: 0,
        restMs,
      };
      replicas.set(key, replica);
    }
    return replica;
  };

  /** Replaces the replicas with what the targets resolve to now; a failed lookup keeps the last answer. */
  const refresh = async (): Promise<void> => {
    const current = new Set<string>();
    let failed = false;
    for (const target of targets) {
      if (isIP(unbracket(target.hostname)) || target.hostname === "localhost") {
        current.add(replicaFor(target).key);
        continue;
      }
      const ips = await resolveHost(target.hostname).catch(() => undefined);
      if (!ips?.length) {
        failed = true;
        continue;
      }
      for (const ip of ips) {
        const url = new URL(target);
        url.hostname = isIP(ip) === 6 ? `[${ip}]` : ip;
        current.add(replicaFor(url).key);
      }
    }
    if (failed && current.size === 0) return;
    // A replica that left is no longer chosen; its connection closes once idle.
    for (const key of replicas.keys()) if (!current.has(key)) replicas.delete(key);
    resolvedAt = Date.now();
  };

  const ensureFresh = async (): Promise<void> => {
    const stale = Date.now() - resolvedAt >= refreshMs;
    if (!stale && replicas.size > 0) return;
    resolving ??= refresh().finally(() => {
      resolving = undefined;
    });
    // With replicas known, a stale list is refreshed in the background, not on the caller's time.
    if (replicas.size === 0) await resolving;
  };

  const choose = (tried: Set<Replica>): Replica | undefined => {
    const now = Date.now();
    const open = [...replicas.values()].filter((r) => !tried.has(r));
    const awake = open.filter((r) => r.restUntil <= now);
    // When every replica rests, try the one that rests least rather than fail without trying.
    const pool = awake.length > 0 ? awake : open.sort((a, b) => a.restUntil - b.restUntil).slice(0, 1);
    if (pool.length < 2) return pool[0];
    const first = pool[Math.floor(Math.random() * pool.length)] as Replica;
    let second = pool[Math.floor(Math.random() * (pool.length - 1))] as Replica;
    if (second === first) second = pool[pool.length - 1] as Replica;
    return second.inFlight < first.inFlight ? second : first;
  };

  async function dispatch<T>(
    call: (replica: Replica) => Promise<T>,
    replayable: () => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    await ensureFresh();
    const tried = new Set<Replica>();
    for (;;) {
      const replica = choose(tried);
      if (!replica) {
        throw new ConnectError(`no replica of ${address} could be reached`, Code.Unavailable);
      }
      tried.add(replica);
      replica.inFlight++;
      replica.calls++;
      try {
        const result = await call(replica);
        replica.restMs = restMs;
        return result;
      } catch (err) {
        if (!neverReachedServer(err)) throw asBrokenCall(err, address, signal?.aborted === true);
        replica.restUntil = Date.now() + replica.restMs;
        replica.restMs = Math.min(maxRestMs, replica.restMs * 2);
        if (!replayable() || tried.size >= replicas.size) {
          throw new ConnectError(
            `no replica of ${address} could be reached`,
            Code.Unavailable,
            undefined,
            undefined,
            err,
          );
        }
      } finally {
        replica.inFlight--;
      }
    }
  }

  const unary = (...args: Parameters<Transport["unary"]>) =>
    dispatch(
      ({ transport }) => transport.unary(...args),
      () => true,
      args[1],
    );
  const stream = (...args: Parameters<Transport["stream"]>) => {
    const [method, signal, timeoutMs, header, input, contextValues] = args;
    const request = new ReplayableStream(input, REPLAYABLE_MESSAGES);
    return dispatch(
      ({ transport }) =>
        transport.stream(method, signal, timeoutMs, header, request.attempt(), contextValues),
      () => request.replayable(),
      signal,
    ).catch(async (err: unknown) => {
      await request.close();
      throw err;
    });
  };
  return {
    unary: unary as Transport["unary"],
    stream: stream as Transport["stream"],
    callsByReplica() {
      return Object.fromEntries([...replicas.values()].map((r) => [r.key, r.calls]));
    },
    onConnection: (call, replayable, signal) =>
      dispatch(
        ({ sessions }) =>
          call({
            request: (path, headers) => sessions.request("POST", path, headers, {}),
            read: (stream) => sessions.notifyResponseByteRead(stream),
          }),
        replayable,
        signal,
      ),
  };
}

/** The service addresses of one variable: `http://a:8080` or `http://a:8080,http://b:8080`. */
export function parseAddress(address: string): URL[] {
  const parts = address
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error("no address given");
  return parts.map((part) => {
    const url = new URL(part);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Error(`${part} is not an http(s) URL`);
    return url;
  });
}

async function resolveAll(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true });
  return [...new Set(answers.map((answer) => answer.address))];
}

function unbracket(host: string): string {
  return host.startsWith("[") ? host.slice(1, -1) : host;
}

/**
 * Whether a call failed before its replica could act on it: the connection could not be opened
 * or the stream was refused (HTTP/2 REFUSED_STREAM, which a server answers only for streams it
 * did not process, such as those beyond its GOAWAY).
 */
function neverReachedServer(err: unknown): boolean {
  const seen = new Set<unknown>();
  // Node's own errors may come from another realm (as under jest), so no `instanceof Error` here.
  for (let cause = err as ErrorLike | undefined; cause && !seen.has(cause); cause = cause.cause) {
    seen.add(cause);
    if (cause instanceof NotSent) return true;
    if (cause.code === "ERR_HTTP2_STREAM_ERROR" && /\bNGHTTP2_REFUSED_STREAM\b/.test(String(cause.message)))
      return true;
    if (
      cause instanceof ConnectError &&
      cause.code === Code.Unavailable &&
      /\bREFUSED_STREAM\b/.test(cause.message)
    )
      return true;
  }
  return false;
}

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  cause?: ErrorLike;
}

const guarded = new WeakSet<object>();

/**
 * Keeps a connection's late error from ending the process. When a replica that is stopping sends
 * GOAWAY to an idle connection, the session manager destroys it with an error that Node raises only
 * once the socket has closed; if a call reconnected meanwhile, the manager has removed its own
 * listeners, and the error would be uncaught (connect-es issue 1768, seen in the chaos suite as a
 * gateway that exited). The manager has already moved on; the error has nobody left to tell.
 */
function guardSession(session: http2.Http2Session | undefined): void {
  if (!session || guarded.has(session)) return;
  guarded.add(session);
  session.on("error", () => {});
}

/** Marks a failure to start a request on the replica's connection as one that sent nothing. */
class ReportingSessions
  implements Pick<Http2SessionManager, "authority" | "request" | "notifyResponseByteRead">
{
  private readonly inner: Http2SessionManager;
  readonly authority: string;

  constructor(url: URL, options: BalancerOptions["transport"]) {
    this.inner = new Http2SessionManager(
      url,
      {
        pingIntervalMs: options.pingIntervalMs,
        pingIdleConnection: options.pingIdleConnection,
        pingTimeoutMs: options.pingTimeoutMs,
        idleConnectionTimeoutMs: options.idleConnectionTimeoutMs,
      },
      options.nodeOptions as http2.ClientSessionOptions | undefined,
    );
    this.authority = this.inner.authority;
  }

  async request(
    method: string,
    path: string,
    headers: http2.OutgoingHttpHeaders,
    options: Omit<http2.ClientSessionRequestOptions, "signal">,
  ): Promise<http2.ClientHttp2Stream> {
    try {
      const stream = await this.inner.request(method, path, headers, options);
      guardSession(stream.session);
      return stream;
    } catch (err) {
      throw new NotSent(`the request was not sent: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  }

  notifyResponseByteRead(stream: http2.ClientHttp2Stream): void {
    this.inner.notifyResponseByteRead(stream);
  }
}

/**
 * A request stream that can be sent again while what was taken of it is small: a transport takes
 * the first message before it knows whether the connection opens, so those are kept to replay.
 */
class ReplayableStream<T> {
  private readonly source: AsyncIterator<T>;
  private taken: T[] = [];
  private overflowed = false;

  constructor(
    input: AsyncIterable<T>,
    private readonly keep: number,
  ) {
    this.source = input[Symbol.asyncIterator]();
  }

  /** Whether everything taken so far can be sent again. */
  replayable(): boolean {
    return !this.overflowed;
  }

  /** A fresh pass: what was taken already, then the rest of the source. */
  attempt(): AsyncIterable<T> {
    const stream = this;
    return {
      async *[Symbol.asyncIterator]() {
        yield* stream.taken;
        for (;;) {
          const next = await stream.source.next();
          if (next.done) return;
          if (!stream.overflowed && stream.taken.length < stream.keep) stream.taken.push(next.value);
          else {
            stream.overflowed = true;
            stream.taken = [];
          }
          yield next.value;
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.source.return?.();
  }
}
