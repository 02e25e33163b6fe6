/**
 * The CMS signature inside a sealed PDF, in the CAdES form PAdES asks for (ETSI EN 319 142-1,
 * baseline B): detached SignedData over the PDF's byte range, signed attributes content-type,
 * message-digest and signing-certificate-v2 (which binds the signer's certificate to the
 * signature), and no signing-time attribute: the claimed time is the signature dictionary's /M.
 * node-forge reads the PKCS#12 file once; node:crypto signs, far faster than forge's own RSA,
 * and no library we could find writes signing-certificate-v2.
 */
import { createHash, createPrivateKey, type KeyObject, sign } from "node:crypto";
import { Signer } from "@signpdf/utils";
import forge from "node-forge";
import type { OpenedSeal } from "./seal-certificate.js";

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  data: "1.2.840.113549.1.7.1",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
};

const seq = (items: Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (id: string) =>
  asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
const int = (n: number) =>
  asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const octets = (bytes: Buffer) =>
  asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes.toString("binary"));
const nul = () => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "");
const der = (node: Asn1) => Buffer.from(asn1.toDer(node).getBytes(), "binary");
const attribute = (type: string, value: Asn1) => seq([oid(type), set([value])]);

interface SigningIdentity {
  key: KeyObject;
  /** The signer's certificate, then any chain the file carries, as DER. */
  certificates: Buffer[];
  /** The signer certificate's issuer Name and serialNumber, as they are in the certificate. */
  issuer: Asn1;
  serial: Asn1;
}

/** The opened file as signing needs it: the RSA key for node:crypto, the certificates as DER. */
function signingIdentity({ key, certificates: certs }: OpenedSeal): SigningIdentity {
  const certificates = certs.map((cert) => der(forge.pki.certificateToAsn1(cert)));
  // TBSCertificate: [0] version, serialNumber, signature, issuer, ...
  const tbs = (asn1.fromDer((certificates[0] as Buffer).toString("binary")).value as Asn1[])[0] as Asn1;
  const fields = tbs.value as Asn1[];
  return {
    key: createPrivateKey(forge.pki.privateKeyToPem(key)),
    certificates,
    serial: fields[1] as Asn1,
    issuer: fields[3] as Asn1,
  };
}

export class CadesSigner extends Signer {
  private readonly identity: SigningIdentity;

  constructor(seal: OpenedSeal) {
    super();
    this.identity = signingIdentity(seal);
  }

  override async sign(content: Buffer): Promise<Buffer> {
    const { key, certificates, issuer, serial } = this.identity;
    const sha256 = () => seq([oid(OID.sha256)]);
    const signingCertificate = seq([
      seq([
        seq([
          octets(
            createHash("sha256")
              .update(certificates[0] as Buffer)
              .digest(),
          ),
        ]),
      ]),
    ]);
    // DER orders a SET OF by the encodings of its members.
    const attributes = [
      attribute(OID.contentType, oid(OID.data)),
      attribute(OID.messageDigest, octets(createHash("sha256").update(content).digest())),
      attribute(OID.signingCertificateV2, signingCertificate),
    ].sort((a, b) => Buffer.compare(der(a), der(b)));
    // The signature covers the attributes DER-encoded as a SET; they are stored as [0] IMPLICIT.
    const signature = sign("sha256", der(set(attributes)), key);
    const signerInfo = seq([
      int(1),
      seq([issuer, serial]),
      sha256(),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attributes),
      seq([oid(OID.rsaEncryption), nul()]),
      octets(signature),
    ]);
    const signedData = seq([
      int(1),
      set([sha256()]),
      seq([oid(OID.data)]),
      asn1.create(
        asn1.Class.CONTEXT_SPECIFIC,
        0,
        true,
        certificates.map((cert) => asn1.fromDer(cert.toString("binary"))),
      ),
      set([signerInfo]),
    ]);
    return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
  }
}
