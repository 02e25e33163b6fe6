/**
 * Revocation data for long-term validation: for each certificate of a chain that names where its
 * status is published — an OCSP responder in its Authority Information Access, a CRL in its CRL
 * Distribution Points — the current answer, checked (signed by the certificate's issuer, about this
 * certificate, fresh) before it is kept. A certificate found revoked stops the seal; a source that
 * cannot be reached fails the attempt, which is retried: a PAdES B-LT document never misses the
 * data its certificates say it needs.
 */

import { type OutboundAnswer, OutboundClient, peerFailure } from "@countersign/kit";
import type * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { parseDer, toArrayBuffer } from "./cms-signature.js";

const OID = {
  authorityInfoAccess: "1.3.6.1.5.5.7.1.1",
  ocsp: "1.3.6.1.5.5.7.48.1",
  crlDistributionPoints: "2.5.29.31",
  basicOcspResponse: "1.3.6.1.5.5.7.48.1.1",
} as const;

/** OCSP answers are small; a CRL of a large CA runs to megabytes. */
const MAX_OCSP_BYTES = 64 * 1024;
const MAX_CRL_BYTES = 16 * 1024 * 1024;

export interface RevocationData {
  ocspResponses: Uint8Array[];
  crls: Uint8Array[];
}

export class RevocationError extends Error {
  override name = "RevocationError";
}

export class CertificateRevoked extends RevocationError {
  override name = "CertificateRevoked";
}

/** A certificate as a person names it: “its common name”. */
const subjectOf = (cert: pkijs.Certificate) => {
  const names = cert.subject.typesAndValues;
  const common = names.find((tv) => tv.type === "2.5.4.3") ?? names.at(-1);
  return `“${common?.value.valueBlock.value ?? "unnamed"}”`;
};

/** URIs (GeneralName type 6) of the extension `oid`, filtered by `accept`. */
function uris(cert: pkijs.Certificate, oid: string): string[] {
  const extension = cert.extensions?.find((e) => e.extnID === oid);
  if (!extension?.parsedValue) return [];
  const found: string[] = [];
  if (oid === OID.authorityInfoAccess) {
    for (const access of (extension.parsedValue as pkijs.InfoAccess).accessDescriptions) {
      if (access.accessMethod === OID.ocsp && access.accessLocation.type === 6)
        found.push(access.accessLocation.value);
    }
  } else {
    for (const point of (extension.parsedValue as pkijs.CRLDistributionPoints).distributionPoints) {
      const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
      for (const name of names) if (name.type === 6) found.push(name.value);
    }
  }
  return found.filter((uri) => /^https?:\/\//i.test(uri));
}

/**
 * The sources a certificate of the seal's chain names: the operator chose the certificate, so any
 * address may be reached; each answer is bounded in bytes and time. CRL servers often move a file
 * (http to https, a mirror), so a few redirects are followed.
 */
const sources = new OutboundClient({ purpose: "revocation source", reach: "any" });

async function fetchLimited(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Uint8Array },
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  const where = new URL(url).host;
  let answer: OutboundAnswer;
  try {
    answer = await sources.request(url, init, { maxBytes: limit, timeoutMs, redirects: 3 });
  } catch (err) {
    throw new RevocationError(`the revocation source at ${where} ${peerFailure(err)}`, { cause: err });
  }
  if (answer.status < 200 || answer.status > 299)
    throw new RevocationError(`the revocation source at ${where} answered ${answer.status}`);
  return answer.body;
}

