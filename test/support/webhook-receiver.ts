/**
 * A webhook receiver for the suites: an HTTPS server on loopback with a certificate from a CA of
 * its own (which the service is told to trust, as an operator would with
 * COUNTERSIGN_WEBHOOK_CA_FILE), recording every request and answering as the test says.
 * Deliveries are verified with the `standardwebhooks` package, not with our own code.
 */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>/hooks` */
  url: string;
  urlFor(path: string): string;
  caPem: string;
  received: ReceivedWebhook[];
  /** Resolves with what arrived once at least `count` requests have. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

interface TestCa {
  caPem: string;
  serverCert: { key: string; cert: string };
}

let testCa: TestCa | undefined;

function certificate(
  subject: forge.pki.CertificateField[],
  publicKey: forge.pki.rsa.PublicKey,
  issuer: forge.pki.CertificateField[],
  signingKey: forge.pki.rsa.PrivateKey,
  extensions: object[],
  serial: string,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  cert.sign(signingKey, forge.md.sha256.create());
  return cert;
}

/** A CA and a server certificate for localhost, 127.0.0.1 and ::1; made once per process (keys take a moment). */
export function createTestCa(): TestCa {
  if (testCa) return testCa;
  const caKeys = forge.pki.rsa.generateKeyPair(2048);
  const caName = [{ name: "commonName", value: "Countersign test webhook CA" }];
  const ca = certificate(
    caName,
    caKeys.publicKey,
    caName,
    caKeys.privateKey,
    [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
    "01",
  );
  const serverKeys = forge.pki.rsa.generateKeyPair(2048);
  const server = certificate(
    [{ name: "commonName", value: "localhost" }],
    serverKeys.publicKey,
    caName,
    caKeys.privateKey,
    [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
    "02",
  );
  testCa = {
    caPem: forge.pki.certificateToPem(ca),
    serverCert: {
      key: forge.pki.privateKeyToPem(serverKeys.privateKey),
      cert: forge.pki.certificateToPem(server),
    },
  };
  return testCa;
}

export async function startWebhookReceiver(
  options: { respond?: (req: ReceivedWebhook) => Answer | Promise<Answer> } = {},
): Promise<WebhookReceiver> {
  const { caPem, serverCert } = createTestCa();
  const received: ReceivedWebhook[] = [];
  const server = createServer(serverCert, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      const webhook = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      received.push(webhook);
      const answer = options.respond ? await options.respond(webhook) : { status: 204 };
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/hooks`,
    urlFor: (path) => `${origin}${path}`,
    caPem,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `expected ${count} webhook requests within ${timeoutMs} ms, ${received.length} arrived`,
          );
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return [...received];
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The payload, when `secret` verifies the delivery as the standardwebhooks package does; throws otherwise. */
export function verifyWebhook(secret: string, req: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(req.body, req.headers);
}
