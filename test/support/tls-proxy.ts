/**
 * HTTPS in front of a gateway, as an ingress terminates TLS in production: clients that only speak
 * https (DocuSign's client reaches its OAuth host so, whatever the base path says) reach the
 * gateway through it. Its certificate, for localhost and 127.0.0.1, is issued by a CA of its own,
 * which the test trusts explicitly.
 */
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { type KeyPair, keyPair } from "./seal-files.js";

export interface TlsProxy {
  /** https://localhost:<port> */
  url: string;
  /** The CA's certificate, PEM: what a client trusts to reach the proxy. */
  caPem: string;
  /** Sends what arrives from now on to this http origin. */
  forwardTo(origin: string): void;
  close(): Promise<void>;
}

const DAY = 86_400_000;

function certificate(
  subject: string,
  keys: KeyPair,
  issuer: { name: string; key: forge.pki.rsa.PrivateKey },
  extensions: object[],
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 30 * DAY);
  cert.setSubject([{ name: "commonName", value: subject }]);
  cert.setIssuer([{ name: "commonName", value: issuer.name }]);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

export async function startTlsProxy(): Promise<TlsProxy> {
  const caKeys = keyPair(2048);
  const caName = "Countersign Test TLS CA";
  const caPem = certificate(caName, caKeys, { name: caName, key: caKeys.key }, [
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true },
  ]);
  const serverKeys = keyPair(2048);
  const serverPem = certificate("localhost", serverKeys, { name: caName, key: caKeys.key }, [
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
      ],
    },
  ]);
  let target = "";
  const server = createServer(
    { key: forge.pki.privateKeyToPem(serverKeys.key), cert: `${serverPem}${caPem}` },
    (req, res) => {
      const upstream = new URL(req.url ?? "/", target);
      const forwarded = httpRequest(
        upstream,
        { method: req.method, headers: { ...req.headers, "x-forwarded-proto": "https" } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.writeHead(502).end());
      req.pipe(forwarded);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    caPem,
    forwardTo: (origin) => {
      target = origin;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
