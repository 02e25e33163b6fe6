/**
 * The certificate the completed PDFs are sealed with: a PKCS#12 file from configuration, or a
 * self-signed one made on first start. node-forge reads and writes PKCS#12;
 * node:crypto makes the key, which is much faster than forge's own RSA.
 */
import { generateKeyPair, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { MAX_SEAL_FILE_BYTES } from "@countersign/domain";
import forge from "node-forge";

export interface SealCredentials {
  /** The PKCS#12 file: the private key and its certificate (with any chain). */
  p12: Buffer;
  password: string;
}

export interface SealIdentity {
  /** The subject's common name, shown by PDF readers as the signer. */
  commonName: string;
  notAfter: Date;
  /** The DER size of every certificate in the file, which the signature's room must fit. */
  certificateBytes: number;
}

const KEY_OPTIONS = { modulusLength: 3072 } as const;

/** A self-signed seal certificate valid for ten years, as a PKCS#12 file protected by `password`. */
export function generateSealP12(commonName: string, password: string): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", KEY_OPTIONS);
  return selfSignedP12(privateKey, publicKey, commonName, password);
}

/**
 * The same, with the key made on libuv's thread pool: an RSA 3072 key takes 0.6–2.3 s here, which
 * a first start spends opening the database meanwhile instead of blocked.
 */
export async function generateSealP12InBackground(commonName: string, password: string): Promise<Buffer> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)("rsa", KEY_OPTIONS);
  return selfSignedP12(privateKey, publicKey, commonName, password);
}

function selfSignedP12(
  privateKey: KeyObject,
  publicKey: KeyObject,
  commonName: string,
  password: string,
): Buffer {
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs8", format: "pem" }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  // A positive random serial: RFC 5280 asks for up to 20 octets, unique per issuer.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600_000);
  const subject = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Countersign" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: "aes256" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

/** The key and certificates of the file, the key's own certificate first. */
export interface OpenedSeal {
  key: forge.pki.rsa.PrivateKey;
  certificates: forge.pki.Certificate[];
}

/** Opens the file: throws a plain sentence when the password is wrong or there is no key or certificate. */
export function openSeal({ p12, password }: SealCredentials): OpenedSeal {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString("binary")), false, password);
  } catch {
    throw new Error("cannot be opened: it is not a PKCS#12 file, or the password does not fit");
  }
  const keyBag = forge.pki.oids.pkcs8ShroudedKeyBag as string;
  const certBag = forge.pki.oids.certBag as string;
  const key = parsed.getBags({ bagType: keyBag })[keyBag]?.[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new Error("holds no RSA private key");
  const certs = (parsed.getBags({ bagType: certBag })[certBag] ?? [])
    .map((bag: forge.pkcs12.Bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const own = certs.find((cert) => (cert.publicKey as forge.pki.rsa.PublicKey).n.compareTo(key.n) === 0);
  if (!own) throw new Error("holds no certificate for its private key");
  return { key, certificates: [own, ...certs.filter((cert) => cert !== own)] };
}

export function sealIdentity(credentials: SealCredentials): SealIdentity {
  return identityOf(openSeal(credentials));
}

/** What a PDF reader shows of an opened seal, and the room its certificates need. */
export function identityOf({ certificates }: OpenedSeal): SealIdentity {
  const own = certificates[0] as forge.pki.Certificate;
  return {
    commonName: String(own.subject.getField("CN")?.value ?? "Countersign"),
    notAfter: own.validity.notAfter,
    certificateBytes: certificates.reduce(
      (sum, cert) => sum + forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).length(),
      0,
    ),
  };
}

const MIN_RSA_BITS = 2048;

/**
 * Extended key usages under which PDF readers accept a document signature: document signing
 * (RFC 9336), e-mail protection, Adobe's Authentic Documents Trust, Microsoft's document signing,
 * and any.
 */
const DOCUMENT_SIGNING_USAGES = new Set([
  "1.3.6.1.5.5.7.3.36",
  "1.3.6.1.5.5.7.3.4",
  "1.2.840.113583.1.1.5",
  "1.3.6.1.4.1.311.10.3.12",
  "2.5.29.37.0",
]);

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Checks a PKCS#12 file an administrator offers as a seal, before anything is sealed with it:
 * that it opens with its password, holds an RSA key of at least 2048 bits with its own
 * certificate, that the certificate is valid now, is no CA's, allows signatures, and that any
 * chain in the file issued it. Throws a sentence naming the first thing wrong.
 */
export function checkUploadedSeal(credentials: SealCredentials, now = new Date()): OpenedSeal {
  if (credentials.p12.length === 0) throw new Error("the file is empty");
  if (credentials.p12.length > MAX_SEAL_FILE_BYTES) {
    throw new Error(
      `the file is larger than ${MAX_SEAL_FILE_BYTES / 1024} KiB: a seal is a key and a few certificates`,
    );
  }
  const opened = openSeal(credentials);
  const bits = opened.key.n.bitLength();
  if (bits < MIN_RSA_BITS)
    throw new Error(`its RSA key has ${bits} bits; a seal needs at least ${MIN_RSA_BITS}`);
  const [own, ...chain] = opened.certificates as [forge.pki.Certificate, ...forge.pki.Certificate[]];
  if (now < own.validity.notBefore)
    throw new Error(`its certificate is valid only from ${day(own.validity.notBefore)}`);
  if (now >= own.validity.notAfter)
    throw new Error(`its certificate expired on ${day(own.validity.notAfter)}`);
  const constraints = own.getExtension("basicConstraints") as { cA?: boolean } | null;
  if (constraints?.cA)
    throw new Error("it is a certificate authority's certificate; a seal needs a certificate of its own");
  const usage = own.getExtension("keyUsage") as {
    digitalSignature?: boolean;
    nonRepudiation?: boolean;
  } | null;
  if (usage && !usage.digitalSignature && !usage.nonRepudiation) {
    throw new Error("its certificate's key usage allows no signatures (digitalSignature or nonRepudiation)");
  }
  const extended = own.getExtension("extKeyUsage") as { value?: string } | null;
  if (extended?.value !== undefined) {
    const usages = extendedKeyUsages(extended.value);
    if (!usages.some((oid) => DOCUMENT_SIGNING_USAGES.has(oid))) {
      throw new Error(
        "its certificate's extended key usage does not allow signing documents: PDF readers would reject the seal (document signing, e-mail protection or any usage is needed)",
      );
    }
  }
  if (chain.length > 0 && !own.isIssuer(own) && !chain.some((issuer) => issuedBy(own, issuer))) {
    throw new Error("the certificates in the file do not include the one that issued the seal's certificate");
  }
  return opened;
}

/** The OIDs of an extKeyUsage extension's value (DER), known to forge or not. */
function extendedKeyUsages(value: string): string[] {
  const sequence = forge.asn1.fromDer(value);
  return (sequence.value as forge.asn1.Asn1[]).map((oid) => forge.asn1.derToOid(oid.value as string));
}

function issuedBy(certificate: forge.pki.Certificate, issuer: forge.pki.Certificate): boolean {
  try {
    return issuer.verify(certificate);
  } catch {
    return false;
  }
}
