/**
 * A real RFC 3161 time-stamping authority on loopback, for tests and the local distributed
 * launcher: OpenSSL's `ts -reply` answers every query, with a key and certificate of its own under a
 * root of its own (made with `openssl` on first use and kept in its directory), so that tokens are
 * checked by the same means as a public authority's. Production points COUNTERSIGN_TSA_URL at a
 * public or commercial authority instead (docs/operations.md).
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { env } from "@countersign/kit";
import { z } from "zod";

const run = promisify(execFile);

/** The variables of the authority as a process of its own (timestamp-authority-server.ts). */
export const timestampAuthorityConfigSchema = z.object({
  PORT: env.port(8080),
  LOG_LEVEL: env.logLevel(),
  COUNTERSIGN_TSA_DIR: z
    .string()
    .min(1)
    .default("/tmp/tsa")
    .describe(
      "where the development time-stamping authority (the dev overlay's) keeps the keys it makes on first start",
    ),
});

export interface LocalTimestampAuthority {
  url: string;
  /** The root the authority's certificate chains to, PEM: what a verifier trusts. */
  rootPem: string;
  /** The authority's own certificate, PEM. */
  certificatePem: string;
  /** Queries answered so far. */
  readonly answered: number;
  close(): Promise<void>;
}

/** A query is a digest and a nonce: a few hundred bytes. */
const MAX_QUERY_BYTES = 16 * 1024;

/** Makes the root, the authority's key and certificate and its configuration, once. */
async function prepare(dir: string): Promise<void> {
  if (existsSync(join(dir, "tsa.cnf"))) return;
  await mkdir(dir, { recursive: true });
  const at = (name: string) => join(dir, name);
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:3072",
    "-nodes",
    "-keyout",
    at("root.key"),
    "-out",
    at("root.pem"),
    "-days",
    "3650",
    "-subj",
    "/O=Countersign/CN=Countersign local time-stamping root",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("openssl", [
    "req",
    "-newkey",
    "rsa:3072",
    "-nodes",
    "-keyout",
    at("tsa.key"),
    "-out",
    at("tsa.csr"),
    "-subj",
    "/O=Countersign/CN=Countersign local time-stamping authority",
  ]);
  await writeFile(
    at("tsa.ext"),
    [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=critical,timeStamping",
      "subjectKeyIdentifier=hash",
      "authorityKeyIdentifier=keyid",
    ].join("\n"),
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    at("tsa.csr"),
    "-CA",
    at("root.pem"),
    "-CAkey",
    at("root.key"),
    "-set_serial",
    `0x${randomUUID().replaceAll("-", "")}`,
    "-days",
    "3650",
    "-sha256",
    "-extfile",
    at("tsa.ext"),
    "-out",
    at("tsa.pem"),
  ]);
  await writeFile(at("serial"), "01\n");
  // A policy OID of our own: 2.25 and a UUID as an integer (ITU-T X.667) needs no registration.
  const policy = `2.25.${BigInt(`0x${randomUUID().replaceAll("-", "")}`)}`;
  await writeFile(
    at("tsa.cnf"),
    [
      "[ tsa ]",
      "default_tsa = local",
      "[ local ]",
      `serial = ${at("serial")}`,
      `signer_cert = ${at("tsa.pem")}`,
      `certs = ${at("tsa.pem")}`,
      `signer_key = ${at("tsa.key")}`,
      "signer_digest = sha256",
      `default_policy = ${policy}`,
      "digests = sha256, sha384, sha512",
      "accuracy = secs:1",
      "ordering = yes",
      "tsa_name = yes",
      "ess_cert_id_alg = sha256",
      "",
    ].join("\n"),
  );
}

function readQuery(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_QUERY_BYTES) req.destroy(new Error("query too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Starts the authority on `host` (`port` 0 for any), keeping its keys in `dir`. */
export async function startLocalTimestampAuthority(
  dir: string,
  port = 0,
  host = "127.0.0.1",
): Promise<LocalTimestampAuthority> {
  await prepare(dir);
  const config = join(dir, "tsa.cnf");
  let answered = 0;
  // openssl keeps the serial in a file: one reply at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const reply = (query: Buffer) => {
    const next = queue.then(async () => {
      const work = await mkdtemp(join(dir, "q-"));
      try {
        await writeFile(join(work, "query.tsq"), query);
        await run("openssl", [
          "ts",
          "-reply",
          "-config",
          config,
          "-queryfile",
          join(work, "query.tsq"),
          "-out",
          join(work, "reply.tsr"),
        ]);
        return await readFile(join(work, "reply.tsr"));
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    if (req.method !== "POST" || req.headers["content-type"] !== "application/timestamp-query") {
      res.writeHead(415, { "content-type": "text/plain" }).end("POST an application/timestamp-query\n");
      return;
    }
    readQuery(req)
      .then(reply)
      .then((bytes) => {
        answered += 1;
        res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(bytes);
      })
      .catch(() => {
        if (!res.headersSent)
          res.writeHead(400, { "content-type": "text/plain" }).end("not a time-stamp query\n");
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${bound}/tsa`,
    rootPem: await readFile(join(dir, "root.pem"), "utf8"),
    certificatePem: await readFile(join(dir, "tsa.pem"), "utf8"),
    get answered() {
      return answered;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
