/**
 * What the seal's certificate is, for the people who must renew it: the process that seals reports
 * its certificate at start (only it holds the key), the processes that serve the API answer from
 * that report, and the sealing process exports the expiry as a metric the alert rules watch.
 */
import { X509Certificate } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type SealCertificate,
  SealCertificateSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Queryable } from "@countersign/kit";
import { Gauge } from "prom-client";
import type { PadesLevel } from "./completion/seal.js";

export interface SealCertificateRow {
  subject: string;
  issuer: string;
  not_before: Date;
  not_after: Date;
  pades_level: PadesLevel;
  sha256_fingerprint: string;
  self_signed: boolean;
  reported_at: Date;
}

/** X509Certificate writes a name one attribute a line, in the certificate's order: one line here. */
const oneLine = (name: string) => name.split("\n").filter(Boolean).join(",");

/** The seal's own certificate (the first of its chain, DER) as the report keeps it. */
export function describeSealCertificate(
  der: Uint8Array,
  level: PadesLevel,
): Omit<SealCertificateRow, "reported_at"> {
  const certificate = new X509Certificate(der);
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    not_before: new Date(certificate.validFrom),
    not_after: new Date(certificate.validTo),
    pades_level: level,
    sha256_fingerprint: certificate.fingerprint256,
    // Its issuer is its subject and its own key verifies it. (checkIssued also asks the issuer for
    // the right to sign certificates, which a seal's key usage does not give.)
    self_signed: certificate.issuer === certificate.subject && certificate.verify(certificate.publicKey),
  };
}

export const sealCertificateStore = {
  /** Replaces the report: one seal per deployment. */
  async report(db: Queryable, row: Omit<SealCertificateRow, "reported_at">): Promise<void> {
    await db.query(
      `INSERT INTO seal_certificate (only_row, subject, issuer, not_before, not_after, pades_level, sha256_fingerprint, self_signed, reported_at)
       VALUES (true, $1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (only_row) DO UPDATE SET subject = $1, issuer = $2, not_before = $3, not_after = $4,
         pades_level = $5, sha256_fingerprint = $6, self_signed = $7, reported_at = now()`,
      [
        row.subject,
        row.issuer,
        row.not_before,
        row.not_after,
        row.pades_level,
        row.sha256_fingerprint,
        row.self_signed,
      ],
    );
  },

  async current(db: Queryable): Promise<SealCertificateRow | undefined> {
    const { rows } = await db.query<SealCertificateRow>(
      "SELECT subject, issuer, not_before, not_after, pades_level, sha256_fingerprint, self_signed, reported_at FROM seal_certificate",
    );
    return rows[0];
  },
};

export function toSealCertificate(row: SealCertificateRow): SealCertificate {
  return create(SealCertificateSchema, {
    subject: row.subject,
    issuer: row.issuer,
    notBefore: timestampFromDate(row.not_before),
    notAfter: timestampFromDate(row.not_after),
    padesLevel: row.pades_level,
    sha256Fingerprint: row.sha256_fingerprint,
    selfSigned: row.self_signed,
    reportTime: timestampFromDate(row.reported_at),
  });
}

/**
 * The seal certificate's expiry, which the `CountersignSealCertificateExpiresSoon` alert compares
 * with now, read from the report at each scrape: every requests process exports it, so it is scraped
 * where the API is (the sealing pods have no Service), and none before a sealing process reported.
 */
export function sealExpiryGauge(db: Queryable): Gauge {
  return new Gauge({
    name: "seal_certificate_expiry_timestamp_seconds",
    help: "When the certificate completed PDFs are sealed with expires (Unix seconds); a seal made after it is not valid in PDF readers.",
    // Labelled by the certificate, so that there is no series at all before one is reported.
    labelNames: ["sha256_fingerprint"],
    registers: [],
    async collect() {
      const report = await sealCertificateStore.current(db);
      this.reset();
      if (report)
        this.set({ sha256_fingerprint: report.sha256_fingerprint }, report.not_after.getTime() / 1000);
    },
  });
}
