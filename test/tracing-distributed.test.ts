/**
 * Tracing in the distributed deployment, as an operator turns it on: every process is given an OTLP
 * endpoint (a collector stand-in here that keeps what it is sent) and nothing else. One
 * create-and-send then arrives as one trace from the gateway, the requests, documents and webhooks
 * processes — over the network between services and over NATS for the event — each process under
 * its own service.name, every span a child of another in the trace.
 */
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Deployment, startDistributed } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { createTwoRoleTemplate, sendFromTwoRoleTemplate } from "./support/templates.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const infra = await distributedInfra();
/** The span of the caller's that the request continues. */
const CALLER_SPAN = "00f067aa0ba902b7";

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[];
  }[];
}

/** OTLP/JSON writes ids as hex; an exporter that wrote base64 is read as well. */
const hex = (id: string) => (/^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, "base64").toString("hex"));

/** A collector stand-in: OTLP/HTTP JSON exports, kept as spans with their process's service.name. */
async function startCollector(): Promise<{ endpoint: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport;
      for (const resource of body.resourceSpans ?? []) {
        const service =
          resource.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              service,
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: span.parentSpanId ? hex(span.parentSpanId) : "",
              name: span.name,
            });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let receiver: WebhookReceiver;
let deployment: Deployment;
let key: string;

beforeAll(async () => {
  if (!infra) return;
  collector = await startCollector();
  receiver = await startWebhookReceiver();
  const caFile = join(tmpdir(), `countersign-tracing-ca-${process.pid}.pem`);
  await writeFile(caFile, receiver.caPem);
  deployment = await startDistributed(infra, {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
      COUNTERSIGN_WEBHOOK_CA_FILE: caFile,
    },
  });
  key = (
    JSON.parse((await deployment.cli("keys", "create", "--name", "tracing")).stdout) as { secret: string }
  ).secret;
}, 180_000);

afterAll(async () => {
  await deployment?.destroy();
  await receiver?.close();
  await new Promise((resolve) => (collector ? collector.server.close(resolve) : resolve(undefined)));
});

(infra ? test : test.skip)(
  "one create-and-send reaches the collector as one trace from the gateway, requests, documents and webhooks processes",
  async () => {
    const api = `${deployment.gateways[0]}/api/v1`;
    const templateId = await createTwoRoleTemplate(api, key);
    const endpoint = await call(api, "/webhook-endpoints", {
      key,
      method: "POST",
      json: { url: receiver.url, eventTypes: ["signature_request.sent"] },
    });
    expect(endpoint.status).toBe(201);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const sent = await sendFromTwoRoleTemplate(api, key, templateId, {
      traceparent: `00-${traceId}-${CALLER_SPAN}-01`,
    });
    expect(sent.status).toBe(201);
    // A minute: on a machine loaded to several times its cores (CI) the first delivery once took longer than 30 s.
    const [delivery] = await receiver.waitFor(1, 60_000);
    expect(delivery?.headers.traceparent).toContain(traceId);

    // Each process sends its spans in batches, every 5 s at the latest.
    const services = [
      "countersign-gateway",
      "countersign-requests",
      "countersign-documents",
      "countersign-webhooks",
    ];
    const ours = () => collector.spans.filter((span) => span.traceId === traceId);
    const orphansOf = (spans: ReceivedSpan[]) => {
      const ids = new Set(spans.map((span) => span.spanId));
      return spans.filter((span) => span.parentSpanId !== CALLER_SPAN && !ids.has(span.parentSpanId));
    };
    // Until every process has sent its part, the delivery included, and each span's parent is in.
    await eventually(async () => {
      const spans = ours();
      const seen = new Set(spans.map((span) => span.service));
      const delivered = spans.some((span) => span.service === "countersign-webhooks" && span.name === "POST");
      return services.every((service) => seen.has(service)) && delivered && orphansOf(spans).length === 0
        ? true
        : undefined;
    }, 30_000).catch(() => undefined);
    const spans = ours();
    const named = (service: string) =>
      spans.filter((span) => span.service === service).map((span) => span.name);
    expect(named("countersign-gateway")).toEqual(
      expect.arrayContaining([
        "POST /api/v1/signature-requests",
        "countersign.requests.v1.RequestsService/CreateSignatureRequest",
      ]),
    );
    expect(named("countersign-requests")).toEqual(
      expect.arrayContaining([
        "countersign.requests.v1.RequestsService/CreateSignatureRequest",
        "countersign.documents.v1.DocumentsService/ClaimDocument",
        "publish requests.signature_request.sent",
      ]),
    );
    expect(named("countersign-documents")).toContain(
      "countersign.documents.v1.DocumentsService/ClaimDocument",
    );
    expect(named("countersign-webhooks")).toEqual(
      expect.arrayContaining(["process requests.signature_request.sent", "POST"]),
    );
    expect(orphansOf(spans).map((span) => `${span.service}: ${span.name}`)).toEqual([]);
  },
  120_000,
);
