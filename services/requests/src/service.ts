/**
 * Builds the requests service: signature requests, recipients, signing links, reminders, expiry,
 * agreement sets, e-mail notifications and the audit trail. Knows nothing of how it is served.
 */
import { fileURLToPath } from "node:url";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  ClaimSweep,
  type Database,
  dependenciesAnswer,
  type EventBus,
  type Logger,
  migrate,
  OutboxRelay,
  outboxTrack,
  type ServiceModule,
} from "@countersign/kit";
import { AgreementSets } from "./agreement-sets.js";
import { Completions } from "./completion/completions.js";
import { type DrawingLimits, DrawingThread } from "./completion/drawing-thread.js";
import type { TimestampAuthority } from "./completion/pades/timestamp-client.js";
import { Seal } from "./completion/seal.js";
import type { SealCredentials } from "./completion/seal-certificate.js";
import { DEFAULT_MAX_REQUEST_PAGES } from "./config.js";
import { ExpirySweeper } from "./expiry-sweeper.js";
import type { Mailer } from "./mail/mailer.js";
import { NotificationSender } from "./notifications.js";
import { REQUEST_HOLDER_PREFIX, RequestCreation } from "./request-creation.js";
import { RequestTransactions } from "./request-transactions.js";
import { Requests } from "./requests.js";
import { requestsRoutes } from "./routes.js";
import { Signing } from "./signing.js";
import { SigningLinks } from "./signing-links.js";
import { SigningSessions } from "./signing-sessions.js";
import { store } from "./store.js";
import { readDocument } from "./stored-documents.js";
import { DocumentVerification } from "./verification/document-verification.js";

export interface RequestsDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  templates: Client<typeof TemplatesService>;
  documents: Client<typeof DocumentsService>;
  mailer: Mailer;
  /** The base URL of signing links. */
  publicUrl: string;
  /** The key signing-link tokens are derived with; changing it invalidates every link. */
  linkSecret: string;
  /** The certificate completed PDFs are sealed with. */
  seal: SealCredentials;
  /** The RFC 3161 authority seals are time-stamped by; without one they are PAdES B-B. */
  timestampAuthority?: TimestampAuthority | undefined;
  reminderIntervalMs?: number;
  embeddedUrlTtlMs?: number;
  expirySweepIntervalMs?: number;
  notificationPollIntervalMs?: number;
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
}

export interface RequestsModule extends ServiceModule {
  /** Resolves when queued e-mails have been handed to the mailer; tests wait on it. */
  mailIdle(): Promise<void>;
  /** Expires what is due now, as the sweeper would. */
  sweepExpired(): Promise<number>;
  /** Releases document claims no request backs, as the periodic sweep does. */
  sweepClaims(olderThanMs?: number): Promise<number>;
  /** Resolves when no completion is being worked on; tests wait on it. */
  completionIdle(): Promise<void>;
}

const MIGRATIONS = { name: "requests", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildRequests(deps: RequestsDeps): Promise<RequestsModule> {
  const { db, bus, logger } = deps;
  await migrate(db, [outboxTrack, MIGRATIONS]);
  const links = new SigningLinks(deps.linkSecret, deps.publicUrl.replace(/\/$/, ""));
  const seal = new Seal(deps.seal, deps.timestampAuthority);
  const relay = new OutboxRelay(db, bus, logger, { onlyReplica: deps.onlyReplica });
  const sender = new NotificationSender(db, deps.mailer, links, logger, {
    pollIntervalMs: deps.notificationPollIntervalMs,
    onlyReplica: deps.onlyReplica,
    attachment: async (workspaceId, documentId) => {
      const { document, bytes } = await readDocument(deps.documents, workspaceId, documentId);
      return { filename: document.filename, content: bytes, contentType: "application/pdf" };
    },
  });
  // The thread starts with the first completion: a replica that completes nothing never loads pdf-lib.
  const drawing = new DrawingThread(deps.drawingLimits);
  const completions = new Completions({
    db,
    documents: deps.documents,
    links,
    seal,
    drawing,
    logger,
    afterCommit: () => afterCommit(),
    pollIntervalMs: deps.completionPollIntervalMs,
    maxAttempts: deps.completionAttempts,
    retryBaseMs: deps.completionRetryBaseMs,
    onlyReplica: deps.onlyReplica,
  });
  const afterCommit = () => {
    relay.kick();
    sender.kick();
    completions.kick();
  };
  const transactions = new RequestTransactions(db, afterCommit);
  const creation = new RequestCreation({
    db,
    templates: deps.templates,
    documents: deps.documents,
    links,
    logger,
    maxPages: deps.maxRequestPages ?? DEFAULT_MAX_REQUEST_PAGES,
    // A request just made cannot be complete: its commit adds events and e-mails, never a completion.
    afterCommit: () => {
      relay.kick();
      sender.kick();
    },
  });
  const requests = new Requests({ db, links, transactions, reminderIntervalMs: deps.reminderIntervalMs });
  const sessions = new SigningSessions({ db, links, transactions, embeddedUrlTtlMs: deps.embeddedUrlTtlMs });
  const signing = new Signing({ links, sessions, transactions });
  const sweeper = new ExpirySweeper(db, requests, logger, afterCommit, deps.expirySweepIntervalMs);
  const claims = new ClaimSweep({
    documents: deps.documents,
    holderPrefix: REQUEST_HOLDER_PREFIX,
    uses: (holderIds) => store.documentsUsed(db, holderIds),
    logger,
  });
  // The verifier's own thread, started with the first file someone asks about.
  const verifierThread = new DrawingThread(deps.drawingLimits);
  const verification = new DocumentVerification({ db, documents: deps.documents, thread: verifierThread });
  return {
    serviceNames: [RequestsService.typeName],
    routes: requestsRoutes({
      creation,
      requests,
      sessions,
      signing,
      agreementSets: new AgreementSets(db),
      verification,
    }),
    ready: dependenciesAnswer(db, bus),
    metrics: completions.metrics.all(),
    async start() {
      relay.start();
      sender.start();
      sweeper.start();
      claims.start();
      completions.start();
    },
    async stop() {
      await completions.stop();
      drawing.close();
      verifierThread.close();
      await claims.stop();
      await sweeper.stop();
      await sender.stop();
      await relay.stop();
    },
    mailIdle: () => sender.idle(),
    sweepExpired: () => sweeper.sweep(),
    sweepClaims: (olderThanMs) => claims.sweep(olderThanMs),
    completionIdle: () => completions.idle(),
  };
}
