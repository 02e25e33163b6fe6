/**
 * The certificate signing request for the seal's key: OpenSSL verifies its signature, reads the
 * subject given (one name per RDN) or the seal certificate's own, finds the key usage a
 * document-signing certificate needs, and its public key is the seal's.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSealP12 } from "../src/pdf/seal-certificate.js";
import { sealCertificateRequest } from "../src/pdf/seal-request.js";

const p12 = generateSealP12("Acme seal", "correct horse battery");
const credentials = { p12, password: "correct horse battery" };

function openssl(args: string[], files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), "csr-"));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return execFileSync(
      "openssl",
      args.map((a) => a.replace(/^@/, `${dir}/`)),
      { encoding: "utf8" },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("OpenSSL verifies the request, with the subject given and the key usage a seal needs", async () => {
  const pem = await sealCertificateRequest(credentials, { organization: "Acme Corp", country: "DE" });
  const text = openssl(["req", "-in", "@req.pem", "-noout", "-verify", "-subject", "-text"], {
    "req.pem": pem,
  });
  expect(text).toContain("subject=C = DE, O = Acme Corp, CN = Acme seal");
  expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation/);
});

test("the request's public key is the seal's", async () => {
  const pem = await sealCertificateRequest(credentials, { commonName: "Acme Corp document seal" });
  const fromRequest = openssl(["req", "-in", "@req.pem", "-noout", "-pubkey"], { "req.pem": pem });
  const fromSeal = openssl(
    ["pkcs12", "-in", "@seal.p12", "-nokeys", "-clcerts", "-passin", "pass:correct horse battery"],
    { "seal.p12": p12 },
  );
  const sealKey = openssl(["x509", "-in", "@cert.pem", "-noout", "-pubkey"], { "cert.pem": fromSeal });
  expect(fromRequest).toBe(sealKey);
  expect(openssl(["req", "-in", "@req.pem", "-noout", "-subject"], { "req.pem": pem })).toContain(
    "CN = Acme Corp document seal",
  );
});

test("a country that is not two capital letters is refused in words", async () => {
  await expect(sealCertificateRequest(credentials, { country: "Germany" })).rejects.toThrow(
    "the country must be two capital letters (ISO 3166), such as DE or US",
  );
});
