/**
 * The seal's certificate as Organization Admins and the alert rules see it: reported by the process
 * that seals when it starts, answered by any process that serves the API (which never holds the
 * key), and exported as its expiry for `CountersignSealCertificateExpiresSoon`.
 */
import { X509Certificate } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { serviceClient } from "@countersign/kit";
import forge from "node-forge";
import { Registry } from "prom-client";
import { createTestCa } from "../../../test/support/webhook-receiver.js";
import { describeSealCertificate } from "../src/completion/seal-certificates.js";
import { type Harness, startHarness, testSeal } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The seal's own certificate, DER, read from its PKCS#12 file as a reader would. */
function sealCertificateDer(): Buffer {
  const { p12, password } = testSeal();
  const opened = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString("binary")), password);
  const certBag = forge.pki.oids.certBag as string;
  const bag = opened.getBags({ bagType: certBag })[certBag]?.[0];
  if (!bag?.cert) throw new Error("the test seal holds no certificate");
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), "binary");
}

test("the sealing process reports its certificate at start, and a process that serves the API without the key answers it", async () => {
  const api = await h.buildModule({ role: "api", seal: undefined });
  await api.start();
  try {
    const { certificate } = await serviceClient(RequestsService, h.transport(api)).getSealCertificate({});
    const own = new X509Certificate(sealCertificateDer());
    expect({
      subject: certificate?.subject,
      issuer: certificate?.issuer,
      notAfter: certificate?.notAfter && timestampDate(certificate.notAfter).toISOString(),
      level: certificate?.padesLevel,
      fingerprint: certificate?.sha256Fingerprint,
      selfSigned: certificate?.selfSigned,
    }).toEqual({
      subject: "CN=Countersign test seal,O=Countersign",
      issuer: "CN=Countersign test seal,O=Countersign",
      notAfter: new Date(own.validTo).toISOString(),
      level: "B-B",
      fingerprint: own.fingerprint256,
      selfSigned: true,
    });
  } finally {
    await api.stop();
  }
});

test("every requests process exports when the seal's certificate expires, in seconds, from the report", async () => {
  const registry = new Registry();
  for (const metric of h.module.metrics ?? []) registry.registerMetric(metric);
  const own = new X509Certificate(sealCertificateDer());
  const line = (await registry.metrics()).match(
    /^seal_certificate_expiry_timestamp_seconds\{sha256_fingerprint="([^"]+)"\} (\S+)$/m,
  );
  expect([line?.[1], Number(line?.[2]) * 1000]).toEqual([
    own.fingerprint256,
    new Date(own.validTo).getTime(),
  ]);
});

test("a certificate a CA issued is not self-signed, and names its issuer", () => {
  const issued = new X509Certificate(createTestCa().serverCert.cert);
  expect(describeSealCertificate(issued.raw, "B-LTA")).toMatchObject({
    subject: "CN=localhost",
    issuer: "CN=Countersign Test CA",
    pades_level: "B-LTA",
    self_signed: false,
  });
});

test("before a sealing process has reported, there is no certificate to show and no expiry series to alert on", async () => {
  await h.db.query("DELETE FROM seal_certificate");
  const registry = new Registry();
  for (const metric of h.module.metrics ?? []) registry.registerMetric(metric);
  expect((await registry.metrics()).match(/^seal_certificate_expiry_timestamp_seconds.*$/m)).toBeNull();
  expect((await h.requests.getSealCertificate({})).certificate).toBeUndefined();
});
