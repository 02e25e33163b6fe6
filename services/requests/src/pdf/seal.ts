/**
 * The seal on a completed PDF, made in steps: the room for the signature is laid where the
 * document is drawn (a job process, which needs only the seal's name and the room's size); here,
 * where the key is, the CAdES signature is made over the file and written into it. With a
 * time-stamping authority the signature is time-stamped (B-T), a revision adds the validation
 * data and an empty document time-stamp (laid by that process too), and the authority's token
 * fills that (B-LTA). Without one the seal is B-B: its time is this service's clock.
 */
import { createPrivateKey, sign } from "node:crypto";
import forge from "node-forge";
import * as pkijs from "pkijs";
import { fillRoom, openRoom } from "./pades/byte-range.js";
import { cadesSignature, OID, parseDer, type SealSigner, sha256 } from "./pades/cms-signature.js";
import type { ValidationData } from "./pades/long-term.js";
import { revocationData } from "./pades/revocation.js";
import { requestTimestamp, type Timestamp, type TimestampAuthority } from "./pades/timestamp-client.js";
import { identityOf, openSeal, type SealCredentials, type SealIdentity } from "./seal-certificate.js";

/** The PAdES baseline level a sealed document reaches (ETSI EN 319 142-1). */
export type PadesLevel = "B-B" | "B-LTA";

/** What laying the signature's room needs to know of the seal: no key. */
export interface SealRoom {
  commonName: string;
  /** Bytes the CMS may take: certificates, signature, attributes and any time-stamp token. */
  contentsBytes: number;
  level: PadesLevel;
  /** The time-stamping authority's host, when there is one, for the certificate page. */
  timestampAuthority?: string | undefined;
}

/** Appends the revision with `data` and an empty document time-stamp of `bytes` (a worker does). */
export type AddValidationRevision = (
  pdf: Uint8Array,
  data: ValidationData,
  bytes: number,
) => Promise<Uint8Array>;

export interface SealedDocument {
  bytes: Uint8Array;
  level: PadesLevel;
  /** The authority's time for the signature, when it was time-stamped. */
  timestampedAt?: Date | undefined;
}

/** How long an OCSP responder or CRL server may take to answer. */
const REVOCATION_TIMEOUT_MS = 10_000;

/** Room for a time-stamp token: a signature, its certificates and TSTInfo. Commercial ones run to 8 KiB. */
const TOKEN_ALLOWANCE = 16 * 1024;

/** A signer for the key and certificates of a PKCS#12 file, signing with node:crypto. */
function fileSigner(credentials: SealCredentials): { signer: SealSigner; identity: SealIdentity } {
  const opened = openSeal(credentials);
  const key = createPrivateKey(forge.pki.privateKeyToPem(opened.key));
  const certificates = opened.certificates.map((cert) =>
    Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary"),
  );
  return {
    identity: identityOf(opened),
    signer: {
      certificates,
      algorithm: key.asymmetricKeyType === "ec" ? "ecdsa" : "rsa",
      sign: async (data) => sign("sha256", data, key),
    },
  };
}

/** The certificates a time-stamp token carries, as DER: its authority's and any chain. */
function tokenCertificates(token: Uint8Array): Uint8Array[] {
  const info = new pkijs.ContentInfo({ schema: parseDer(token) });
  if (info.contentType !== OID.signedData) return [];
  const signed = new pkijs.SignedData({ schema: info.content });
  return (signed.certificates ?? [])
    .filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate)
    .map((cert) => new Uint8Array(cert.toSchema().toBER()));
}

export class Seal {
  readonly identity: SealIdentity;
  private readonly signer: SealSigner;

  /** Throws a sentence naming what is wrong with the certificate file; callers add which setting. */
  constructor(
    credentials: SealCredentials,
    private readonly authority?: TimestampAuthority,
  ) {
    const { signer, identity } = fileSigner(credentials);
    this.signer = signer;
    this.identity = identity;
  }

  /** The seal's own certificate, DER: the first of the chain it signs with. */
  get certificate(): Uint8Array {
    return this.signer.certificates[0] as Uint8Array;
  }

  get room(): SealRoom {
    const bytes = this.identity.certificateBytes + 8192 + (this.authority ? TOKEN_ALLOWANCE : 0);
    return {
      commonName: this.identity.commonName,
      contentsBytes: Math.ceil(bytes / 4096) * 4096,
      level: this.authority ? "B-LTA" : "B-B",
      timestampAuthority: this.authority ? new URL(this.authority.url).host : undefined,
    };
  }

  /**
   * Seals a document drawn with `room`'s room. A time-stamping authority that fails fails the whole:
   * no document leaves here half stamped.
   */
  async sign(drawn: Uint8Array, addValidationRevision: AddValidationRevision): Promise<SealedDocument> {
    // A seal whose certificate its authority revoked must not be made; with a time-stamp, what
    // says so goes into the document.
    const sealRevocation = await revocationData(this.signer.certificates, REVOCATION_TIMEOUT_MS);
    const room = openRoom(drawn);
    const authority = this.authority;
    let stamped: Timestamp | undefined;
    const cms = await cadesSignature(
      sha256(...room.signed),
      this.signer,
      authority &&
        (async (signature) => {
          stamped = await requestTimestamp(authority, signature);
          return stamped.token;
        }),
    );
    const sealed = fillRoom(room, cms);
    if (!authority || !stamped) return { bytes: sealed, level: "B-B" };

    const authorityChain = [...tokenCertificates(stamped.token), ...(authority.trustAnchors ?? [])];
    const authorityRevocation = await revocationData(authorityChain, REVOCATION_TIMEOUT_MS);
    const validation: ValidationData = {
      certificates: [...this.signer.certificates, ...authorityChain],
      ocspResponses: [...sealRevocation.ocspResponses, ...authorityRevocation.ocspResponses],
      crls: [...sealRevocation.crls, ...authorityRevocation.crls],
    };
    const extended = await addValidationRevision(sealed, validation, stamped.token.length + TOKEN_ALLOWANCE);
    const timestampRoom = openRoom(extended);
    const documentStamp = await requestTimestamp(authority, Buffer.concat(timestampRoom.signed));
    return {
      bytes: fillRoom(timestampRoom, documentStamp.token),
      level: "B-LTA",
      timestampedAt: stamped.time,
    };
  }
}
