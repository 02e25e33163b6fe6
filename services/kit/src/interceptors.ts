/**
 * Interceptors every service installs: the call context (request id, deadline), masking of
 * unexpected errors, RPC metrics, and the shared service token that keeps anyone but our own
 * processes from calling a service.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { acceptRequestId, REQUEST_ID_HEADER, runWithCallContext } from "./context.js";
import type { Logger } from "./logger.js";
import type { RpcMetrics } from "./metrics.js";
import { isDependencyOutage } from "./outage.js";

export function callContextInterceptor(): Interceptor {
  return (next) => (req) => {
    const timeoutMs = parseTimeout(req.header);
    return runWithCallContext(
      {
        requestId: acceptRequestId(req.header.get(REQUEST_ID_HEADER)),
        deadline: timeoutMs === undefined ? undefined : Date.now() + timeoutMs,
        signal: req.signal,
      },
      () => next(req),
    );
  };
}

/** The timeout a caller set, from the gRPC or Connect protocol header. */
function parseTimeout(header: Headers): number | undefined {
  const connect = header.get("connect-timeout-ms");
  if (connect && /^\d{1,10}$/.test(connect)) return Number(connect);
  const grpc = /^(\d{1,8})([HMSmun])$/.exec(header.get("grpc-timeout") ?? "");
  if (!grpc) return undefined;
  const perUnit = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 } as const;
  return Number(grpc[1]) * perUnit[grpc[2] as keyof typeof perUnit];
}

/**
 * A ConnectError is a deliberate answer and goes out as it is. A failure after the caller hung up
 * is CANCELED, and a dependency that does not answer UNAVAILABLE (logged as a warning). Anything
 * else is a bug: it is logged here with its stack, and the caller gets "internal error" and no
 * internals.
 */
export function errorMaskingInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof ConnectError) throw err;
      // The caller hung up (a gateway stopped mid-upload, say): nobody is left to answer.
      if (req.signal.aborted) throw new ConnectError("the caller went away", Code.Canceled);
      const rpc = `${req.service.typeName}/${req.method.name}`;
      if (isDependencyOutage(err)) {
        logger.warn({ err, rpc }, "a dependency did not answer");
        throw new ConnectError("a dependency is not answering", Code.Unavailable);
      }
      logger.error({ err, rpc }, "unexpected error in RPC");
      throw new ConnectError("internal error", Code.Internal);
    }
  };
}

export function metricsInterceptor(metrics: RpcMetrics): Interceptor {
  return (next) => async (req) => {
    const stop = metrics.start(req.service.typeName, req.method.name);
    try {
      const res = await next(req);
      stop("OK");
      return res;
    } catch (err) {
      stop(Code[ConnectError.from(err).code] ?? "Unknown");
      throw err;
    }
  };
}
