/**
 * A certificate signing request (PKCS#10) for the seal's key, for a certificate authority to issue
 * the document-signing certificate readers trust. The subject is the seal certificate's own unless
 * given; the request asks for what a document-signing certificate needs (digital signature and
 * non-repudiation). pkijs writes it; the key signs it through WebCrypto and stays where it is.
 */
import { webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import forge from "node-forge";
import * as pkijs from "pkijs";
import { openSeal, type SealCredentials } from "./seal-certificate.js";

const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  country: "2.5.4.6",
  extensionRequest: "1.2.840.113549.1.9.14",
  keyUsage: "2.5.29.15",
} as const;

export interface SubjectNames {
  commonName?: string | undefined;
  organization?: string | undefined;
  /** Two letters (ISO 3166). */
  country?: string | undefined;
}

/** The request in PEM, signed with the seal's key. */
export async function sealCertificateRequest(
  credentials: SealCredentials,
  names: SubjectNames = {},
): Promise<string> {
  const opened = openSeal(credentials);
  const own = opened.certificates[0] as forge.pki.Certificate;
  const commonName = names.commonName ?? String(own.subject.getField("CN")?.value ?? "Countersign seal");
  const organization = names.organization ?? (own.subject.getField("O")?.value as string | undefined);
  if (names.country !== undefined && !/^[A-Z]{2}$/.test(names.country)) {
    throw new Error("the country must be two capital letters (ISO 3166), such as DE or US");
  }
  const pkcs8 = forge.asn1
    .toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(opened.key)))
    .getBytes();
  const crypto = new pkijs.CryptoEngine({
    name: "node",
    crypto: webcrypto as unknown as ConstructorParameters<typeof pkijs.CryptoEngine>[0]["crypto"],
  });
  const privateKey = await crypto.importKey(
    "pkcs8",
    Buffer.from(pkcs8, "binary"),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const publicKey = await crypto.importKey(
    "spki",
    Buffer.from(
      forge.asn1.toDer(forge.pki.publicKeyToAsn1(own.publicKey as forge.pki.rsa.PublicKey)).getBytes(),
      "binary",
    ),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    true,
    ["verify"],
  );

  const request = new pkijs.CertificationRequest();
  request.version = 0;
  const subject = [
    ...(names.country ? [[OID.country, new asn1js.PrintableString({ value: names.country })] as const] : []),
    ...(organization ? [[OID.organization, new asn1js.Utf8String({ value: organization })] as const] : []),
    [OID.commonName, new asn1js.Utf8String({ value: commonName })] as const,
  ];
  // Each name its own RDN, country first, as CAs expect them: built as DER and read back, which
  // pkijs then keeps as it is (from its parts it writes one RDN of all).
  request.subject = pkijs.RelativeDistinguishedNames.fromBER(
    new asn1js.Sequence({
      value: subject.map(
        ([type, value]) =>
          new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()] }),
      ),
    }).toBER(),
  );
  await request.subjectPublicKeyInfo.importKey(publicKey, crypto);
  // keyUsage: digitalSignature (bit 0) and nonRepudiation (bit 1).
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  request.attributes = [
    new pkijs.Attribute({
      type: OID.extensionRequest,
      values: [
        new pkijs.Extensions({
          extensions: [
            new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
          ],
        }).toSchema(),
      ],
    }),
  ];
  await request.sign(privateKey, "SHA-256", crypto);
  const der = Buffer.from(request.toSchema().toBER(false));
  const base64 = der.toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN CERTIFICATE REQUEST-----\n${base64.trimEnd()}\n-----END CERTIFICATE REQUEST-----\n`;
}
