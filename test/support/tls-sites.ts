/**
 * Sites on HTTPS under names of their own, all on loopback, for tests that need what a browser does
 * between real sites: one certificate (made with openssl) names every site, Chromium maps the names
 * to 127.0.0.1 and is told to accept the certificate. A site is a handler, or a TLS-terminating proxy
 * in front of a deployment's gateway, as an ingress is in production.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "./browser.js";

const run = promisify(execFile);

export interface TlsSites {
  /** `https://{name}:{port}`: every site answers on one port, told apart by its name. */
  origin(name: string): string;
  /** Who answers a name: a handler, or the proxy in front of an HTTP server. */
  serve(name: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  proxy(name: string, target: () => string): void;
  /** Chromium resolving the sites' names to loopback, with third-party cookies blocked. */
  launchBrowser(): ReturnType<typeof chromium.launch>;
  close(): Promise<void>;
}

async function certificateFor(names: string[]): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), "tls-sites-"));
  try {
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=countersign tests",
      "-addext",
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`,
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]);
    return { key: await readFile(join(dir, "key.pem")), cert: await readFile(join(dir, "cert.pem")) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Forwards a request to `target` (http://host:port) as it came, and its answer back. */
function forward(target: string, req: IncomingMessage, res: ServerResponse): void {
  const { hostname, port } = new URL(target);
  const upstream = httpRequest(
    { hostname, port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => res.writeHead(502).end());
  req.pipe(upstream);
}

export async function startTlsSites(names: string[]): Promise<TlsSites> {
  const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const server: Server = createServer(await certificateFor(names), (req, res) => {
    const handler = handlers.get((req.headers.host ?? "").replace(/:\d+$/, ""));
    if (handler) handler(req, res);
    else res.writeHead(421).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: (name) => `https://${name}:${port}`,
    serve: (name, handler) => handlers.set(name, handler),
    proxy: (name, target) => handlers.set(name, (req, res) => forward(target(), req, res)),
    launchBrowser: () =>
      chromium.launch({
        executablePath: CHROMIUM,
        args: [
          ...CHROMIUM_FLAGS,
          `--host-resolver-rules=${names.map((n) => `MAP ${n} 127.0.0.1`).join(", ")}`,
          // As Safari and Firefox's strict mode do, and Chrome in incognito: no cookie in another site's frame.
          "--test-third-party-cookie-phaseout",
        ],
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
