/**
 * The cryptographic checks of one signature: a CAdES signature's digest of the covered bytes, its
 * signature with the signer's certificate, the signing-certificate-v2 binding and any signature
 * time-stamp over its value; a document time-stamp's token over the covered bytes. pkijs does the
 * mathematics; what is reported is what a reader needs: valid or not and why, who, and when.
 */
import { createHash } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { CoveredBytes, digestingEngine, STAND_IN } from "./covered-bytes.js";

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  commonName: "2.5.4.3",
} as const;

/** A certificate as the report shows it. */
export interface CertificateFacts {
  commonName: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  selfSigned: boolean;
  sha256: string;
}

export interface TimestampCheck {
  valid: boolean;
  /** Why it is not valid. */
  problem?: string | undefined;
  /** The authority's time (TSTInfo genTime). */
  time?: Date | undefined;
  /** The authority that signed it. */
  authority?: CertificateFacts | undefined;
  /** The certificates the token carries, DER. */
  certificates: Uint8Array[];
}

export interface SignatureCheck {
  valid: boolean;
  problem?: string | undefined;
  signer?: CertificateFacts | undefined;
  /** Whether signing-certificate-v2 binds the signer's certificate (PAdES asks for it). */
  bindsCertificate: boolean;
  timestamp?: TimestampCheck | undefined;
  /** The certificates the CMS carries, DER. */
  certificates: Uint8Array[];
}

/** The bytes as the ArrayBuffer pkijs wants: the one under them when they fill it, else a copy. */
const toBuffer = (bytes: Uint8Array): ArrayBuffer =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();

function nameOf(name: pkijs.RelativeDistinguishedNames): string {
  const values = name.typesAndValues;
  const common = values.find((tv) => tv.type === OID.commonName) ?? values.at(-1);
  return String(common?.value.valueBlock.value ?? "");
}

export function certificateFacts(cert: pkijs.Certificate): CertificateFacts {
  const der = new Uint8Array(cert.toSchema().toBER());
  return {
    commonName: nameOf(cert.subject),
    issuer: nameOf(cert.issuer),
    serialNumber: Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString("hex"),
    notBefore: cert.notBefore.value,
    notAfter: cert.notAfter.value,
    selfSigned: Buffer.from(cert.subject.toSchema().toBER()).equals(
      Buffer.from(cert.issuer.toSchema().toBER()),
    ),
    sha256: sha256(der).toString("hex"),
  };
}

function signedDataOf(der: Uint8Array): pkijs.SignedData {
  const parsed = asn1js.fromBER(toBuffer(der));
  if (parsed.offset === -1) throw new Error("is not DER");
  const info = new pkijs.ContentInfo({ schema: parsed.result });
  if (info.contentType !== OID.signedData) throw new Error("is not CMS SignedData");
  return new pkijs.SignedData({ schema: info.content });
}

const certificatesOf = (signed: pkijs.SignedData): pkijs.Certificate[] =>
  (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);

/** The signer's certificate: the one matching the signer info's issuer and serial number. */
function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate | undefined {
  const sid = signed.signerInfos[0]?.sid;
  if (!(sid instanceof pkijs.IssuerAndSerialNumber)) return undefined;
  return certificatesOf(signed).find(
    (cert) =>
      cert.serialNumber.isEqual(sid.serialNumber) &&
      Buffer.from(cert.issuer.toSchema().toBER()).equals(Buffer.from(sid.issuer.toSchema().toBER())),
  );
}

