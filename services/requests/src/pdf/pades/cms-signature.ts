/**
 * The CMS signature inside a sealed PDF, in the CAdES form PAdES asks for (ETSI EN 319 142-1):
 * detached SignedData over the PDF's byte range with the signed attributes content-type,
 * message-digest and signing-certificate-v2 (which binds the sealer's certificate to the
 * signature), and no signing-time attribute (the claimed time is the signature dictionary's /M).
 * With a time-stamping authority the signature value is time-stamped (RFC 3161) and the token kept
 * as the unsigned attribute signature-time-stamp: level B-T. pkijs writes the structures; the key
 * only ever signs the DER of the signed attributes, so it may live in a token (PKCS#11).
 */
import { createHash } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

export const OID = {
  signedData: "1.2.840.113549.1.7.2",
  data: "1.2.840.113549.1.7.1",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  tstInfo: "1.2.840.113549.1.9.16.1.4",
} as const;

/** What signs: the sealer's key, wherever it is kept, and its certificate chain. */
export interface SealSigner {
  /** The signer's certificate first, then the chain the seal carries, as DER. */
  readonly certificates: readonly Uint8Array[];
  /** RSA (PKCS#1 v1.5) or ECDSA, always over SHA-256. */
  readonly algorithm: "rsa" | "ecdsa";
  /** The signature over `data` (SHA-256 inside); ECDSA's in DER, as CMS keeps it. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** Asks a time-stamping authority for a token over `data`; the token's DER. */
export type TimeStamper = (data: Uint8Array) => Promise<Uint8Array>;

export const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

export const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

const der = (node: { toBER(): ArrayBuffer }) => new Uint8Array(node.toBER());

const algorithm = (algorithmId: string, withNull: boolean) =>
  new pkijs.AlgorithmIdentifier({
    algorithmId,
    ...(withNull ? { algorithmParams: new asn1js.Null() } : {}),
  });

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } (RFC 5035), with one
 * ESSCertIDv2 ::= SEQUENCE { certHash OCTET STRING }: SHA-256 is the default hash algorithm and so
 * not written, and the baseline profile leaves issuerSerial out.
 */
function signingCertificateV2(certificate: Uint8Array): asn1js.Sequence {
  const certHash = new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(certificate)) });
  return new asn1js.Sequence({
    value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certHash] })] })],
  });
}

/** DER orders a SET OF by the encodings of its members. */
function derSorted(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((attribute) => ({ attribute, bytes: der(attribute.toSchema()) }));
  encoded.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  return encoded.map((e) => e.attribute);
}

/**
 * The detached CAdES signature over `content` (the PDF's byte range, already hashed into
 * `contentDigest`), time-stamped when `timeStamper` is given.
 */
export async function cadesSignature(
  contentDigest: Uint8Array,
  signer: SealSigner,
  timeStamper?: TimeStamper,
): Promise<Uint8Array> {
  const [own, ...chain] = signer.certificates;
  if (!own) throw new Error("the seal has no certificate");
  const certificate = pkijs.Certificate.fromBER(toArrayBuffer(own));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: derSorted([
      new pkijs.Attribute({
        type: OID.contentType,
        values: [new asn1js.ObjectIdentifier({ value: OID.data })],
      }),
      new pkijs.Attribute({
        type: OID.messageDigest,
        values: [new asn1js.OctetString({ valueHex: toArrayBuffer(contentDigest) })],
      }),
      new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(own)] }),
    ]),
  });
  // The signature covers the attributes DER-encoded as a SET; they are stored as [0] IMPLICIT.
  const toSign = der(signedAttrs.toSchema());
  toSign[0] = 0x31;
  const signature = await signer.sign(toSign);

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({
      issuer: certificate.issuer,
      serialNumber: certificate.serialNumber,
    }),
    digestAlgorithm: algorithm(OID.sha256, false),
    signedAttrs,
    signatureAlgorithm:
      signer.algorithm === "rsa" ? algorithm(OID.rsaEncryption, true) : algorithm(OID.ecdsaWithSha256, false),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signature) }),
  });
  if (timeStamper) {
    const token = await timeStamper(signature);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [parseDer(token)] })],
    });
  }

  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [algorithm(OID.sha256, false)],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [own, ...chain].map((bytes) => pkijs.Certificate.fromBER(toArrayBuffer(bytes))),
    signerInfos: [signerInfo],
  });
  return der(
    new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema(),
  );
}

/** One DER value, which must be all of `bytes`. */
export function parseDer(bytes: Uint8Array): asn1js.AsnType {
  const parsed = asn1js.fromBER(toArrayBuffer(bytes));
  if (parsed.offset === -1 || parsed.offset !== bytes.byteLength) throw new Error("not one DER value");
  return parsed.result;
}
