/**
 * The verifier: what a sealed PDF proves, from the file alone. It finds the signatures and checks
 * their layout (laid-signatures.ts) and mathematics (signature-checks.ts), judges every change made
 * after the seal (revision-changes.ts), and names the PAdES level the evidence reaches and why.
 * The same report answers `POST /api/v1/verify`, the public /verify page and `cli verify`; the
 * service adds what only it knows (the request, whether this is the copy it stored).
 */
import { createHash } from "node:crypto";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from "pdf-lib";
import * as pkijs from "pkijs";
import { type LaidSignature, laidSignatures, MAX_SIGNATURES } from "./laid-signatures.js";
import { changesAfter } from "./revision-changes.js";
import {
  type CertificateFacts,
  certificateFacts,
  checkCadesSignature,
  checkTimestampToken,
  type SignatureCheck,
  type TimestampCheck,
} from "./signature-checks.js";

export type PadesLevel = "none" | "B-B" | "B-T" | "B-LT" | "B-LTA";

export interface SignatureReport {
  field: string;
  kind: "signature" | "document-timestamp";
  valid: boolean;
  /** Why it is not valid, in words. */
  problem?: string | undefined;
  /** The signer (a seal's certificate) or the time-stamping authority. */
  signer?: CertificateFacts | undefined;
  /** The time the signature dictionary claims (/M): the signer's clock, not evidence. */
  claimedTime?: string | undefined;
  /** The time a time-stamping authority vouches for. */
  timestampTime?: string | undefined;
  timestampAuthority?: string | undefined;
  /** Whether it covers the file to its last byte. */
  coversWholeFile: boolean;
}

export interface VerificationReport {
  /** intact: every signature holds and nothing changed since but what PAdES allows. */
  verdict: "intact" | "modified" | "invalid" | "unsigned" | "unreadable";
  /** The verdict in one sentence. */
  summary: string;
  level: PadesLevel;
  levelReason: string;
  sha256: string;
  /** The Countersign request the seal completes, from the seal itself. */
  requestId?: string | undefined;
  /** The seal, valid, marks the file as a test key's output: not legally binding. */
  test: boolean;
  signatures: SignatureReport[];
  /** What changed after the seal that PAdES does not allow, in words. */
  changesAfterSeal: string[];
  validationData?: { certificates: number; ocspResponses: number; crls: number } | undefined;
}

const iso = (date: Date | undefined) => date?.toISOString();

function streams(doc: PDFDocument, dss: PDFDict | undefined, key: string): Uint8Array[] {
  const list = dss?.lookupMaybe(PDFName.of(key), PDFArray);
  return (list?.asArray() ?? []).flatMap((entry) => {
    const stream = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
    if (!(stream instanceof PDFRawStream)) return [];
    try {
      return [decodePDFRawStream(stream).decode()];
    } catch {
      return [];
    }
  });
}

/** The certificates of a seal's chain that name where their status is published, and whether the DSS answers for each. */
async function revocationCovered(
  chain: Uint8Array[],
  ocsps: Uint8Array[],
  crls: Uint8Array[],
): Promise<string | undefined> {
  const certs = chain.map((der) => pkijs.Certificate.fromBER(der));
  const issuerOf = (cert: pkijs.Certificate) =>
    certs.find(
      (c) =>
        c !== cert &&
        Buffer.from(c.subject.toSchema().toBER()).equals(Buffer.from(cert.issuer.toSchema().toBER())),
    );
  for (const cert of certs) {
    const names = (cert.extensions ?? []).map((e) => e.extnID);
    const needs = names.includes("1.3.6.1.5.5.7.1.1") || names.includes("2.5.29.31");
    const issuer = issuerOf(cert);
    if (!needs || !issuer) continue;
    let answered = false;
    for (const der of ocsps) {
      try {
        const response = pkijs.OCSPResponse.fromBER(der);
        const status = await response.getCertificateStatus(cert, issuer);
        if (status.isForCertificate && status.status === 0) answered = true;
      } catch {
        // Not an OCSP response about this certificate.
      }
    }
    for (const der of crls) {
      try {
        const crl = pkijs.CertificateRevocationList.fromBER(der);
        if (
          Buffer.from(crl.issuer.toSchema().toBER()).equals(Buffer.from(cert.issuer.toSchema().toBER())) &&
          !crl.isCertificateRevoked(cert) &&
          (await crl.verify({ issuerCertificate: issuer }))
        ) {
          answered = true;
        }
      } catch {
        // Not a CRL for this certificate.
      }
    }
    if (!answered)
      return `no revocation data for “${certificateFacts(cert).commonName}”, whose certificate says where it is published`;
  }
  return undefined;
}

