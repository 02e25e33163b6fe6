/**
 * What the seal's certificates are, for the people who must renew them. The deployment's: the
 * process that seals reports it at start (only it holds the key) and the processes that serve the
 * API answer from that report. A workspace's own: uploaded by an Organization Admin, checked, and
 * kept sealed in the database for the sealing processes to open. Every requests process exports
 * each certificate's expiry as a metric the alert rules watch.
 */
import { X509Certificate } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { MAX_SEAL_PASSWORD_LENGTH } from "@countersign/domain";
import {
  type ReplaceSealCertificateRequest,
  type SealCertificate,
  SealCertificateSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { isUuid, type Queryable, SecretBox, validationError } from "@countersign/kit";
import forge from "node-forge";
import { Gauge } from "prom-client";
import type { PadesLevel } from "../pdf/seal.js";
import { checkUploadedSeal, type SealCredentials } from "../pdf/seal-certificate.js";

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

/** A workspace's own seal as the console shows it; its key stays in `sealed_pkcs12`. */
interface WorkspaceSealRow extends Omit<SealCertificateRow, "reported_at" | "pades_level"> {
  workspace_id: string;
  uploaded_by: string;
  uploaded_at: Date;
}

const WORKSPACE_SEAL_COLUMNS =
  "workspace_id, subject, issuer, not_before, not_after, sha256_fingerprint, self_signed, uploaded_by, uploaded_at";

/**
 * The box a workspace's seal is kept in: only the requests service's processes hold the link
 * secret it is derived from, and each sealed file opens only on its own workspace's row.
 */
export function workspaceSealBox(linkSecret: string): SecretBox {
  return new SecretBox(linkSecret, { purpose: "workspace seals v1", variable: "COUNTERSIGN_LINK_SECRET" });
}

/** What is sealed in the box: the file and its password together. */
export function packSeal({ p12, password }: SealCredentials): string {
  return JSON.stringify({ password, p12: p12.toString("base64") });
}

export function unpackSeal(packed: string): SealCredentials {
  const { password, p12 } = JSON.parse(packed) as { password: string; p12: string };
  return { password, p12: Buffer.from(p12, "base64") };
}

/** The certificates each workspace's documents are sealed with, as the API answers and changes them. */
export class SealCertificates {
  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
  ) {}

  /** The workspace's own seal, else the deployment's as last reported; none before a report. */
  async get(workspaceId: string): Promise<SealCertificate | undefined> {
    const deployment = await sealCertificateStore.current(this.db);
    if (workspaceId === "") return deployment && toSealCertificate(deployment);
    checkWorkspace(workspaceId);
    const { rows } = await this.db.query<WorkspaceSealRow>(
      `SELECT ${WORKSPACE_SEAL_COLUMNS} FROM workspace_seals WHERE workspace_id = $1`,
      [workspaceId],
    );
    const own = rows[0];
    if (!own) return deployment && toSealCertificate(deployment);
    return ownSeal(own, deployment?.pades_level);
  }

  async replace(req: ReplaceSealCertificateRequest): Promise<SealCertificate> {
    checkWorkspace(req.workspaceId);
    if (req.password.length > MAX_SEAL_PASSWORD_LENGTH) {
      throw validationError([
        { path: "password", message: `must be at most ${MAX_SEAL_PASSWORD_LENGTH} characters` },
      ]);
    }
    const credentials = { p12: Buffer.from(req.pkcs12), password: req.password };
    let der: Uint8Array;
    try {
      const [own] = checkUploadedSeal(credentials).certificates;
      der = Buffer.from(
        forge.asn1.toDer(forge.pki.certificateToAsn1(own as forge.pki.Certificate)).getBytes(),
        "binary",
      );
    } catch (err) {
      throw validationError(
        [{ path: "pkcs12", message: (err as Error).message }],
        "the seal file is refused",
      );
    }
    const described = describeSealCertificate(der, "B-B");
    const { rows } = await this.db.query<WorkspaceSealRow>(
      `INSERT INTO workspace_seals (workspace_id, sealed_pkcs12, subject, issuer, not_before, not_after, sha256_fingerprint, self_signed, uploaded_by, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
       ON CONFLICT (workspace_id) DO UPDATE SET sealed_pkcs12 = $2, subject = $3, issuer = $4, not_before = $5,
         not_after = $6, sha256_fingerprint = $7, self_signed = $8, uploaded_by = $9, uploaded_at = now()
       RETURNING ${WORKSPACE_SEAL_COLUMNS}`,
      [
        req.workspaceId,
        this.box.seal(packSeal(credentials), req.workspaceId),
        described.subject,
        described.issuer,
        described.not_before,
        described.not_after,
        described.sha256_fingerprint,
        described.self_signed,
        req.uploadedBy.slice(0, 320),
      ],
    );
    const deployment = await sealCertificateStore.current(this.db);
    return ownSeal(rows[0] as WorkspaceSealRow, deployment?.pades_level);
  }

  /** Removes the workspace's own seal; answers the deployment's, which seals its documents again. */
  async remove(workspaceId: string): Promise<SealCertificate | undefined> {
    checkWorkspace(workspaceId);
    await this.db.query("DELETE FROM workspace_seals WHERE workspace_id = $1", [workspaceId]);
    return this.get(workspaceId);
  }
}

function checkWorkspace(workspaceId: string): void {
  if (!isUuid(workspaceId)) throw validationError([{ path: "workspace_id", message: "must be a UUID" }]);
}

/** A workspace's seal reaches the level the deployment's sealing reaches: the authority is the deployment's. */
function ownSeal(row: WorkspaceSealRow, level: PadesLevel | undefined): SealCertificate {
  return {
    ...toSealCertificate({ ...row, pades_level: level ?? "B-B", reported_at: row.uploaded_at }),
    workspaceOwned: true,
    uploadedBy: row.uploaded_by,
  };
}

/**
 * Each seal certificate's expiry, which the `CountersignSealCertificateExpiresSoon` alert compares
 * with now, read at each scrape: every requests process exports it, so it is scraped where the API
 * is (the sealing pods have no Service). The deployment's series has no workspace label and is
 * absent before a sealing process reported; each workspace's own seal has a series of its own.
 */
export function sealExpiryGauge(db: Queryable): Gauge {
  return new Gauge({
    name: "seal_certificate_expiry_timestamp_seconds",
    help: "When a certificate completed PDFs are sealed with expires (Unix seconds); a seal made after it is not valid in PDF readers. workspace_id is set for a workspace's own seal.",
    labelNames: ["sha256_fingerprint", "workspace_id"],
    registers: [],
    async collect() {
      const report = await sealCertificateStore.current(db);
      const { rows } = await db.query<{ workspace_id: string; sha256_fingerprint: string; not_after: Date }>(
        "SELECT workspace_id, sha256_fingerprint, not_after FROM workspace_seals",
      );
      this.reset();
      if (report)
        this.set({ sha256_fingerprint: report.sha256_fingerprint }, report.not_after.getTime() / 1000);
      for (const row of rows) {
        this.set(
          { sha256_fingerprint: row.sha256_fingerprint, workspace_id: row.workspace_id },
          row.not_after.getTime() / 1000,
        );
      }
    },
  });
}
