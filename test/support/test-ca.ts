/**
 * A certificate authority of the tests' own, made with `openssl ca`: it issues seal certificates
 * that name its OCSP responder and CRL on loopback, answers OCSP with `openssl ocsp` from its
 * database and serves a CRL from `openssl ca -gencrl`, and revokes on request — what a commercial
 * CA does for a document-signing certificate, so that long-term validation data is fetched and
 * checked as it would be in production.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface TestCa {
  rootPem: string;
  /**
   * A seal certificate for `commonName` with its key and the root, as a PKCS#12 file; it names the
   * OCSP responder and the CRL, or (`crlOnly`) the CRL alone.
   */
  issueSeal(
    commonName: string,
    password: string,
    crlOnly?: boolean,
  ): Promise<{ p12: Buffer; certificatePem: string }>;
  /** Revokes a certificate it issued: its OCSP answer and CRL say so from now on. */
  revoke(certificatePem: string): Promise<void>;
  /** OCSP queries and CRL downloads answered so far. */
  readonly served: { ocsp: number; crl: number };
  close(): Promise<void>;
}

export async function startTestCa(): Promise<TestCa> {
  const dir = await mkdtemp(join(tmpdir(), "test-ca-"));
  const at = (name: string) => join(dir, name);
  const served = { ocsp: 0, crl: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        if (req.method === "POST" && req.url === "/ocsp") {
          const work = await mkdtemp(join(dir, "ocsp-"));
          await writeFile(join(work, "req.der"), Buffer.concat(chunks));
          await run("openssl", [
            "ocsp",
            "-index",
            at("index.txt"),
            "-CA",
            at("root.pem"),
            "-rsigner",
            at("root.pem"),
            "-rkey",
            at("root.key"),
            "-reqin",
            join(work, "req.der"),
            "-respout",
            join(work, "resp.der"),
            "-ndays",
            "1",
          ]);
          const answer = await readFile(join(work, "resp.der"));
          await rm(work, { recursive: true, force: true });
          served.ocsp += 1;
          res.writeHead(200, { "content-type": "application/ocsp-response" }).end(answer);
        } else if (req.method === "GET" && req.url === "/root.crl") {
          await run("openssl", ["ca", "-config", at("ca.cnf"), "-gencrl", "-out", at("root.crl.pem")]);
          await run("openssl", ["crl", "-in", at("root.crl.pem"), "-outform", "DER", "-out", at("root.crl")]);
          served.crl += 1;
          res.writeHead(200, { "content-type": "application/pkix-crl" }).end(await readFile(at("root.crl")));
        } else {
          res.writeHead(404).end();
        }
      } catch {
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  await mkdir(at("certs"));
  await writeFile(at("index.txt"), "");
  await writeFile(at("serial"), "1000\n");
  await writeFile(at("crlnumber"), "1000\n");
  await writeFile(
    at("ca.cnf"),
    [
      "[ ca ]",
      "default_ca = test",
      "[ test ]",
      `database = ${at("index.txt")}`,
      `new_certs_dir = ${at("certs")}`,
      `serial = ${at("serial")}`,
      `crlnumber = ${at("crlnumber")}`,
      `certificate = ${at("root.pem")}`,
      `private_key = ${at("root.key")}`,
      "default_md = sha256",
      "default_days = 365",
      "default_crl_days = 1",
      "policy = any",
      "unique_subject = no",
      "[ any ]",
      "commonName = supplied",
      "organizationName = optional",
      "[ seal ]",
      "basicConstraints = critical,CA:FALSE",
      "keyUsage = critical,digitalSignature,nonRepudiation",
      `authorityInfoAccess = OCSP;URI:${base}/ocsp`,
      `crlDistributionPoints = URI:${base}/root.crl`,
      "subjectKeyIdentifier = hash",
      "authorityKeyIdentifier = keyid",
      "[ seal_crl ]",
      "basicConstraints = critical,CA:FALSE",
      "keyUsage = critical,digitalSignature,nonRepudiation",
      `crlDistributionPoints = URI:${base}/root.crl`,
      "",
    ].join("\n"),
  );
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    at("root.key"),
    "-out",
    at("root.pem"),
    "-days",
    "3650",
    "-subj",
    "/O=Countersign tests/CN=Countersign test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);

  return {
    rootPem: await readFile(at("root.pem"), "utf8"),
    served,
    async issueSeal(commonName, password, crlOnly = false) {
      const work = await mkdtemp(join(dir, "seal-"));
      const file = (name: string) => join(work, name);
      await run("openssl", [
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        file("seal.key"),
        "-out",
        file("seal.csr"),
        "-subj",
        `/O=Countersign tests/CN=${commonName}`,
      ]);
      await run("openssl", [
        "ca",
        "-batch",
        "-config",
        at("ca.cnf"),
        "-extensions",
        crlOnly ? "seal_crl" : "seal",
        "-notext",
        "-in",
        file("seal.csr"),
        "-out",
        file("seal.pem"),
      ]);
      await run("openssl", [
        "pkcs12",
        "-export",
        "-inkey",
        file("seal.key"),
        "-in",
        file("seal.pem"),
        "-certfile",
        at("root.pem"),
        "-passout",
        `pass:${password}`,
        "-out",
        file("seal.p12"),
      ]);
      return {
        p12: await readFile(file("seal.p12")),
        certificatePem: await readFile(file("seal.pem"), "utf8"),
      };
    },
    async revoke(certificatePem) {
      const work = await mkdtemp(join(dir, "revoke-"));
      await writeFile(join(work, "cert.pem"), certificatePem);
      await run("openssl", ["ca", "-config", at("ca.cnf"), "-revoke", join(work, "cert.pem")]);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
