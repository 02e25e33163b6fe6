/**
 * Interceptors every service installs: the call context (request id, data mode, deadline), masking of
 * unexpected errors, RPC metrics, and the shared service token that keeps anyone but our own
 * processes from calling a service.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import {
  acceptDataMode,
  acceptRequestId,
  DATA_MODE_HEADER,
  REQUEST_ID_HEADER,
  runWithCallContext,
} from "./context.js";
import type { Logger } from "./logger.js";
import type { RpcMetrics } from "./metrics.js";
import { isDependencyOutage } from "./outage.js";
import {
  contextFrom,
  failSpan,
  injectTraceContext,
  inTrace,
  SpanKind,
  startSpan,
  TRACEPARENT,
  tracingEnabled,
  withContext,
} from "./tracing.js";

export function callContextInterceptor(): Interceptor {
  return (next) => (req) => {
    const timeoutMs = parseTimeout(req.header);
    return runWithCallContext(
      {
        requestId: acceptRequestId(req.header.get(REQUEST_ID_HEADER)),
        dataMode: acceptDataMode(req.header.get(DATA_MODE_HEADER)),
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

/** A span for a call, named as OpenTelemetry's RPC conventions name it: "package.Service/Method". */
function rpcSpan(
  req: { service: { typeName: string }; method: { name: string } },
  kind: SpanKind,
  parent?: Parameters<typeof startSpan>[1]["parent"],
) {
  return startSpan(`${req.service.typeName}/${req.method.name}`, {
    kind,
    parent,
    attributes: {
      "rpc.system": "connect_rpc",
      "rpc.service": req.service.typeName,
      "rpc.method": req.method.name,
    },
  });
}

/**
 * The span of a call, ended when its answer has been read to the end (a streamed answer's last
 * message), with its Connect code on failure.
 */
function traced(kind: SpanKind): Interceptor {
  return (next) => async (req) => {
    if (!tracingEnabled()) return next(req);
    // A call made outside any trace (a sweep, a poll) starts none on this side.
    if (kind === SpanKind.CLIENT && !inTrace()) return next(req);
    const started =
      kind === SpanKind.SERVER
        ? rpcSpan(req, kind, contextFrom(req.header.get(TRACEPARENT)))
        : rpcSpan(req, kind);
    if (!started) return next(req);
    const { span } = started;
    let ended = false;
    const end = (err?: unknown) => {
      if (ended) return;
      ended = true;
      if (err !== undefined) {
        span.setAttribute("rpc.connect_rpc.error_code", Code[ConnectError.from(err).code] ?? "unknown");
        failSpan(span, err);
      }
      span.end();
    };
    try {
      const res = await withContext(started.context, () => {
        if (kind === SpanKind.CLIENT) injectTraceContext(req.header);
        return next(req);
      });
      if (!res.stream) {
        end();
        return res;
      }
      const messages = res.message;
      return {
        ...res,
        message: (async function* () {
          try {
            yield* messages;
          } catch (err) {
            end(err);
            throw err;
          } finally {
            // Read to the end, or left by its reader.
            end();
          }
        })(),
      } as typeof res;
    } catch (err) {
      end(err);
      throw err;
    }
  };
}

/** The server's span of each call, a child of the caller's (its `traceparent` header). */
export const serverTracingInterceptor = (): Interceptor => traced(SpanKind.SERVER);

/** The client's span of each call, whose context goes to the server in `traceparent`. */
export const clientTracingInterceptor = (): Interceptor => traced(SpanKind.CLIENT);
