/**
 * Telling an outage from a bug. A dependency that does not answer (a database restarting, its
 * connections cut, an S3 endpoint or a replica gone) is not our fault and passes: callers get
 * UNAVAILABLE, which the gateway answers as 503 with Retry-After, instead of INTERNAL and a 500.
 */
import { Code, ConnectError } from "@connectrpc/connect";

/** Socket and resolver failures of Node (and undici) when a peer is down or unreachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** HTTP/2 failures of a connection to another service that broke while a call was on it. */
const HTTP2_BREAKS = new Set([
  "ERR_HTTP2_STREAM_ERROR",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_INVALID_SESSION",
  "ERR_HTTP2_PING_CANCEL",
]);

/**
 * PostgreSQL: SQLSTATE class 08 (connection exception), 57P01–57P03 (shut down by an
 * administrator or a crash, or starting) and 53300 (too many connections).
 */
const POSTGRES_OUTAGE = /^(08...|57P0[123]|53300)$/;

/** node-postgres reports a connection lost or never made with messages only. */
const POSTGRES_CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Every error in a chain of causes (and of an AggregateError's errors), each once. */
function* chain(err: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const pending = [err];
  while (pending.length > 0) {
    const next = pending.shift();
    // Node's own errors may come from another realm (as under jest): no `instanceof Error`.
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    const error = next as ErrorLike;
    yield error;
    pending.push(error.cause);
    if (Array.isArray(error.errors)) pending.push(...error.errors);
  }
}

/** Whether an error is a dependency not answering rather than a fault of ours. */
export function isDependencyOutage(err: unknown): boolean {
  for (const error of chain(err)) {
    const code = typeof error.code === "string" ? error.code : "";
    if (NETWORK_CODES.has(code) || POSTGRES_OUTAGE.test(code)) return true;
    if (typeof error.message === "string" && POSTGRES_CONNECTION_LOST.test(error.message)) return true;
  }
  return false;
}

/** Whether an error, or one of its causes, is a socket or an HTTP/2 connection breaking. */
function brokenConnection(err: unknown): boolean {
  return [...chain(err)].some((error) => {
    const code = typeof error.code === "string" ? error.code : "";
    return HTTP2_BREAKS.has(code) || NETWORK_CODES.has(code);
  });
}

/**
 * A call whose connection to another service broke after it was sent: the replica may or may not
 * have acted on it, so the honest answer is UNAVAILABLE (a client retries with its idempotency key),
 * not the ABORTED, INTERNAL or CANCELED that the broken stream would otherwise read as. A CANCELED
 * is kept only when the caller itself gave up (`callerGaveUp`).
 */
export function asBrokenCall(err: unknown, service: string, callerGaveUp: boolean): unknown {
  let broken: boolean;
  if (err instanceof ConnectError) {
    if (err.code === Code.Unavailable || err.code === Code.DeadlineExceeded) return err;
    if (err.code === Code.Canceled && callerGaveUp) return err;
    // A stream the replica reset (RST_STREAM CANCEL, as a process shutting down does) has no cause chain.
    broken = (err.code === Code.Canceled && /\bCANCEL\b/.test(err.rawMessage)) || brokenConnection(err.cause);
  } else {
    // A call that writes its own frames (BalancedTransport.onConnection) sees the socket's errors as they are.
    broken = !callerGaveUp && brokenConnection(err);
  }
  if (!broken) return err;
  return new ConnectError(
    `the connection to ${service} broke during the call`,
    Code.Unavailable,
    undefined,
    undefined,
    err,
  );
}