async function ocspAnswer(
  url: string,
  cert: pkijs.Certificate,
  issuer: pkijs.Certificate,
  timeoutMs: number,
): Promise<Uint8Array> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(cert, { hashAlgorithm: "SHA-256", issuerCertificate: issuer });
  const bytes = await fetchLimited(
    url,
    {
      method: "POST",
      headers: { "content-type": "application/ocsp-request" },
      body: new Uint8Array(request.toSchema(true).toBER()),
    },
    MAX_OCSP_BYTES,
    timeoutMs,
  );
  const where = new URL(url).host;
  let response: pkijs.OCSPResponse;
  try {
    response = new pkijs.OCSPResponse({ schema: parseDer(bytes) });
  } catch {
    throw new RevocationError(
      `the OCSP responder at ${where} answered with something that is not an OCSP response`,
    );
  }
  if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes) {
    throw new RevocationError(
      `the OCSP responder at ${where} refused (status ${response.responseStatus.valueBlock.valueDec})`,
    );
  }
  if (response.responseBytes.responseType !== OID.basicOcspResponse) {
    throw new RevocationError(
      `the OCSP responder at ${where} answered in a form other than a basic response`,
    );
  }
  const basic = new pkijs.BasicOCSPResponse({
    schema: parseDer(new Uint8Array(response.responseBytes.response.getValue())),
  });
  const signed = await basic.verify({ issuerCerts: [issuer], trustedCerts: [issuer] }).catch(() => false);
  if (!signed)
    throw new RevocationError(
      `the OCSP responder at ${where} sent an answer not signed for ${subjectOf(issuer)}`,
    );
  const { isForCertificate, status } = await basic.getCertificateStatus(cert, issuer);
  if (!isForCertificate)
    throw new RevocationError(`the OCSP responder at ${where} answered about another certificate`);
  if (status === 1)
    throw new CertificateRevoked(`the certificate of ${subjectOf(cert)} has been revoked (OCSP)`);
  if (status !== 0)
    throw new RevocationError(
      `the OCSP responder at ${where} does not know the certificate of ${subjectOf(cert)}`,
    );
  return bytes;
}

async function crlAnswer(
  url: string,
  cert: pkijs.Certificate,
  issuer: pkijs.Certificate,
  timeoutMs: number,
): Promise<Uint8Array> {
  const where = new URL(url).host;
  const bytes = await fetchLimited(url, { method: "GET" }, MAX_CRL_BYTES, timeoutMs);
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = new pkijs.CertificateRevocationList({ schema: parseDer(bytes) });
  } catch {
    throw new RevocationError(`the CRL at ${where} is not a CRL`);
  }
  if (!(await crl.verify({ issuerCertificate: issuer }).catch(() => false))) {
    throw new RevocationError(`the CRL at ${where} is not signed by ${subjectOf(issuer)}`);
  }
  if (crl.nextUpdate && crl.nextUpdate.value.getTime() < Date.now()) {
    throw new RevocationError(
      `the CRL at ${where} is out of date (its next update was ${crl.nextUpdate.value.toISOString()})`,
    );
  }
  if (crl.isCertificateRevoked(cert))
    throw new CertificateRevoked(`the certificate of ${subjectOf(cert)} has been revoked (CRL)`);
  return bytes;
}

/**
 * The revocation data of every certificate in `chain` (DER, any order) whose issuer is in it too:
 * OCSP where the certificate names a responder, else its CRL. A self-signed certificate has none.
 */
export async function revocationData(
  chain: readonly Uint8Array[],
  timeoutMs: number,
): Promise<RevocationData> {
  const certs = chain.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
  const data: RevocationData = { ocspResponses: [], crls: [] };
  for (const cert of certs) {
    const issuer = certs.find(
      (candidate) => candidate !== cert && asn1Equal(candidate.subject.toSchema(), cert.issuer.toSchema()),
    );
    if (!issuer) continue;
    const ocsp = uris(cert, OID.authorityInfoAccess);
    const crl = uris(cert, OID.crlDistributionPoints);
    if (ocsp[0]) data.ocspResponses.push(await ocspAnswer(ocsp[0], cert, issuer, timeoutMs));
    else if (crl[0]) data.crls.push(await crlAnswer(crl[0], cert, issuer, timeoutMs));
  }
  return data;
}

const asn1Equal = (a: asn1js.AsnType, b: asn1js.AsnType) =>
  Buffer.from(a.toBER()).equals(Buffer.from(b.toBER()));
