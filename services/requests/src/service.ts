/**
 * Builds the requests service: signature requests, recipients, signing links, reminders, expiry,
 * agreement sets, e-mail notifications and the audit trail. Knows nothing of how it is served.
 */
import { fileURLToPath } from "node:url";
import type { Client } from "@connectrpc/connect";
import { ClaimSweep } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  type Mailer,
  migrate,
  OutboxRelay,
  outboxTrack,
  type SecretBox,
  type ServiceModule,
  type Unsubscribe,
} from "@countersign/kit";
import { BulkSendLists } from "./bulk-send/bulk-send-lists.js";
import { BulkSendWorker, type BulkSendWorkerOptions } from "./bulk-send/bulk-send-worker.js";
import { BulkSends } from "./bulk-send/bulk-sends.js";
import { AuditReports } from "./completion/audit-reports.js";
import { Completions } from "./completion/completions.js";
import {
  describeSealCertificate,
  SealCertificates,
  sealCertificateStore,
  sealExpiryGauge,
  workspaceSealBox,
} from "./completion/seal-certificates.js";
import { SealChoice } from "./completion/seal-choice.js";
import { SealExpiryWarnings } from "./completion/seal-expiry-warnings.js";
import { DEFAULT_MAX_REQUEST_PAGES } from "./config.js";
import { RequestTransactions } from "./core/request-transactions.js";
import { SignerCodes } from "./core/signer-codes.js";
import { SigningLinks } from "./core/signing-links.js";
import { requestStore } from "./core/store/request-store.js";
import { REQUEST_HOLDER_PREFIX, readDocument } from "./core/stored-documents.js";
import { AgreementSets } from "./creation/agreement-sets.js";
import { RequestCreation } from "./creation/request-creation.js";
import { RequestSettingsBook } from "./creation/request-settings.js";
import { TemplateCopies } from "./creation/template-copies.js";
import { sendTestEmail } from "./notices/mail/test-email.js";
import { NotificationSender } from "./notices/notifications.js";
import { ScheduledNotices } from "./notices/scheduled-notices.js";
import { type DrawingLimits, DrawingProcess } from "./pdf/drawing-process.js";
import { type TimestampAuthority, timestampMetrics } from "./pdf/pades/timestamp-client.js";
import { Seal } from "./pdf/seal.js";
import type { SealCredentials } from "./pdf/seal-certificate.js";
import { LegalHolds } from "./retention/legal-holds.js";
import { RetentionSweep } from "./retention/retention-sweep.js";
import { requestsRoutes } from "./routes.js";
import { ExpirySweeper } from "./sending/expiry-sweeper.js";
import { Proposals } from "./sending/proposals.js";
import { Requests } from "./sending/requests.js";
import { BrandingBook } from "./signing/branding.js";
import { EmbeddingSettingsBook } from "./signing/embedding-settings.js";
import { SignerAttachments } from "./signing/signer-attachments.js";
import { SignerAuthentication } from "./signing/signer-authentication.js";
import { SignerCopies } from "./signing/signer-copies.js";
import { Signing } from "./signing/signing.js";
import { SigningSessions } from "./signing/signing-sessions.js";
import { DocumentVerification } from "./verification/document-verification.js";