/** The field a signature is listed under, and how many more name the same signature. */
const fieldOf = (laid: LaidSignature) =>
  laid.otherFields === 0
    ? laid.field
    : `${laid.field} (and ${laid.otherFields} other field${laid.otherFields === 1 ? "" : "s"} naming the same signature)`;

function report(
  laid: LaidSignature,
  length: number,
  check: SignatureCheck | TimestampCheck,
): SignatureReport {
  const isSignature = "bindsCertificate" in check;
  const stamp = isSignature ? check.timestamp : check;
  return {
    field: fieldOf(laid),
    kind: laid.kind,
    valid: check.valid && (!isSignature || !check.timestamp || check.timestamp.valid),
    problem:
      check.problem ??
      (isSignature && check.timestamp && !check.timestamp.valid
        ? `its time-stamp: ${check.timestamp.problem}`
        : undefined),
    signer: isSignature ? check.signer : check.authority,
    claimedTime: iso(laid.claimedTime),
    timestampTime: stamp?.valid ? iso(stamp.time) : undefined,
    timestampAuthority: stamp?.valid ? stamp.authority?.commonName : undefined,
    coversWholeFile: laid.revisionEnd === length,
  };
}

/** What `pdf` proves. Never throws on a hostile file: what cannot be read is the verdict. */
export async function verifyDocument(pdf: Uint8Array): Promise<VerificationReport> {
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  const base = { sha256, signatures: [], changesAfterSeal: [], level: "none" as const, test: false };
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch {
    return {
      ...base,
      verdict: "unreadable",
      summary: "This file cannot be read as a PDF (or it is encrypted).",
      levelReason: "nothing could be checked",
    };
  }
  const laid = laidSignatures(doc, pdf);
  if (laid.length > MAX_SIGNATURES) {
    return {
      ...base,
      verdict: "invalid",
      summary: `This PDF holds more than ${MAX_SIGNATURES} signatures, more than the verifier checks: none of them is vouched for.`,
      levelReason: "nothing was checked",
    };
  }
  const seal = laid.find((s) => s.kind === "signature");
  if (!seal) {
    return {
      ...base,
      verdict: "unsigned",
      summary: "This PDF carries no signature: nothing vouches for its content.",
      levelReason: "there is no signature",
    };
  }
  const signatures: SignatureReport[] = [];
  const checks = new Map<LaidSignature, SignatureCheck | TimestampCheck>();
  for (const signature of laid) {
    if (signature.malformed) {
      signatures.push({
        field: fieldOf(signature),
        kind: signature.kind,
        valid: false,
        problem: `its layout is wrong: ${signature.malformed}`,
        coversWholeFile: false,
      });
      continue;
    }
    const check =
      signature.kind === "signature"
        ? await checkCadesSignature(signature.contents, signature.covered)
        : await checkTimestampToken(signature.contents, signature.covered);
    checks.set(signature, check);
    signatures.push(report(signature, pdf.length, check));
  }
  const sealReport = signatures[laid.indexOf(seal)] as SignatureReport;
  const sealCheck = checks.get(seal) as SignatureCheck | undefined;
  const changes = seal.malformed ? [] : await changesAfter(pdf, seal.revisionEnd, doc);
  const lastEnd = Math.max(...laid.map((s) => s.revisionEnd));
  const trailing = Buffer.from(pdf.subarray(lastEnd)).toString("latin1");
  if (lastEnd < pdf.length && !/^\s*$/.test(trailing) && !/%%EOF\s*$/.test(trailing)) {
    changes.push(`${pdf.length - lastEnd} bytes were appended after the last signed revision`);
  }

  const dss = doc.catalog.lookupMaybe(PDFName.of("DSS"), PDFDict);
  const validation = dss
    ? {
        certificates: streams(doc, dss, "Certs"),
        ocspResponses: streams(doc, dss, "OCSPs"),
        crls: streams(doc, dss, "CRLs"),
      }
    : undefined;
  const { level, levelReason } = await levelOf(seal, sealCheck, laid, checks, validation, pdf, doc);

  const invalid = signatures.find((s) => !s.valid);
  let verdict: VerificationReport["verdict"];
  let summary: string;
  if (invalid) {
    verdict = "invalid";
    summary = `The ${invalid.kind === "signature" ? "signature" : "document time-stamp"} “${invalid.field}” is not valid: ${invalid.problem}.`;
  } else if (changes.length > 0) {
    verdict = "modified";
    summary = `The seal is valid for the document as it was sealed, but it was changed since: ${changes[0]}.`;
  } else {
    verdict = "intact";
    const by = sealReport.signer?.commonName ?? "an unnamed certificate";
    const when = sealReport.timestampTime
      ? `, time-stamped ${sealReport.timestampTime} by ${sealReport.timestampAuthority}`
      : `, at ${sealReport.claimedTime ?? "a time it does not state"} by its own clock`;
    const since = sealReport.coversWholeFile
      ? "unchanged since"
      : "unchanged since but for the validation data and time-stamps added to keep it checkable";
    summary = `Sealed by “${by}”${when}; ${since}.`;
  }
  // Only a valid seal vouches for its mark: anyone can write the mark into a file.
  const test = seal.test && sealCheck?.valid === true;
  if (test) summary = `A test seal, not legally binding: this file was made with a test key. ${summary}`;
  return {
    verdict,
    summary,
    level,
    levelReason,
    sha256,
    requestId: seal.requestId,
    test,
    signatures,
    changesAfterSeal: changes,
    validationData: validation && {
      certificates: validation.certificates.length,
      ocspResponses: validation.ocspResponses.length,
      crls: validation.crls.length,
    },
  };
}

