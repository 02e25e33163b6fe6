/** PKCS#12 files for the seal tests: a CA, the seals it issues, and the faults an upload is checked for. */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface KeyPair {
  key: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
}

/** An RSA key pair made by Node, in node-forge's form. */
export function keyPair(bits: number): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return {
    key: forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
    publicKey: forge.pki.publicKeyFromPem(
      publicKey.export({ type: "spki", format: "pem" }).toString(),
    ) as forge.pki.rsa.PublicKey,
  };
}

export interface TestCa extends KeyPair {
  certificate: forge.pki.Certificate;
}

const DAY = 86_400_000;

export function testCa(commonName = "Countersign Test Seal CA"): TestCa {
  const pair = keyPair(2048);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = pair.publicKey;
  certificate.serialNumber = `01${randomBytes(8).toString("hex")}`;
  certificate.validity.notBefore = new Date(Date.now() - DAY);
  certificate.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  certificate.setSubject([{ name: "commonName", value: commonName }]);
  certificate.setIssuer([{ name: "commonName", value: commonName }]);
  certificate.setExtensions([
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true },
  ]);
  certificate.sign(pair.key, forge.md.sha256.create());
  return { ...pair, certificate };
}

export interface SealFileOptions {
  commonName: string;
  /** Issued by this CA, which the file then carries as its chain; self-signed without one. */
  ca?: TestCa;
  /** A chain put in the file instead of the issuer's. */
  chain?: forge.pki.Certificate[];
  bits?: number;
  notBefore?: Date;
  notAfter?: Date;
  cA?: boolean;
  keyUsage?: Record<string, boolean>;
  extKeyUsage?: Record<string, boolean>;
  password?: string;
}

/** A seal's PKCS#12 file as an administrator would upload it. */
export function sealFile(options: SealFileOptions): { p12: Buffer; password: string } {
  const pair = keyPair(options.bits ?? 2048);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = pair.publicKey;
  certificate.serialNumber = `01${randomBytes(8).toString("hex")}`;
  certificate.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
  certificate.validity.notAfter = options.notAfter ?? new Date(Date.now() + 365 * DAY);
  const subject = [
    { name: "commonName", value: options.commonName },
    { name: "organizationName", value: "Acme" },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(options.ca ? options.ca.certificate.subject.attributes : subject);
  certificate.setExtensions([
    { name: "basicConstraints", cA: options.cA ?? false },
    { name: "keyUsage", ...(options.keyUsage ?? { digitalSignature: true, nonRepudiation: true }) },
    ...(options.extKeyUsage ? [{ name: "extKeyUsage", ...options.extKeyUsage }] : []),
  ]);
  certificate.sign(options.ca?.key ?? pair.key, forge.md.sha256.create());
  const password = options.password ?? "seal-password";
  const chain = options.chain ?? (options.ca ? [options.ca.certificate] : []);
  const asn1 = forge.pkcs12.toPkcs12Asn1(pair.key, [certificate, ...chain], password, {
    algorithm: "aes256",
  });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary"), password };
}
