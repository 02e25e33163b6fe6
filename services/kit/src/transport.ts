/**
 * The Transport port: how one part reaches a service. Distributed mode speaks the Connect protocol
 * (binary) over HTTP/2 to the service's address; standalone mode hands the call to the service's
 * router in memory, still through the real Connect protocol and the same server interceptors.
 * Clients made here carry the request id and the caller's remaining deadline into every call.
 *
 * Services answer gRPC too (grpcurl, Kubernetes' gRPC probes, other languages' clients), but our
 * own clients do not speak it to them: a gRPC call's trailers and the stream it closes cost each
 * side about 130–170 µs more than a Connect call on the same connection (measured on two cores),
 * a third of a small call's whole cost.
 */
import type { DescService } from "@bufbuild/protobuf";
import {
  type Client,
  createClient,
  createRouterTransport,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import { type BalancedTransport, balancedTransport } from "./balanced-transport.js";
import { currentCallContext, DATA_MODE_HEADER, REQUEST_ID_HEADER } from "./context.js";
import { clientTracingInterceptor } from "./interceptors.js";
import { HTTP2_WINDOW_BYTES, type Routes } from "./server.js";
import { presentServiceToken } from "./service-identity.js";

export type { Transport };

/**
 * The transport to a service in distributed mode. `address` is one URL or a comma-separated list;
 * calls are balanced over every replica they name (balanced-transport.ts).
 */
export function networkTransport(address: string, serviceToken?: string): BalancedTransport {
  return balancedTransport(address, {
    transport: {
      interceptors: [
        clientTracingInterceptor(),
        ...(serviceToken ? [presentServiceToken(serviceToken)] : []),
      ],
      // Keep connections warm between calls; a dead peer is noticed by the ping.
      pingIntervalMs: 30_000,
      idleConnectionTimeoutMs: 300_000,
      // Between services on one network, compression costs more CPU than it saves, and PDFs are
      // compressed already: without this, every chunk of a download was gzipped and gunzipped.
      acceptCompression: [],
      // HTTP/2's default 64 KiB window makes a download wait for a window update every 64 KiB.
      nodeOptions: { settings: { initialWindowSize: HTTP2_WINDOW_BYTES } },
    },
  });
}

export function inMemoryTransport(routes: Routes, serverInterceptors: Interceptor[]): Transport {
  return createRouterTransport(routes, {
    transport: { interceptors: [clientTracingInterceptor()] },
    router: { interceptors: serverInterceptors },
  });
}

/** The longest a call may take when the caller set no deadline. */
const DEFAULT_TIMEOUT_MS = 30_000;

export type CallOptions = { headers?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal };

export function serviceClient<S extends DescService>(service: S, transport: Transport): Client<S> {
  const client = createClient(service, transport) as unknown as Record<
    string,
    (input: unknown, options?: CallOptions) => unknown
  >;
  const wrapped: Record<string, unknown> = {};
  for (const name of Object.keys(service.method)) {
    const call = client[name];
    if (!call) continue;
    wrapped[name] = (input: unknown, options: CallOptions = {}) =>
      call(input, { ...inheritedOptions(), ...options });
  }
  return wrapped as Client<S>;
}

/**
 * What a call made now carries of the call it is made for: its request id, data mode, deadline and
 * signal.
 */
export function inheritedOptions(): CallOptions {
  const context = currentCallContext();
  if (!context) return { timeoutMs: DEFAULT_TIMEOUT_MS };
  const remaining =
    context.deadline === undefined ? DEFAULT_TIMEOUT_MS : Math.max(1, context.deadline - Date.now());
  return {
    headers: {
      [REQUEST_ID_HEADER]: context.requestId,
      ...(context.dataMode ? { [DATA_MODE_HEADER]: context.dataMode } : {}),
    },
    timeoutMs: remaining,
    ...(context.signal ? { signal: context.signal } : {}),
  };
}
