/**
 * Webhook delivery in distributed mode (two webhooks replicas), to an HTTPS receiver on loopback:
 * - latency at a steady 200 events/s, each event published on JetStream as the requests service's
 *   outbox relay publishes it, from its `occurTime` to the receiver holding the whole body;
 * - commit-to-receipt of real requests (create-and-send, then cancel, through the API), from the
 *   event's `occurTime`, stamped in the committing transaction, to receipt;
 * - throughput: a backlog of events delivered as fast as the service goes, against a bare Node
 *   HTTPS POST loop with as many kept-alive connections to the same receiver, in the same run.
 */
import https from "node:https";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { signatureRequestSubject } from "@countersign/domain";
import { SignatureRequestEventSchema } from "@countersign/gen/countersign/events/v1/signature_request_events_pb.js";
import { NatsEventBus, uuidv7 } from "@countersign/kit";
import type { Deployment } from "../support/deployments.js";
import { makePdf } from "../support/pdfs.js";
import { createTestCa, type ReceivedWebhook, startWebhookReceiver } from "../support/webhook-receiver.js";

export interface WebhookFigures {
  /** Events per second asked for in the latency run, and reached. */
  rate: number;
  reachedRate: number;
  events: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Real requests through the API, at a light and a heavy rate: events per second and latency. */
  committed: { rate: number; events: number; p50Ms: number; p99Ms: number }[];
  /** Deliveries per second from a backlog, and the bare loop's POSTs per second. */
  backlog: number;
  deliveredPerSecond: number;
  bareConnections: number;
  barePerSecond: number;
}

/** Kept-alive sockets the service may open to one origin: two replicas of 64. */
const SERVICE_SOCKETS = 128;

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN);
}

function eventBytes(workspaceId: string): Uint8Array {
  const recipient = {
    id: uuidv7(),
    name: "Bench Signer",
    email: "signer@example.com",
    role: "Signer",
    kind: "signer",
    routingOrder: 1,
    status: "sent",
  };
  return toBinary(
    SignatureRequestEventSchema,
    create(SignatureRequestEventSchema, {
      eventId: uuidv7(),
      type: "sent",
      occurTime: timestampNow(),
      signatureRequest: {
        id: uuidv7(),
        workspaceId,
        title: "Bench agreement",
        status: "sent",
        documentIds: [uuidv7()],
        recipients: [recipient],
        createTime: timestampNow(),
      },
    }),
  );
}

/** Latency of each received webhook from the event's occurTime (the payload's timestamp). */
function latencies(received: ReceivedWebhook[]): number[] {
  return received
    .map((r) => r.receivedAt - Date.parse((JSON.parse(r.body) as { timestamp: string }).timestamp))
    .sort((a, b) => a - b);
}

async function waitForCount(received: ReceivedWebhook[], count: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (new Set(received.map((r) => r.headers["webhook-id"])).size < count) {
    if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} webhooks arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Calls `work(i)` at `perSecond` for `count` calls, without waiting for one before the next is due. */
async function paced(
  count: number,
  perSecond: number,
  work: (i: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  const running: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    running.push(work(i));
  }
  await Promise.all(running);
  return count / ((performance.now() - started) / 1000);
}

/** POSTs `count` bodies to the URL over `connections` kept-alive connections, as fast as they go. */
async function bareLoop(
  url: string,
  ca: string,
  body: string,
  count: number,
  connections: number,
): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: connections, ca });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = https.request(
        url,
        {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve());
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next++ < count) await post();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return count / seconds;
}

export async function measureWebhooks(
  deployment: Deployment,
  natsUrl: string,
  key: { secret: string; accountId: string },
  options = { rate: 200, seconds: 10, requestRates: [5, 25], backlog: 3000 },
): Promise<WebhookFigures> {
  const api = `${deployment.gateways[0]}/api/v1`;
  const headers = { authorization: `Bearer ${key.secret}`, "content-type": "application/json" };
  const receiver = await startWebhookReceiver();
  const bus = await NatsEventBus.connect({
    url: natsUrl,
    namespace: deployment.namespace as string,
    name: "bench",
  });
  try {
    const registered = await fetch(`${api}/webhook-endpoints`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        url: receiver.url,
        eventTypes: ["signature_request.sent", "signature_request.cancelled"],
      }),
    });
    if (registered.status !== 201) throw new Error(`registering the endpoint answered ${registered.status}`);
    const publish = () =>
      bus.publish(signatureRequestSubject("sent"), eventBytes(key.accountId), { msgId: uuidv7() });

    // Warm-up: connections, prepared statements, JIT.
    await paced(200, options.rate, publish);
    await waitForCount(receiver.received, 200);

    const events = options.rate * options.seconds;
    receiver.received.length = 0;
    const reachedRate = await paced(events, options.rate, publish);
    await waitForCount(receiver.received, events);
    const steady = latencies(receiver.received);

    const documentId = await uploadDocument(api, headers.authorization);
    const committed: WebhookFigures["committed"] = [];
    for (const perSecond of options.requestRates) {
      const requests = perSecond * options.seconds;
      receiver.received.length = 0;
      const requestRate = await paced(requests, perSecond, (i) =>
        createAndCancel(api, headers, documentId, i),
      );
      await waitForCount(receiver.received, requests * 2);
      const sorted = latencies(receiver.received);
      committed.push({
        rate: Math.round(requestRate * 2),
        events: requests * 2,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
      });
    }

    receiver.received.length = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: options.backlog }, publish));
    await waitForCount(receiver.received, options.backlog);
    const deliveredPerSecond = options.backlog / ((performance.now() - started) / 1000);

    const body = receiver.received[0]?.body ?? "{}";
    const barePerSecond = await bareLoop(
      receiver.url,
      createTestCa().caPem,
      body,
      options.backlog,
      SERVICE_SOCKETS,
    );

    return {
      rate: options.rate,
      reachedRate: Math.round(reachedRate),
      events,
      latencyP50Ms: percentile(steady, 50),
      latencyP99Ms: percentile(steady, 99),
      committed,
      backlog: options.backlog,
      deliveredPerSecond: Math.round(deliveredPerSecond),
      bareConnections: SERVICE_SOCKETS,
      barePerSecond: Math.round(barePerSecond),
    };
  } finally {
    await bus.close();
    await receiver.close();
  }
}

/** A request made and sent, then cancelled: a `sent` and a `cancelled` event. */
async function createAndCancel(api: string, headers: Record<string, string>, documentId: string, i: number) {
  const created = await fetch(`${api}/signature-requests`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      title: `Bench ${i}`,
      documentIds: [documentId],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 60, y: 600, width: 180, height: 40 }],
      recipients: [{ name: "Bench Signer", email: `bench.${i}@example.com`, role: "Signer" }],
      send: true,
    }),
  });
  const { id } = (await created.json()) as { id: string };
  await fetch(`${api}/signature-requests/${id}/cancel`, { method: "POST", headers, body: "{}" });
}

async function uploadDocument(api: string, authorization: string): Promise<string> {
  const res = await fetch(`${api}/documents/upload?filename=bench.pdf`, {
    method: "POST",
    headers: { authorization, "content-type": "application/pdf" },
    body: await makePdf(1),
  });
  return ((await res.json()) as { id: string }).id;
}
