/**
 * Serves the gateway over HTTP/1.1 and closes it gracefully: stop accepting, let requests in flight
 * finish, then cut what is left after a grace period.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

export interface ListeningGateway {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function listen(
  app: Express,
  port: number,
  host = "0.0.0.0",
  graceMs = 10_000,
): Promise<ListeningGateway> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
