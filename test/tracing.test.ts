/**
 * One create-and-send is one trace: the gateway's request, the requests service's call, the
 * templates and documents services it asks, their database statements, the event the outbox
 * publishes, the webhooks service that consumes it and the delivery it makes — every span in one
 * trace, each a child of a span of it. Read from the SDK's in-memory exporter, with the standalone
 * composition running in this process; the webhook receiver gets the trace's context too.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, startTracing, stopTracing } from "@countersign/kit";
import { parseNetworks } from "@countersign/webhooks";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { type Standalone, startStandalone } from "../deploy/local/src/compose-standalone.js";
import { ConsoleClient, call, eventually } from "./support/http.js";
import { createTwoRoleTemplate, sendFromTwoRoleTemplate } from "./support/templates.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const ADMIN = { email: "admin@example.com", password: "a-long-admin-password" };
const exporter = new InMemorySpanExporter();
let dataDir: string;
let receiver: WebhookReceiver;
let app: Standalone;
let key: string;
/** The request the first test sends, whose invitations are e-mailed in its trace. */
let sentRequestId: string;

function start(): Promise<Standalone> {
  return startStandalone({
    dataDir,
    port: 0,
    host: "127.0.0.1",
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    loggerFor: (name) => createLogger({ name, level: "silent" }),
    announce: () => {},
    webhooks: {
      allowNetworks: parseNetworks("127.0.0.0/8"),
      extraCa: receiver.caPem,
      retryScheduleSeconds: [0, 1],
    },
  });
}

beforeAll(async () => {
  expect(startTracing({ serviceName: "countersign", exporter, env: {} })).toBe(true);
  dataDir = await mkdtemp(join(tmpdir(), "countersign-tracing-"));
  receiver = await startWebhookReceiver();
  app = await start();
  const admin = new ConsoleClient(app.gatewayUrl);
  const login = await admin.logIn(ADMIN.email, ADMIN.password);
  const workspaceId = (login.body as { workspaces: { id: string }[] }).workspaces[0]?.id as string;
  const created = await admin.call(`/console/api/workspaces/${workspaceId}/api-keys`, {
    method: "POST",
    json: { name: "tracing" },
  });
  key = (created.body as { secret: string }).secret;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await stopTracing();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: Parameters<typeof call>[2] = {}) =>
  call(`${app.gatewayUrl}/api/v1`, path, { key, ...init });

const attribute = (span: ReadableSpan, name: string) => span.attributes[name];
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

test("one create-and-send is one trace across the gateway, the services it calls, the event and the webhook delivery", async () => {
  const templateId = await createTwoRoleTemplate(`${app.gatewayUrl}/api/v1`, key);
  const endpoint = await api("/webhook-endpoints", {
    method: "POST",
    json: { url: receiver.url, eventTypes: ["signature_request.sent"] },
  });
  expect(endpoint.status).toBe(201);
  // After a restart the requests service has no copy of the template yet: it asks the templates
  // service, as the first request after any restart does.
  await app.close();
  app = await start();
  exporter.reset();

  const sent = await sendFromTwoRoleTemplate(`${app.gatewayUrl}/api/v1`, key, templateId, {
    traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
  });
  expect(sent.status).toBe(201);
  sentRequestId = (sent.body as { id: string }).id;
  const [delivery] = await receiver.waitFor(1);
  // The caller's trace is continued, and the receiver is handed its context.
  const traceId = "0af7651916cd43dd8448eb211c80319c";
  expect(delivery?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

  const spans = await eventually(async () => {
    const all = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    return all.some((span) => span.name === "POST" && attribute(span, "countersign.webhook.message_id"))
      ? all
      : undefined;
  });
  const names = spans.map((span) => span.name);
  expect(names).toEqual(
    expect.arrayContaining([
      "POST /api/v1/signature-requests",
      "countersign.requests.v1.RequestsService/CreateSignatureRequest",
      "countersign.templates.v1.TemplatesService/GetTemplate",
      "publish requests.signature_request.sent",
      "process requests.signature_request.sent",
      "POST",
    ]),
  );
  const services = new Set(spans.map((span) => attribute(span, "rpc.service")).filter(Boolean));
  expect([...services]).toEqual(
    expect.arrayContaining([
      "countersign.requests.v1.RequestsService",
      "countersign.templates.v1.TemplatesService",
      "countersign.documents.v1.DocumentsService",
    ]),
  );
  expect(spans.some((span) => attribute(span, "db.namespace") === "requests")).toBe(true);
  expect(spans.some((span) => attribute(span, "messaging.consumer.group.name") === "webhooks-fan-out")).toBe(
    true,
  );

  // One tree: the gateway's span is the caller's child, and every other span's parent is in the trace.
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const root = spans.find((span) => span.name === "POST /api/v1/signature-requests");
  expect(parentOf(root as ReadableSpan)).toBe("b7ad6b7169203331");
  const orphans = spans.filter((span) => span !== root && !ids.has(parentOf(span) ?? ""));
  expect(orphans.map((span) => span.name)).toEqual([]);
  // Both ends of each call: the client's span is the parent of the server's.
  const server = spans.find(
    (s) => s.name.endsWith("/GetTemplate") && attribute(s, "rpc.system") && s.kind === 1,
  );
  const client = spans.find((s) => s.spanContext().spanId === parentOf(server as ReadableSpan));
  expect(client?.name).toBe("countersign.templates.v1.TemplatesService/GetTemplate");
});

test("a problem answer carries its trace id, which finds the request's spans", async () => {
  exporter.reset();
  const missing = await api("/signature-requests/00000000-0000-7000-8000-000000000000");
  expect(missing.status).toBe(404);
  const { traceId } = missing.body as { traceId?: string };
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  const spans = await eventually(async () => {
    const found = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    return found.length > 0 ? found : undefined;
  });
  expect(spans.map((span) => span.name)).toContain("GET /api/v1/signature-requests/{requestId}");
});

test("background work outside any call starts no trace: a poll's statements make no spans", async () => {
  // The invitations sent above continue their caller's trace: once they are done with, only polls are left.
  await eventually(async () => {
    const request = (await api(`/signature-requests/${sentRequestId}`)).body as {
      recipients: { emailDelivery: { status: string } | null }[];
    };
    // A recipient whose turn has not come has no e-mail at all.
    const done = (delivery: { status: string } | null) =>
      delivery === null || (delivery.status !== "queued" && delivery.status !== "retrying");
    return request.recipients.every((r) => done(r.emailDelivery)) ? true : undefined;
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  exporter.reset();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([]);
});

test("a span never holds a secret of the path: a signing link's token is redacted as in the access log", async () => {
  exporter.reset();
  const token = "s".repeat(43);
  await call(app.gatewayUrl, `/sign/${token}`);
  const spans = await eventually(async () => {
    const found = exporter.getFinishedSpans().filter((span) => span.attributes["url.path"]);
    return found.length > 0 ? found : undefined;
  });
  expect(spans.map((span) => String(span.attributes["url.path"]))).not.toContain(`/sign/${token}`);
  expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(token);
});
