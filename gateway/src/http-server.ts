/**
 * Serves the gateway over HTTP/1.1 and closes it gracefully: stop accepting, let requests in flight
 * finish, then cut what is left after a grace period. Requests that Node refuses before Express sees
 * them (headers too large, a malformed request line, a request that is too slow) are answered with
 * problem details too, like every other error.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ConfigError, SERVER_GRACE_MS, uuidv7 } from "@countersign/kit";
import type { Express } from "express";
import type { Registry } from "prom-client";
import { ApiProblem, toProblem } from "./problems.js";

/** Node's reasons for refusing a request, as problems. */
function clientErrorProblem(code: string | undefined): ApiProblem {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiProblem("headers_too_large", "the request's headers are larger than 16 KiB");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiProblem("request_timeout", "the request took too long to arrive");
    default:
      return new ApiProblem("invalid_request", "the request is not well-formed HTTP/1.1");
  }
}

function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // Nothing can be answered on a connection the client has reset or already half-written to.
  if (err.code === "ECONNRESET" || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const requestId = uuidv7();
  const { problem } = toProblem(clientErrorProblem(err.code), requestId);
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
      "Content-Type: application/problem+json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
}

export interface ListeningGateway {
  port: number;
  url: string;
  /** Starts answering with the app; until then every request is a 503 saying the service is starting. */
  serve(app: Express): void;
  close(): Promise<void>;
}

function starting(req: http.IncomingMessage, res: http.ServerResponse): void {
  // Alive while starting: a slow database must not make Kubernetes restart the process.
  if (req.url === "/healthz") {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end('{"status":"ok"}');
    return;
  }
  const { problem } = toProblem(
    new ApiProblem("unavailable", "Countersign is starting; try again in a moment"),
    uuidv7(),
  );
  res.writeHead(503, {
    "Content-Type": "application/problem+json",
    "Retry-After": "1",
    "X-Request-Id": problem.requestId,
  });
  res.end(JSON.stringify(problem));
}

/**
 * Binds the port first, so that a port in use stops the process before anything else is done (or
 * any first-start secret is made), with one line naming PORT.
 */
export async function listen(
  port: number,
  host = "0.0.0.0",
  graceMs = SERVER_GRACE_MS,
): Promise<ListeningGateway> {
  let handler: http.RequestListener = starting;
  let closing = false;
  const answering = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    // Once closing, every answer closes its connection: left open, a kept-alive connection would
    // carry further requests until the grace period cut them off mid-way, answered to nobody.
    if (closing) res.setHeader("Connection", "close");
    else {
      answering.add(res);
      res.once("close", () => answering.delete(res));
    }
    handler(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE" || err.code === "EACCES") {
        const why = err.code === "EADDRINUSE" ? "is already in use" : "may not be used by this user";
        reject(
          new ConfigError(
            `PORT: port ${port} on ${host} ${why}; stop what uses it or set PORT to another port`,
          ),
        );
      } else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${actualPort}`,
    serve(app) {
      handler = app;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const res of answering) {
          if (!res.headersSent) res.setHeader("Connection", "close");
          // Its headers said keep-alive: the connection is closed once it is idle again.
          else res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
        }
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Prometheus text at GET /metrics on a port of its own (METRICS_PORT), apart from the public one. */
export async function serveMetrics(
  registry: Registry,
  port: number,
  host = "0.0.0.0",
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found\n");
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { "Content-Type": registry.contentType });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE" ? new ConfigError(`METRICS_PORT: port ${port} is already in use`) : err,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
