/**
 * The outbox against a real NATS outage: a request sent while our own nats-server is down commits
 * (its event waits in the outbox), and once the server is back the `sent` event arrives exactly once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { buildDocuments } from "@countersign/documents";
import { subjects } from "@countersign/domain";
import { DocumentsService, Kind } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { SignatureRequestEventSchema } from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  createLogger,
  createMailer,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  inMemoryTransport,
  NatsEventBus,
  type ServiceModule,
  serverInterceptors,
  serviceClient,
  uuidv7,
} from "@countersign/kit";
import { buildRequests, generateSealP12 } from "@countersign/requests";
import { buildTemplates } from "@countersign/templates";
import { freePort } from "../deploy/local/src/free-port.js";
import { eventually } from "./support/http.js";
import { makePdf } from "./support/pdfs.js";

const NATS_SERVER = "/usr/sbin/nats-server";
const logger = createLogger({ name: "outage-test", level: "silent" });

function startNats(port: number, storeDir: string): ChildProcess {
  return spawn(NATS_SERVER, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], {
    stdio: "ignore",
  });
}

async function stopNats(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

const natsInstalled = existsSync(NATS_SERVER);
if (!natsInstalled && process.env.CI)
  throw new Error(`${NATS_SERVER} is needed to take NATS down and bring it back`);
(natsInstalled ? test : test.skip)(
  "an event written while NATS is down arrives once it is back, exactly once",
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "outage-"));
    const port = await freePort();
    let server = startNats(port, join(dir, "js"));
    const pg = await EmbeddedPostgres.open();
    const bus = await eventually(() =>
      NatsEventBus.connect({
        url: `nats://127.0.0.1:${port}`,
        namespace: "outage",
        name: "outage-test",
      }).catch(() => undefined),
    );
    const transport = (module: ServiceModule) =>
      inMemoryTransport(module.routes, serverInterceptors({ logger, metrics: createRpcMetrics() }));
    const modules: ServiceModule[] = [];
    try {
      const documentsModule = await buildDocuments({
        db: pg.database("documents"),
        bus,
        blobs: new FileBlobStore(join(dir, "blobs")),
        logger,
      });
      const documents = serviceClient(DocumentsService, transport(documentsModule));
      const templatesModule = await buildTemplates({ db: pg.database("templates"), bus, logger, documents });
      const templates = serviceClient(TemplatesService, transport(templatesModule));
      const requestsModule = await buildRequests({
        db: pg.database("requests"),
        bus,
        logger,
        templates,
        documents,
        mailer: createMailer({
          outboxDir: join(dir, "outbox"),
          from: { name: "Countersign", email: "n@example.com" },
        }),
        publicUrl: "https://sign.example.com",
        linkSecret: "a-link-secret-of-enough-length-for-tests",
        seal: { p12: generateSealP12("Countersign test seal", "pw"), password: "pw" },
      });
      modules.push(requestsModule);
      await requestsModule.start();
      const requests = serviceClient(RequestsService, transport(requestsModule));
      const sent: string[] = [];
      await bus.consume(subjects.signatureRequestEvents, "outage-events", async (msg) => {
        const event = fromBinary(SignatureRequestEventSchema, msg.data);
        if (event.type === "sent") sent.push(event.signatureRequest?.id ?? "");
      });

      const workspaceId = uuidv7();
      async function* pdf() {
        yield {
          part: {
            case: "header" as const,
            value: { workspaceId, filename: "a.pdf", contentType: "application/pdf", kind: Kind.ORIGINAL },
          },
        };
        yield { part: { case: "chunk" as const, value: await makePdf(1) } };
      }
      const documentId = (await documents.uploadDocument(pdf())).document?.id as string;
      const { template } = await templates.createTemplate({
        template: {
          workspaceId,
          name: "T",
          documentId,
          roles: [{ name: "Signer", order: 1 }],
          fields: [
            {
              type: "signature",
              role: "Signer",
              page: 1,
              x: 50,
              y: 600,
              width: 150,
              height: 40,
              required: true,
            },
          ],
        },
      });

      await stopNats(server);
      const { signatureRequest } = await requests.createSignatureRequest({
        workspaceId,
        title: "During the outage",
        templateId: template?.id as string,
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Signer" }],
        send: true,
      });
      expect(signatureRequest?.status).toBe("sent");
      await new Promise((r) => setTimeout(r, 1500));
      expect(sent).toEqual([]);

      server = startNats(port, join(dir, "js"));
      await eventually(async () => (sent.length > 0 ? true : undefined), 30_000);
      // Long enough for a second publish of the same row to have arrived, were it not de-duplicated.
      await new Promise((r) => setTimeout(r, 3000));
      expect(sent).toEqual([signatureRequest?.id]);
    } finally {
      for (const module of modules) await module.stop();
      await bus.destroy().catch(() => {});
      await stopNats(server).catch(() => {});
      await pg.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
  90_000,
);
