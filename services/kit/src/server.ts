/**
 * The Connect server every service runs: gRPC, gRPC-Web and Connect on cleartext HTTP/2, with
 * HTTP/1.1 on the same port for gRPC-Web, Connect and Prometheus (`GET /metrics`), which cannot
 * speak h2c. Shutdown is graceful: health turns NOT_SERVING, the listener closes, calls in flight
 * finish (up to a limit), then connections close.
 */
import http from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo, type Socket } from "node:net";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { HealthState } from "./health.js";
import { healthRoutes } from "./health.js";
import {
  callContextInterceptor,
  errorMaskingInterceptor,
  metricsInterceptor,
  serverTracingInterceptor,
} from "./interceptors.js";
import type { Logger } from "./logger.js";
import type { RpcMetrics } from "./metrics.js";
import { callerInterceptor, type ServiceAccess } from "./service-identity.js";

/** Flow-control window of each HTTP/2 stream between services: room for a few stream chunks. */
export const HTTP2_WINDOW_BYTES = 4 * 1024 * 1024;

export type Routes = (router: ConnectRouter) => void;

/**
 * How long calls in flight may take to finish once a server closes; what is left is cut. Inside
 * Kubernetes' 30 s between SIGTERM and SIGKILL, with the preStop hook's 5 s and the drain before.
 */
export const SERVER_GRACE_MS = 8000;

export interface ServerInterceptorOptions {
  logger: Logger;
  metrics: RpcMetrics;
  /** When set, every call but health checks must come from one of its callers, to a method it may call. */
  access?: ServiceAccess;
}

/** The server-side interceptors, in order; the in-memory transport of standalone mode uses them too. */
export function serverInterceptors({ logger, metrics, access }: ServerInterceptorOptions): Interceptor[] {
  return [
    serverTracingInterceptor(),
    callContextInterceptor(),
    metricsInterceptor(metrics),
    ...(access ? [callerInterceptor(access)] : []),
    errorMaskingInterceptor(logger),
  ];
}

export interface ServiceServerOptions extends ServerInterceptorOptions {
  routes: Routes[];
  health: HealthState;
  port: number;
  host?: string;
  /** Time between turning NOT_SERVING and closing the listener, for load balancers to notice. */
  drainMs?: number;
  /** Time calls in flight get to finish before their connections are cut. */
  graceMs?: number;
}

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n");

export async function startServiceServer(options: ServiceServerOptions): Promise<RunningServer> {
  const { logger, metrics, health } = options;
  const handler = connectNodeAdapter({
    routes: (router) => {
      healthRoutes(health)(router);
      for (const routes of options.routes) routes(router);
    },
    interceptors: serverInterceptors(options),
    fallback: (req, res) => {
      if (req.method === "GET" && req.url === "/metrics") {
        metrics.registry.metrics().then(
          (body) => {
            res.writeHead(200, { "content-type": metrics.registry.contentType });
            res.end(body);
          },
          () => {
            res.writeHead(500);
            res.end();
          },
        );
        return;
      }
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    },
  });

  const h2 = http2.createServer({ settings: { initialWindowSize: HTTP2_WINDOW_BYTES } }, handler);
  const h1 = http.createServer(handler);
  const sessions = new Set<http2.Http2Session>();
  const sockets = new Set<Socket>();
  h2.on("session", (session) => {
    sessions.add(session);
    // The connection's window bounds all its streams together; uploads from several callers share it.
    session.setLocalWindowSize(4 * HTTP2_WINDOW_BYTES);
    session.on("close", () => sessions.delete(session));
  });
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    routeByPreface(socket, h2, h1);
  });

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host ?? "0.0.0.0", () => resolve());
  });
  const port = (listener.address() as AddressInfo).port;
  const host = options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1";

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      health.markShuttingDown();
      await sleep(options.drainMs ?? 0);
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const session of sessions) session.close();
      h1.closeIdleConnections();
      const cut = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, options.graceMs ?? SERVER_GRACE_MS);
      await closed;
      clearTimeout(cut);
      logger.info({ port }, "server stopped");
    })();
    return closing;
  };
  return { port, url: `http://${host}:${port}`, close };
}

/** Hands a connection to the HTTP/2 server if it opens with the HTTP/2 preface, else to HTTP/1.1. */
function routeByPreface(socket: Socket, h2: http2.Http2Server, h1: http.Server): void {
  let head = Buffer.alloc(0);
  const onReadable = () => {
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      head = Buffer.concat([head, chunk]);
    }
    const isPrefix = head.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE.subarray(0, head.length));
    if (head.length === 0 || (isPrefix && head.length < HTTP2_PREFACE.length)) return;
    socket.off("readable", onReadable);
    socket.unshift(head);
    (isPrefix ? h2 : h1).emit("connection", socket);
  };
  socket.on("readable", onReadable);
  socket.on("error", () => socket.destroy());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
