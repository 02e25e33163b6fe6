/**
 * A webhook receiver for tests: an HTTPS server on loopback with a certificate from a test CA, recording
 * every request it gets. Deliveries reach it only through a GuardedClient that allows 127.0.0.0/8 and
 * trusts the test CA (extraCa: receiver.caPem).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  method: string;
  path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface WebhookAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface WebhookReceiver {
  /** https://127.0.0.1:<port>/hooks */
  url: string;
  urlFor(path: string): string;
  caPem: string;
  received: ReceivedWebhook[];
  /** Resolves once at least count requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export interface TestCa {
  caPem: string;
  serverCert: { key: string; cert: string };
}

/** Names the server certificate is valid for; hooks.example.test lets tests resolve a name of their own. */
const serverNames = { dns: ["localhost", "hooks.example.test"], ip: ["127.0.0.1", "::1"] };

let testCa: TestCa | undefined;

/** A CA and a server certificate it signed, made once per process. */
export function createTestCa(): TestCa {
  testCa ??= makeTestCa();
  return testCa;
}

// Node's key generation is native and takes milliseconds; forge's pure-JS RSA takes seconds per key.
function rsaKeyPair(): forge.pki.rsa.KeyPair {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

function certificate(
  subject: forge.pki.CertificateField[],
  publicKey: forge.pki.PublicKey,
  issuer: forge.pki.CertificateField[],
  signingKey: forge.pki.rsa.PrivateKey,
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive serial: a leading 0x00 byte keeps the top bit clear.
  cert.serialNumber = `00${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  cert.sign(signingKey, forge.md.sha256.create());
  return cert;
}

function makeTestCa(): TestCa {
  const caKeys = rsaKeyPair();
  const caName = [{ name: "commonName", value: "Countersign Test CA" }];
  const ca = certificate(caName, caKeys.publicKey, caName, caKeys.privateKey, [
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const serverKeys = rsaKeyPair();
  const server = certificate(
    [{ name: "commonName", value: "localhost" }],
    serverKeys.publicKey,
    caName,
    caKeys.privateKey,
    [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          ...serverNames.dns.map((value) => ({ type: 2, value })),
          ...serverNames.ip.map((ip) => ({ type: 7, ip })),
        ],
      },
    ],
  );
  return {
    caPem: forge.pki.certificateToPem(ca),
    serverCert: {
      key: forge.pki.privateKeyToPem(serverKeys.privateKey),
      cert: forge.pki.certificateToPem(server),
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Starts the receiver on 127.0.0.1 (a free port); it answers 204 unless respond says otherwise. */
export async function startWebhookReceiver(
  options: { respond?: (req: ReceivedWebhook) => WebhookAnswer | Promise<WebhookAnswer> } = {},
): Promise<WebhookReceiver> {
  const { caPem, serverCert } = createTestCa();
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();

  const server = https.createServer(serverCert, async (req, res) => {
    try {
      const webhook: ReceivedWebhook = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: Object.fromEntries(
          Object.entries(req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(", ")]),
        ),
        body: await readBody(req),
        receivedAt: Date.now(),
      };
      received.push(webhook);
      for (const wake of waiters) wake();
      const answer = (await options.respond?.(webhook)) ?? { status: 204 };
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const urlFor = (path: string) => `https://127.0.0.1:${port}${path.startsWith("/") ? "" : "/"}${path}`;

  return {
    url: urlFor("/hooks"),
    urlFor,
    caPem,
    received,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`expected ${count} webhook(s) within ${timeoutMs} ms, ${received.length} arrived`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Checks a delivery's Standard Webhooks signature with the endpoint's secret and returns its payload. */
export function verifyWebhook(secret: string, req: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(req.body, req.headers);
}