export interface RequestsDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  /** Needed by a process that serves the API (roles all and api). */
  templates?: Client<typeof TemplatesService> | undefined;
  documents: Client<typeof DocumentsService>;
  mailer: Mailer;
  /** The base URL of signing links. */
  publicUrl: string;
  /** The key signing-link tokens are derived with; changing it invalidates every link. */
  linkSecret: string;
  /**
   * What this process does: everything (`all`, standalone and small deployments); the API without
   * sealing and without the key (`api`); or the sealing alone, the only process holding the key
   * (`sealer`), which serves no calls.
   */
  role?: RequestsRole;
  /** The certificate completed PDFs are sealed with; needed where sealing runs. */
  seal?: SealCredentials | undefined;
  /** The RFC 3161 authority seals are time-stamped by; without one they are PAdES B-B. */
  timestampAuthority?: TimestampAuthority | undefined;
  reminderIntervalMs?: number;
  embeddedUrlTtlMs?: number;
  /** Days after completion that a signer's link still opens the signed document (30). */
  signedLinkDays?: number;
  expirySweepIntervalMs?: number;
  /** How often scheduled reminders and expiry warnings are looked for; a minute unless given. */
  scheduleSweepIntervalMs?: number;
  /** How often requests whose documents the workspace's retention deletes are looked for; ten minutes unless given. */
  retentionSweepIntervalMs?: number;
  /** How often seal certificates are checked for an expiry warning; hourly unless given. */
  sealWarningIntervalMs?: number;
  notificationPollIntervalMs?: number;
  /** How long a replica's claim on an e-mail lasts (see NotificationSenderOptions). */
  notificationClaimSeconds?: number;
  /** Tries before an e-mail is given up (15). */
  notificationMaxAttempts?: number;
  completionPollIntervalMs?: number;
  /** The most pages the documents of one request may have together; DEFAULT_MAX_REQUEST_PAGES unless given. */
  maxRequestPages?: number;
  /** Attempts to seal a fully signed request before it waits for its sender; DEFAULT_COMPLETION_ATTEMPTS unless given. */
  completionAttempts?: number;
  /** The wait after a completion's first failure, doubled after each; 5 s unless given. */
  completionRetryBaseMs?: number;
  /** The time and memory one completed PDF may take to draw. */
  drawingLimits?: DrawingLimits;
  /**
   * The only process on this database (standalone, whose data dir is locked): work a killed process
   * had claimed is taken up at start rather than after its claim runs out.
   */
  onlyReplica?: boolean;
  /** Resolvers a workspace's sending domain is verified at; the system's unless given. */
  dnsServers?: readonly string[];
  /** How bulk sends' rows are worked off; the defaults unless given (tests shorten the waits). */
  bulkSend?: Omit<BulkSendWorkerOptions, "onlyReplica">;
}

export interface RequestsModule extends ServiceModule {
  /** Resolves when queued e-mails have been handed to the mailer; tests wait on it. */
  mailIdle(): Promise<void>;
  /** Expires what is due now, as the sweeper would. */
  sweepExpired(): Promise<number>;
  /** Sends the scheduled reminders and expiry warnings due now, as the sweep would. */
  sweepSchedules(): Promise<{ reminded: number; warned: number }>;
  /** Deletes the documents the workspaces' retention makes due now, as the sweep would; how many requests'. */
  sweepRetention(): Promise<number>;
  /** Releases document claims no request backs, as the periodic sweep does. */
  sweepClaims(olderThanMs?: number): Promise<number>;
  /** Queues the seal expiry warnings due now (seal-expiry-warnings.ts); returns how many. */
  warnSealExpiry(now?: Date): Promise<number>;
  /** Resolves when no completion is being worked on; tests wait on it. */
  completionIdle(): Promise<void>;
  /** Resolves when no bulk send row is being worked on; tests wait on it. */
  bulkSendIdle(): Promise<void>;
}

export type RequestsRole = "all" | "api" | "sealer";

/** How often a sealer looks for work: the API processes that queue it cannot wake it. */
const SEALER_POLL_MS = 1000;

