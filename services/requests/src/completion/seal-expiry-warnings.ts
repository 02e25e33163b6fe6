/**
 * Warns the people who must renew a seal certificate: 30 days before it expires, 7 days before,
 * and once it has expired, a SealCertificateExpiring event (the auth service e-mails the workspaces'
 * Organization Admins). Every replica that serves the API checks every hour; each warning is
 * recorded in the transaction that queues its event, so it goes out once whoever checks.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { subjects } from "@countersign/domain";
import { SealCertificateExpiringSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { type Database, enqueueEvent, type Logger, uuidv7 } from "@countersign/kit";
import { sealCertificateStore } from "./seal-certificates.js";

/** Days before the expiry at which a warning goes, the last being the expiry itself. */
export const SEAL_WARNING_DAYS = [30, 7, 0] as const;
const DAY_MS = 86_400_000;

interface Certificate {
  /** '' for the deployment's seal, else the workspace whose own it is. */
  owner: string;
  subject: string;
  sha256_fingerprint: string;
  not_after: Date;
}

/** The tightest threshold the certificate is within at `now`, if any. */
export function warningThreshold(notAfter: Date, now: Date): number | undefined {
  const left = notAfter.getTime() - now.getTime();
  return SEAL_WARNING_DAYS.filter((days) => left <= days * DAY_MS).at(-1);
}

export class SealExpiryWarnings {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly afterCommit: () => void,
    private readonly intervalMs = 3_600_000,
  ) {}

  start(): void {
    const run = () => {
      this.running ??= this.check()
        .catch((err: unknown) =>
          this.logger.warn({ err }, "seal expiry check failed; the next check tries again"),
        )
        .finally(() => {
          this.running = undefined;
        });
    };
    run();
    this.timer = setInterval(run, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Queues every warning due at `now` and not yet given; returns how many. */
  async check(now = new Date()): Promise<number> {
    const deployment = await sealCertificateStore.current(this.db);
    const { rows: own } = await this.db.query<Certificate>(
      "SELECT workspace_id::text AS owner, subject, sha256_fingerprint, not_after FROM workspace_seals",
    );
    const certificates: Certificate[] = [...own, ...(deployment ? [{ ...deployment, owner: "" }] : [])];
    let queued = 0;
    for (const certificate of certificates) {
      const threshold = warningThreshold(certificate.not_after, now);
      if (threshold === undefined) continue;
      const warned = await this.db.transaction(async (tx) => {
        const { rowCount } = await tx.query(
          `INSERT INTO seal_expiry_warnings (sha256_fingerprint, owner, threshold_days) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING`,
          [certificate.sha256_fingerprint, certificate.owner, threshold],
        );
        if (rowCount === 0) return false;
        await enqueueEvent(
          tx,
          subjects.sealCertificateExpiring,
          SealCertificateExpiringSchema,
          create(SealCertificateExpiringSchema, {
            eventId: uuidv7(),
            workspaceId: certificate.owner,
            exceptWorkspaceIds: certificate.owner === "" ? own.map((seal) => seal.owner) : [],
            subject: certificate.subject,
            sha256Fingerprint: certificate.sha256_fingerprint,
            notAfter: timestampFromDate(certificate.not_after),
            thresholdDays: threshold,
          }),
        );
        return true;
      });
      if (warned) queued += 1;
    }
    if (queued > 0) this.afterCommit();
    return queued;
  }
}
