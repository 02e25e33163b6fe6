/**
 * A requests service on the real documents and templates services, in memory: PGlite, files for
 * blobs, the in-process bus with a switch that makes publishing fail as a NATS outage would, and
 * the .eml mailer writing to a temporary folder that the tests read back.
 */

import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary } from "@bufbuild/protobuf";
import { buildDocuments } from "@countersign/documents";
import { subjects } from "@countersign/domain";
import {
  DocumentsService,
  Kind,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type SignatureRequestEvent,
  SignatureRequestEventSchema,
} from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  createLogger,
  createMailer,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  inMemoryTransport,
  MemoryEventBus,
  type PublishOptions,
  type ServiceModule,
  serverInterceptors,
  serviceClient,
} from "@countersign/kit";
import { buildTemplates } from "@countersign/templates";
import { simpleParser } from "mailparser";
import { makePdf } from "../../../test/support/pdfs.js";
import { generateSealP12, type SealCredentials } from "../src/pdf/seal-certificate.js";
import { buildRequests, type RequestsDeps, type RequestsModule } from "../src/service.js";

export class SwitchableBus extends MemoryEventBus {
  down = false;
  override async publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void> {
    if (this.down) throw new Error("connection refused");
    return super.publish(subject, data, options);
  }
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  link: string | undefined;
  /** How many files the e-mail carries. */
  attachments: number;
}

export const PUBLIC_URL = "https://sign.example.com";

let seal: SealCredentials | undefined;

/** One self-signed seal certificate per test file: making a key takes a moment. */
export function testSeal(): SealCredentials {
  seal ??= { p12: generateSealP12("Countersign test seal", "test-password"), password: "test-password" };
  return seal;
}

export async function startHarness(options: Partial<RequestsDeps> = {}) {
  const logger = createLogger({
    name: "requests-test",
    level: (process.env.TEST_LOG_LEVEL as "silent" | undefined) ?? "silent",
  });
  const pg = await EmbeddedPostgres.open();
  const dir = await mkdtemp(join(tmpdir(), "requests-test-"));
  const bus = new SwitchableBus({ retryDelayMs: () => 10 });
  const metrics = createRpcMetrics();
  const transport = (module: ServiceModule) =>
    inMemoryTransport(module.routes, serverInterceptors({ logger, metrics }));
  const documentsModule = await buildDocuments({
    db: pg.database("documents"),
    bus,
    blobs: new FileBlobStore(join(dir, "blobs")),
    logger,
  });
  const documents = serviceClient(DocumentsService, transport(documentsModule));
  const templatesModule = await buildTemplates({ db: pg.database("templates"), bus, logger, documents });
  const templates = serviceClient(TemplatesService, transport(templatesModule));
  // Its outbox relays template changes to the requests service's copies.
  await templatesModule.start();
  const outboxDir = join(dir, "outbox");
  /** A requests module on this harness's database: the one under test, or another replica of it. */
  const buildModule = (overrides: Partial<RequestsDeps> = {}): Promise<RequestsModule> =>
    buildRequests({
      db: pg.database("requests"),
      bus,
      logger,
      templates,
      documents,
      mailer: createMailer({ outboxDir, from: { name: "Countersign", email: "no-reply@example.com" } }),
      publicUrl: PUBLIC_URL,
      linkSecret: "a-link-secret-of-enough-length-for-tests",
      seal: testSeal(),
      notificationPollIntervalMs: 50,
      completionPollIntervalMs: 200,
      expirySweepIntervalMs: 3_600_000,
      scheduleSweepIntervalMs: 3_600_000,
      retentionSweepIntervalMs: 3_600_000,
      ...options,
      ...overrides,
    });
  const module = await buildModule();
  const events: SignatureRequestEvent[] = [];
  await bus.consume(subjects.signatureRequestEvents, "test-events", async (msg) => {
    events.push(fromBinary(SignatureRequestEventSchema, msg.data));
  });
  await module.start();
  const requests = serviceClient(RequestsService, transport(module));

  async function upload(workspaceId: string, pages = 1, given?: Uint8Array): Promise<string> {
    const pdf = given ?? (await makePdf(pages));
    async function* stream() {
      yield create(UploadDocumentRequestSchema, {
        part: {
          case: "header",
          value: { workspaceId, filename: "nda.pdf", contentType: "application/pdf", kind: Kind.ORIGINAL },
        },
      });
      yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: pdf } });
    }
    return (await documents.uploadDocument(stream())).document?.id as string;
  }

  /**
   * A template with a Client (order 1) and a Countersigner (order 2), one signature field each, on
   * a one-page PDF of its own or the one given.
   */
  async function template(workspaceId: string, pdf?: Uint8Array): Promise<string> {
    const documentId = await upload(workspaceId, 1, pdf);
    const field = { type: "signature", page: 1, x: 50, y: 600, width: 150, height: 40, required: true };
    const { template: made } = await templates.createTemplate({
      template: {
        workspaceId,
        name: "NDA",
        documentId,
        roles: [
          { name: "Client", order: 1 },
          { name: "Countersigner", order: 2 },
        ],
        fields: [
          { ...field, role: "Client" },
          { ...field, role: "Countersigner", y: 500 },
        ],
      },
    });
    return made?.id as string;
  }

  /** Every e-mail written so far, oldest first. */
  async function mails(): Promise<Mail[]> {
    await module.mailIdle();
    const files = (await readdir(outboxDir).catch(() => [] as string[]))
      .filter((f) => f.endsWith(".eml"))
      .sort();
    return Promise.all(
      files.map(async (file) => {
        const parsed = await simpleParser(await readFile(join(outboxDir, file)));
        const text = parsed.text ?? "";
        return {
          to: parsed.to && !Array.isArray(parsed.to) ? (parsed.to.value[0]?.address ?? "") : "",
          subject: parsed.subject ?? "",
          text,
          link: text.match(/https:\/\/sign\.example\.com\/sign\/[A-Za-z0-9_-]{43}/)?.[0],
          attachments: parsed.attachments.length,
        };
      }),
    );
  }

  return {
    pg,
    db: pg.database("requests"),
    bus,
    module,
    templatesModule,
    requests,
    documents,
    templates,
    events,
    upload,
    template,
    mails,
    buildModule,
    transport,
    async close() {
      await module.stop();
      await templatesModule.stop();
      await pg.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export function tokenOf(link: string): string {
  return link.slice(link.lastIndexOf("/") + 1);
}

export { rejection, until } from "../../../test/support/service-calls.js";
