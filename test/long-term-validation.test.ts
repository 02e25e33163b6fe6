/**
 * Long-term validation with a seal certificate from a certificate authority (the tests' own, made
 * with `openssl ca`): the document security store carries the CA's OCSP answer, or its CRL when the
 * certificate names only that, and OpenSSL checks what was stored; a revoked certificate seals
 * nothing, and a CA that cannot be reached fails the attempt instead of sealing without its answer.
 */
import { X509Certificate } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFRef,
} from "pdf-lib";
import {
  type LocalTimestampAuthority,
  startLocalTimestampAuthority,
} from "../deploy/local/src/timestamp-authority.js";
import { addValidationRevision } from "../services/requests/src/pdf/pades/long-term.js";
import { Seal } from "../services/requests/src/pdf/seal.js";
import { drawCompletedDocument } from "../services/requests/src/pdf/sealed-document.js";
import { openssl } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { startTestCa, type TestCa } from "./support/test-ca.js";

let ca: TestCa;
let authority: LocalTimestampAuthority;
beforeAll(async () => {
  ca = await startTestCa();
  authority = await startLocalTimestampAuthority(await mkdtemp(join(tmpdir(), "tsa-")));
}, 60_000);
afterAll(async () => {
  await ca?.close();
  await authority?.close();
});

function sealWith(p12: Buffer): Seal {
  return new Seal(
    { p12, password: "pw" },
    { url: authority.url, timeoutMs: 5000, trustAnchors: [new X509Certificate(authority.rootPem).raw] },
  );
}

async function sealOnce(seal: Seal): Promise<Uint8Array> {
  const drawn = await drawCompletedDocument(
    [{ id: "a", filename: "lease.pdf", sha256: "0".repeat(64), bytes: await makePdf(1) }],
    [],
    new Map(),
    {
      requestId: "0192f5d8-0000-7000-8000-000000000000",
      title: "Lease",
      completedAt: new Date(),
      recipients: [],
      sentBy: "Acme",
      audit: { entries: 1, headHash: "f".repeat(64) },
      test: false,
    },
    seal.room,
  );
  return (await seal.sign(drawn.bytes, addValidationRevision)).bytes;
}

/** The decoded streams of the document security store's `key` array. */
async function securityStore(pdf: Uint8Array, key: "Certs" | "OCSPs" | "CRLs"): Promise<Buffer[]> {
  const doc = await PDFDocument.load(pdf);
  const dss = doc.catalog.lookup(PDFName.of("DSS"), PDFDict);
  const list = dss.lookupMaybe(PDFName.of(key), PDFArray);
  return (list?.asArray() ?? []).map((ref) => {
    const stream = doc.context.lookup(ref as PDFRef);
    if (!(stream instanceof PDFRawStream))
      throw new Error(`the DSS's ${key} holds something other than streams`);
    return Buffer.from(decodePDFRawStream(stream).decode());
  });
}

test("a CA's seal certificate that names an OCSP responder: its answer is in the DSS, and OpenSSL finds it good and signed by the CA", async () => {
  const { p12, certificatePem } = await ca.issueSeal("Acme seal", "pw");
  const sealed = await sealOnce(sealWith(p12));
  const [answer, ...more] = await securityStore(sealed, "OCSPs");
  expect(more).toEqual([]);
  expect(await securityStore(sealed, "CRLs")).toEqual([]);
  const certs = await securityStore(sealed, "Certs");
  expect(certs.map((der) => new X509Certificate(der).subject)).toEqual(
    expect.arrayContaining([
      expect.stringContaining("CN=Acme seal"),
      expect.stringContaining("CN=Countersign test CA"),
    ]),
  );
  const verdict = await openssl(
    { "answer.der": answer as Buffer, "root.pem": ca.rootPem, "seal.pem": certificatePem },
    (dir) => [
      "ocsp",
      "-respin",
      join(dir, "answer.der"),
      "-CAfile",
      join(dir, "root.pem"),
      "-issuer",
      join(dir, "root.pem"),
      // The CertID as the service asked for it: SHA-256, not OpenSSL's default SHA-1.
      "-sha256",
      "-cert",
      join(dir, "seal.pem"),
      "-no_nonce",
    ],
  );
  expect(verdict.output).toContain("Response verify OK");
  expect(verdict.output).toMatch(/seal\.pem: good/);
});

test("a certificate that names only a CRL: the CRL is in the DSS, and OpenSSL verifies it with the CA's key", async () => {
  const { p12 } = await ca.issueSeal("Acme CRL seal", "pw", true);
  const sealed = await sealOnce(sealWith(p12));
  expect(await securityStore(sealed, "OCSPs")).toEqual([]);
  const [crl] = await securityStore(sealed, "CRLs");
  const verdict = await openssl({ "crl.der": crl as Buffer, "root.pem": ca.rootPem }, (dir) => [
    "crl",
    "-inform",
    "DER",
    "-in",
    join(dir, "crl.der"),
    "-CAfile",
    join(dir, "root.pem"),
    "-noout",
  ]);
  expect(verdict.output).toContain("verify OK");
});

test.each([
  ["OCSP", false],
  ["CRL", true],
])("a revoked seal certificate seals nothing (%s)", async (source, crlOnly) => {
  const { p12, certificatePem } = await ca.issueSeal(`Revoked ${source} seal`, "pw", crlOnly);
  const seal = sealWith(p12);
  await sealOnce(seal);
  await ca.revoke(certificatePem);
  await expect(sealOnce(seal)).rejects.toThrow(
    `the certificate of “Revoked ${source} seal” has been revoked (${source})`,
  );
});

test("a CA that cannot be reached fails the seal, naming it, instead of sealing without its answer", async () => {
  const away = await startTestCa();
  const { p12 } = await away.issueSeal("Stranded seal", "pw");
  await away.close();
  await expect(sealOnce(sealWith(p12))).rejects.toThrow(
    /the revocation source at 127\.0\.0\.1:\d+ could not be reached/,
  );
});