async function levelOf(
  seal: LaidSignature,
  check: SignatureCheck | undefined,
  laid: LaidSignature[],
  checks: Map<LaidSignature, SignatureCheck | TimestampCheck>,
  validation: { certificates: Uint8Array[]; ocspResponses: Uint8Array[]; crls: Uint8Array[] } | undefined,
  pdf: Uint8Array,
  doc: PDFDocument,
): Promise<{ level: PadesLevel; levelReason: string }> {
  if (!check?.valid) return { level: "none", levelReason: "the seal is not valid" };
  if (seal.subFilter !== "ETSI.CAdES.detached" || !check.bindsCertificate) {
    return {
      level: "none",
      levelReason: "the signature is not in PAdES form (ETSI.CAdES.detached with signing-certificate-v2)",
    };
  }
  if (!check.timestamp?.valid) {
    return {
      level: "B-B",
      levelReason: "the seal's time is its signer's own clock: no time-stamping authority vouches for it",
    };
  }
  if (!validation) {
    return {
      level: "B-T",
      levelReason: "the seal is time-stamped, but the file carries no validation data (DSS)",
    };
  }
  const chain = [...check.certificates, ...validation.certificates];
  const missing = await revocationCovered(chain, validation.ocspResponses, validation.crls);
  if (missing)
    return {
      level: "B-T",
      levelReason: `the seal is time-stamped, but the validation data is incomplete: ${missing}`,
    };
  const stamps = laid.filter(
    (s) => s.kind === "document-timestamp" && s.revisionEnd > seal.revisionEnd && checks.get(s)?.valid,
  );
  for (const stamp of stamps) {
    const covered =
      stamp.revisionEnd === pdf.length
        ? doc
        : await PDFDocument.load(pdf.subarray(0, stamp.revisionEnd), { updateMetadata: false });
    if (covered.catalog.has(PDFName.of("DSS"))) {
      return {
        level: "B-LTA",
        levelReason:
          "time-stamped, with validation data, under a document time-stamp that keeps it checkable",
      };
    }
  }
  return {
    level: "B-LT",
    levelReason: "time-stamped and with validation data, but no document time-stamp covers it",
  };
}