/** An RFC 3161 token (DER ContentInfo) checked over `data`. */
export async function checkTimestampToken(token: Uint8Array, data: CoveredBytes): Promise<TimestampCheck> {
  let signed: pkijs.SignedData;
  try {
    signed = signedDataOf(token);
  } catch (err) {
    return { valid: false, problem: `the time-stamp token ${(err as Error).message}`, certificates: [] };
  }
  const certificates = certificatesOf(signed).map((c) => new Uint8Array(c.toSchema().toBER()));
  const signer = signerCertificate(signed);
  const authority = signer ? certificateFacts(signer) : undefined;
  if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent) {
    return { valid: false, problem: "the time-stamp token holds no TSTInfo", authority, certificates };
  }
  const tstInfo = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  const imprint = Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (tstInfo.messageImprint.hashAlgorithm.algorithmId !== "2.16.840.1.101.3.4.2.1") {
    return {
      valid: false,
      problem: "the time-stamp is not over a SHA-256 digest",
      time: tstInfo.genTime,
      authority,
      certificates,
    };
  }
  if (!imprint.equals(data.digest("sha256"))) {
    return {
      valid: false,
      problem: "the time-stamp is for other bytes than the ones it covers here",
      time: tstInfo.genTime,
      authority,
      certificates,
    };
  }
  // pkijs digests the data again for the imprint: it is given the digest made above.
  const result = await signed
    .verify({ signer: 0, data: STAND_IN, checkChain: false, extendedMode: true }, digestingEngine(data))
    .catch((err: pkijs.SignedDataVerifyError) => err);
  if (!result.signatureVerified) {
    return {
      valid: false,
      problem: `the time-stamp's signature does not verify (${result.message})`,
      time: tstInfo.genTime,
      authority,
      certificates,
    };
  }
  return { valid: true, time: tstInfo.genTime, authority, certificates };
}

/** A CAdES signature (DER ContentInfo) checked over the bytes it covers. */
export async function checkCadesSignature(cms: Uint8Array, covered: CoveredBytes): Promise<SignatureCheck> {
  let signed: pkijs.SignedData;
  try {
    signed = signedDataOf(cms);
  } catch (err) {
    return {
      valid: false,
      problem: `its contents ${(err as Error).message}`,
      bindsCertificate: false,
      certificates: [],
    };
  }
  const certificates = certificatesOf(signed).map((c) => new Uint8Array(c.toSchema().toBER()));
  const signerInfo = signed.signerInfos[0];
  const cert = signerCertificate(signed);
  if (!signerInfo || signed.signerInfos.length !== 1) {
    return {
      valid: false,
      problem: "it does not have exactly one signer",
      bindsCertificate: false,
      certificates,
    };
  }
  if (!cert) {
    return {
      valid: false,
      problem: "it does not carry its signer's certificate",
      bindsCertificate: false,
      certificates,
    };
  }
  const signer = certificateFacts(cert);
  const binding = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.signingCertificateV2);
  const bindsCertificate = binding ? boundHash(binding).equals(Buffer.from(signer.sha256, "hex")) : false;
  // With signed attributes (as PAdES has them), pkijs compares their message digest with the covered
  // bytes' and verifies the attributes: it is given the digest, never the bytes.
  const data = signerInfo.signedAttrs ? STAND_IN : toBuffer(covered.joined());
  const result = await signed
    .verify({ signer: 0, data, checkChain: false, extendedMode: true }, digestingEngine(covered))
    .catch((err: pkijs.SignedDataVerifyError) => err);
  const token = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)
    ?.values[0];
  const timestamp = token
    ? await checkTimestampToken(
        new Uint8Array((token as asn1js.Sequence).toBER()),
        new CoveredBytes([signerInfo.signature.valueBlock.valueHexView]),
      )
    : undefined;
  if (!result.signatureVerified) {
    const problem = /digest/i.test(result.message)
      ? "the signed bytes have changed since it was made"
      : `its signature does not verify (${result.message})`;
    return { valid: false, problem, signer, bindsCertificate, timestamp, certificates };
  }
  if (binding && !bindsCertificate) {
    return {
      valid: false,
      problem: "its signing-certificate attribute names another certificate than the signer's",
      signer,
      bindsCertificate,
      timestamp,
      certificates,
    };
  }
  return { valid: true, signer, bindsCertificate, timestamp, certificates };
}

/** The certificate hash of the first ESSCertIDv2 in a signing-certificate-v2 attribute. */
function boundHash(attribute: pkijs.Attribute): Buffer {
  try {
    const certs = (attribute.values[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const first = certs.valueBlock.value[0] as asn1js.Sequence;
    const hash = first.valueBlock.value.find((v): v is asn1js.OctetString => v instanceof asn1js.OctetString);
    return Buffer.from(hash?.valueBlock.valueHexView ?? []);
  } catch {
    return Buffer.alloc(0);
  }
}