const MIGRATIONS = { name: "requests", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildRequests(deps: RequestsDeps): Promise<RequestsModule> {
  const { db, bus, logger } = deps;
  await migrate(db, [outboxTrack, MIGRATIONS]);
  const links = new SigningLinks(deps.linkSecret, deps.publicUrl.replace(/\/$/, ""));
  const codes = new SignerCodes(deps.linkSecret);
  const role = deps.role ?? "all";
  const relay = new OutboxRelay(db, bus, logger, { name: "requests outbox", onlyReplica: deps.onlyReplica });
  const sender = new NotificationSender(db, deps.mailer, links, codes, logger, {
    pollIntervalMs: deps.notificationPollIntervalMs,
    claimSeconds: deps.notificationClaimSeconds,
    maxAttempts: deps.notificationMaxAttempts,
    onlyReplica: deps.onlyReplica,
    eventsWritten: () => relay.kick(),
    attachment: async (workspaceId, documentId) => {
      const { document, bytes } = await readDocument(deps.documents, workspaceId, documentId);
      return { filename: document.filename, content: bytes, contentType: "application/pdf" };
    },
  });
  // The process starts with the first completion: a replica that completes nothing never loads pdf-lib.
  const drawing = role === "api" ? undefined : new DrawingProcess(deps.drawingLimits);
  const seal = drawing && sealOf(deps, role);
  const sealBox = workspaceSealBox(deps.linkSecret);
  const completions =
    drawing &&
    seal &&
    sealingCompletions(deps, role, new SealChoice(db, sealBox, seal, deps.timestampAuthority), {
      links,
      drawing,
      afterCommit: () => afterCommit(),
    });
  const sealReport = seal && describeSealCertificate(seal.certificate, seal.room.level);
  const afterCommit = () => {
    relay.kick();
    sender.kick();
    completions?.kick();
  };
  // The sealer answers no calls, sweeps nothing and is given no templates service.
  const api =
    role === "sealer" ? undefined : apiParts(deps, { links, codes, relay, sender, sealBox, afterCommit });
  let stopHearingTemplates: Unsubscribe | undefined;
  return {
    serviceNames: [RequestsService.typeName],
    // The process that holds the key answers no calls but its health checks.
    routes: api?.routes ?? (() => {}),
    ready: dependenciesAnswer(db, bus),
    metrics: [
      sender.metrics.deliveries,
      sealExpiryGauge(db),
      // Counted where sealing runs: a process that does not seal reports none.
      ...(completions ? [timestampMetrics.requests, timestampMetrics.seconds] : []),
    ],
    async start() {
      if (sealReport) await sealCertificateStore.report(db, sealReport);
      relay.start();
      sender.start();
      api?.sweeper.start();
      api?.schedules.start();
      api?.retention.start();
      api?.sealWarnings.start();
      api?.claims.start();
      api?.bulkSendWorker.start();
      stopHearingTemplates = await api?.templates.listen(bus);
      completions?.start();
    },
    async stop() {
      await completions?.stop();
      drawing?.close();
      api?.verifierProcess.close();
      await stopHearingTemplates?.();
      await api?.bulkSendWorker.stop();
      await api?.claims.stop();
      await api?.sweeper.stop();
      await api?.schedules.stop();
      await api?.retention.stop();
      await api?.sealWarnings.stop();
      await sender.stop();
      await relay.stop();
    },
    mailIdle: () => sender.idle(),
    sweepExpired: () => api?.sweeper.sweep() ?? Promise.resolve(0),
    sweepSchedules: () => api?.schedules.sweep() ?? Promise.resolve({ reminded: 0, warned: 0 }),
    sweepRetention: () => api?.retention.sweep() ?? Promise.resolve(0),
    sweepClaims: (olderThanMs) => api?.claims.sweep(olderThanMs) ?? Promise.resolve(0),
    warnSealExpiry: (now) => api?.sealWarnings.check(now) ?? Promise.resolve(0),
    completionIdle: () => completions?.idle() ?? Promise.resolve(),
    bulkSendIdle: () => api?.bulkSendWorker.idle() ?? Promise.resolve(),
  };
}

/**
 * What a process serving the API runs: its calls, the copies of templates they are made from, the
 * expiry sweep, the claims sweep, the verifier, the bulk sends' worker.
 */
function apiParts(
  deps: RequestsDeps,
  shared: {
    links: SigningLinks;
    codes: SignerCodes;
    relay: OutboxRelay;
    sender: NotificationSender;
    sealBox: SecretBox;
    afterCommit: () => void;
  },
) {
  const { db, logger } = deps;
  const { links, codes, relay, sender, sealBox, afterCommit } = shared;
  if (!deps.templates) throw new Error("a requests service that serves the API needs the templates service");
  const transactions = new RequestTransactions(db, afterCommit);
  const templates = new TemplateCopies(deps.templates);
  const creation = new RequestCreation({
    db,
    templates,
    documents: deps.documents,
    links,
    codes,
    logger,
    maxPages: deps.maxRequestPages ?? DEFAULT_MAX_REQUEST_PAGES,
    // A request just made cannot be complete: its commit adds events and e-mails, never a completion.
    afterCommit: () => {
      relay.kick();
      sender.kick();
    },
  });
  const requests = new Requests({ db, links, transactions, reminderIntervalMs: deps.reminderIntervalMs });
  const bulkSendWorker = new BulkSendWorker(db, creation, logger, {
    ...deps.bulkSend,
    onlyReplica: deps.onlyReplica,
  });
  const sessions = new SigningSessions({
    db,
    links,
    transactions,
    embeddedUrlTtlMs: deps.embeddedUrlTtlMs,
    signedLinkDays: deps.signedLinkDays,
  });
  const signing = new Signing({ links, sessions, transactions });
  const signerAuthentication = new SignerAuthentication({ sessions, transactions, codes });
  const sweeper = new ExpirySweeper(db, requests, logger, afterCommit, deps.expirySweepIntervalMs);
  const claims = new ClaimSweep({
    documents: deps.documents,
    holderPrefix: REQUEST_HOLDER_PREFIX,
    uses: (holderIds) => requestStore.documentsUsed(db, holderIds),
    logger,
  });
  // The API's own drawing process — files someone asks to verify, signers' copies, audit reports, attached
  // images, the retention sweep's certificates — started with the first that needs it: none holds a completion
  // up, and the workspaces take turns in it.
  const verifierProcess = new DrawingProcess(deps.drawingLimits);
  const verification = new DocumentVerification({ db, documents: deps.documents, drawing: verifierProcess });
  const signerCopies = new SignerCopies({
    db,
    documents: deps.documents,
    sessions,
    drawing: verifierProcess,
  });
  const routes = requestsRoutes({
    auditReports: new AuditReports({ db, drawing: verifierProcess }),
    requestSettings: new RequestSettingsBook(db),
    embeddingSettings: new EmbeddingSettingsBook(db),
    branding: new BrandingBook(db, {
      relay: deps.mailer.transport === "smtp" ? deps.mailer.where : "",
      bounceAddress: deps.mailer.address,
      dnsServers: deps.dnsServers ?? [],
    }),
    legalHolds: new LegalHolds(transactions),
    proposals: new Proposals(transactions, links),
    creation,
    requests,
    sessions,
    signing,
    signerAuthentication,
    signerCopies,
    signerAttachments: new SignerAttachments({
      db,
      documents: deps.documents,
      sessions,
      transactions,
      logger,
      drawing: verifierProcess,
    }),
    agreementSets: new AgreementSets(db),
    verification,
    testEmail: (workspaceId, to) => sendTestEmail(deps.mailer, workspaceId, to),
    sealCertificates: new SealCertificates(db, sealBox),
    bulkSends: new BulkSends(db, creation, () => bulkSendWorker.kick()),
    bulkSendLists: new BulkSendLists(db),
  });
  const sealWarnings = new SealExpiryWarnings(db, logger, () => relay.kick(), deps.sealWarningIntervalMs);
  const schedules = new ScheduledNotices({
    db,
    links,
    logger,
    afterCommit,
    intervalMs: deps.scheduleSweepIntervalMs,
  });
  const retention = new RetentionSweep({
    db,
    documents: deps.documents,
    drawing: verifierProcess,
    logger,
    afterCommit,
    intervalMs: deps.retentionSweepIntervalMs,
  });
  return {
    routes,
    sweeper,
    schedules,
    retention,
    claims,
    verifierProcess,
    templates,
    sealWarnings,
    bulkSendWorker,
  };
}

/** The seal of a process that seals: its key opened now, a wrong one stopping the start. */
function sealOf(deps: RequestsDeps, role: RequestsRole): Seal {
  if (!deps.seal)
    throw new Error(`a requests service in role "${role}" seals completed PDFs and needs the seal`);
  return new Seal(deps.seal, deps.timestampAuthority);
}

/** The completion worker of a process that seals. */
function sealingCompletions(
  deps: RequestsDeps,
  role: RequestsRole,
  seals: SealChoice,
  shared: { links: SigningLinks; drawing: DrawingProcess; afterCommit: () => void },
): Completions {
  return new Completions({
    db: deps.db,
    documents: deps.documents,
    seals,
    logger: deps.logger,
    ...shared,
    pollIntervalMs: deps.completionPollIntervalMs ?? (role === "sealer" ? SEALER_POLL_MS : undefined),
    maxAttempts: deps.completionAttempts,
    retryBaseMs: deps.completionRetryBaseMs,
    onlyReplica: deps.onlyReplica,
  });
}
