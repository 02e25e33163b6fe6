/**
 * Webhooks end to end in both modes: endpoints over both route families as documented, all seven
 * event types from real request lifecycles delivered to an HTTPS receiver on loopback (trusted
 * through COUNTERSIGN_WEBHOOK_CA_FILE, reachable through COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS) and
 * verified with the `standardwebhooks` package, a receiver outage ridden out on a compressed
 * schedule, the delivery portal over HTTP, and `cli webhooks replay`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { outboxMails } from "./support/outbox-mail.js";
import { makePdf } from "./support/pdfs.js";
import { SignerBrowser } from "./support/signer-browser.js";
import {
  createTestCa,
  type ReceivedWebhook,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

const infra = await distributedInfra();
const caFile = join(tmpdir(), `countersign-webhook-ca-${process.pid}.pem`);
await writeFile(caFile, createTestCa().caPem);
const WEBHOOK_ENV = {
  COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
  COUNTERSIGN_WEBHOOK_CA_FILE: caFile,
  COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE: "0,0.2,0.4,0.8",
  COUNTERSIGN_EXPIRY_SWEEP_SECONDS: "0.5",
};
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: WEBHOOK_ENV })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: WEBHOOK_ENV })]);
afterAll(() => infra?.close());

const ALL_TYPES = [
  "signature_request.sent",
  "signature_request.viewed",
  "signature_request.signed",
  "signature_request.completed",
  "signature_request.declined",
  "signature_request.cancelled",
  "signature_request.expired",
];

interface Payload {
  type: string;
  timestamp: string;
  data: {
    signatureRequest: { id: string; status: string; signedDocumentId?: string };
    recipient?: { email: string };
  };
}

describe.each(modes)("%s mode: webhooks", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string; accountId: string };
  let receiver: WebhookReceiver;
  const api = () => `${gateway}/api/v1`;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "webhooks")).stdout);
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
    await deployment?.destroy();
  });

  async function register(url: string, eventTypes = ALL_TYPES) {
    const created = await call(api(), "/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url, description: "test receiver", eventTypes },
    });
    expect(created.status).toBe(201);
    expectDocumented("POST", "/api/v1/webhook-endpoints", 201, created.body);
    return created.body as { id: string; secret: string };
  }

  async function request(tag: string, extra: Record<string, unknown> = {}) {
    const upload = await call(api(), "/documents/upload?filename=nda.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf" },
    });
    const created = await call(api(), "/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: `NDA ${tag}`,
        documentIds: [(upload.body as { id: string }).id],
        fields: [{ type: "signature", role: "Signer", page: 1, x: 60, y: 600, width: 180, height: 40 }],
        recipients: [{ name: "Sam Signer", email: `${tag}@example.com`, role: "Signer" }],
        send: true,
        ...extra,
      },
    });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  }

  /** The signer opens their e-mailed link and the signing page shows the request. */
  async function openLink(tag: string): Promise<SignerBrowser> {
    const mail = await eventually(async () =>
      (await outboxMails(deployment.dataDir)).find((m) => m.to === `${tag}@example.com`),
    );
    const signer = new SignerBrowser(gateway);
    expect((await signer.open(mail.link as string)).status).toBe(303);
    expect((await signer.show()).status).toBe(200);
    return signer;
  }

  /** Verified payloads the receiver got for a request, by type. */
  function deliveredFor(secret: string, requestId: string): Map<string, Payload> {
    const byType = new Map<string, Payload>();
    for (const req of receiver.received) {
      const payload = verifyWebhook(secret, req) as Payload;
      if (payload.data.signatureRequest.id === requestId) byType.set(payload.type, payload);
    }
    return byType;
  }

  test("refuses http:// and private addresses with the reason, and manages endpoints in both route families", async () => {
    const plain = await call(api(), "/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url: "http://hooks.example.com/in", eventTypes: ["signature_request.sent"] },
    });
    expect(plain.status).toBe(422);
    expectDocumented("POST", "/api/v1/webhook-endpoints", 422, plain.body);
    expect((plain.body as { errors: { path: string; message: string }[] }).errors).toEqual([
      { path: "url", message: expect.stringMatching(/https/) },
    ]);
    const metadata = await call(api(), "/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url: "https://169.254.169.254/latest", eventTypes: ["signature_request.sent"] },
    });
    expect(metadata.status).toBe(422);

    const scoped = `${gateway}/v1/accounts/${key.accountId}`;
    const made = await call(scoped, "/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url: "https://hooks.example.com/in", eventTypes: ["signature_request.completed"] },
    });
    expect(made.status).toBe(201);
    const { id, secret } = made.body as { id: string; secret: string };
    const got = await call(api(), `/webhook-endpoints/${id}`, { key: key.secret });
    expectDocumented("GET", "/api/v1/webhook-endpoints/{endpointId}", 200, got.body);
    expect(got.body).not.toHaveProperty("secret");
    const revealed = await call(scoped, `/webhook-endpoints/${id}/secret/reveal`, {
      key: key.secret,
      method: "POST",
    });
    expect(revealed.body).toEqual({ secret });
    const rotated = await call(api(), `/webhook-endpoints/${id}/secret/rotate`, {
      key: key.secret,
      method: "POST",
    });
    expectDocumented("POST", "/api/v1/webhook-endpoints/{endpointId}/secret/rotate", 200, rotated.body);
    const patched = await call(api(), `/webhook-endpoints/${id}`, {
      key: key.secret,
      method: "PATCH",
      json: { description: "billing", disabled: true },
    });
    expect(patched.body).toMatchObject({
      description: "billing",
      disabled: true,
      disabledReason: expect.any(String),
    });
    const listed = await call(scoped, "/webhook-endpoints?pageSize=100", { key: key.secret });
    expectDocumented("GET", "/v1/accounts/{accountId}/webhook-endpoints", 200, listed.body);
    expect((listed.body as { items: { id: string }[] }).items.map((e) => e.id)).toContain(id);
    expect(
      (await call(api(), `/webhook-endpoints/${id}`, { key: key.secret, method: "DELETE" })).status,
    ).toBe(204);
    expect((await call(api(), `/webhook-endpoints/${id}`, { key: key.secret })).status).toBe(404);
  });

  test("delivers all seven event types from real lifecycles, each verified by standardwebhooks", async () => {
    receiver = await startWebhookReceiver();
    const { secret } = await register(receiver.url);

    const completed = await request("completes");
    const signer = await openLink("completes");
    const session = (await signer.call("/sign/api/session")).body as { fields: { id: string }[] };
    const submitted = await signer.call("/sign/api/submit", {
      consent: true,
      values: { [session.fields[0]?.id as string]: { kind: "typed", text: "Sam Signer" } },
    });
    expect(submitted.status).toBe(200);

    const declined = await request("declines");
    const decliner = await openLink("declines");
    expect((await decliner.call("/sign/api/decline", { reason: "wrong terms" })).status).toBe(200);

    const cancelled = await request("cancels");
    expect(
      (
        await call(api(), `/signature-requests/${cancelled}/cancel`, {
          key: key.secret,
          method: "POST",
          json: {},
        })
      ).status,
    ).toBe(200);

    const expired = await request("expires", { expiresAt: new Date(Date.now() + 2000).toISOString() });

    await eventually(
      async () =>
        deliveredFor(secret, completed).has("signature_request.completed") &&
        deliveredFor(secret, declined).has("signature_request.declined") &&
        deliveredFor(secret, cancelled).has("signature_request.cancelled") &&
        deliveredFor(secret, expired).has("signature_request.expired")
          ? true
          : undefined,
      30_000,
    );
    expect([...deliveredFor(secret, completed).keys()].sort()).toEqual(
      ["sent", "viewed", "signed", "completed"].map((t) => `signature_request.${t}`).sort(),
    );
    expect([...deliveredFor(secret, declined).keys()].sort()).toEqual(
      ["sent", "viewed", "declined"].map((t) => `signature_request.${t}`).sort(),
    );
    expect([...deliveredFor(secret, cancelled).keys()].sort()).toEqual([
      "signature_request.cancelled",
      "signature_request.sent",
    ]);
    expect([...deliveredFor(secret, expired).keys()].sort()).toEqual([
      "signature_request.expired",
      "signature_request.sent",
    ]);
    const done = deliveredFor(secret, completed).get("signature_request.completed") as Payload;
    expect(done.data.signatureRequest).toMatchObject({
      status: "completed",
      signedDocumentId: expect.any(String),
    });
    expect(deliveredFor(secret, completed).get("signature_request.signed")?.data.recipient?.email).toBe(
      "completes@example.com",
    );
    expect(
      deliveredFor(secret, declined).get("signature_request.declined")?.data.signatureRequest.status,
    ).toBe("declined");
  });

  test("a DocuSign Connect endpoint gets DocuSign's events for a real lifecycle, HMAC-signed, with the envelope as /restapi shows it", async () => {
    const connect = await startWebhookReceiver();
    try {
      const created = await call(api(), "/webhook-endpoints", {
        key: key.secret,
        method: "POST",
        json: { url: connect.url, eventTypes: ALL_TYPES, format: "docusign_connect" },
      });
      expect(created.status).toBe(201);
      expectDocumented("POST", "/api/v1/webhook-endpoints", 201, created.body);
      const { secret, format } = created.body as { secret: string; format: string };
      expect(format).toBe("docusign_connect");

      const id = await request("connects");
      const signer = await openLink("connects");
      const session = (await signer.call("/sign/api/session")).body as { fields: { id: string }[] };
      await signer.call("/sign/api/submit", {
        consent: true,
        values: { [session.fields[0]?.id as string]: { kind: "typed", text: "Sam Signer" } },
      });
      type Connect = {
        event: string;
        uri: string;
        data: { envelopeId: string; recipientId?: string; envelopeSummary: { status: string } };
      };
      const events = () =>
        connect.received
          .map((req) => {
            const signature = Buffer.from(req.headers["x-docusign-signature-1"] ?? "", "base64");
            const computed = createHmac("sha256", secret).update(req.body).digest();
            expect(signature.length === computed.length && timingSafeEqual(signature, computed)).toBe(true);
            return JSON.parse(req.body) as Connect;
          })
          .filter((body) => body.data.envelopeId === id);
      await eventually(
        async () => (events().some((e) => e.event === "envelope-completed") ? true : undefined),
        30_000,
      );
      expect(
        events()
          .map((e) => e.event)
          .sort(),
      ).toEqual(["envelope-completed", "envelope-sent", "recipient-completed", "recipient-delivered"].sort());
      const completed = events().find((e) => e.event === "envelope-completed") as Connect;
      const envelope = await call(gateway, completed.uri, { key: key.secret });
      expect([completed.data.envelopeSummary.status, (envelope.body as { status: string }).status]).toEqual([
        "completed",
        "completed",
      ]);
      expect(events().find((e) => e.event === "recipient-completed")?.data.recipientId).toBe("1");
    } finally {
      await connect.close();
    }
  });

  test("rides out a receiver outage on the retry schedule, and lists, retries, replays and test-fires over HTTP", async () => {
    let failing = 2;
    const flaky = await startWebhookReceiver({
      respond: () => (failing-- > 0 ? { status: 503, body: "try later" } : { status: 204 }),
    });
    try {
      const since = new Date(Date.now() - 1000).toISOString();
      const { id, secret } = await register(flaky.url, ["signature_request.sent"]);
      await request("outage");
      const tries = await flaky.waitFor(3, 15_000);
      for (const req of tries) verifyWebhook(secret, req as ReceivedWebhook);
      expect(new Set(tries.map((t) => t.headers["webhook-id"])).size).toBe(1);

      const listed = await eventually(async () => {
        const page = await call(api(), `/webhook-endpoints/${id}/messages?status=succeeded`, {
          key: key.secret,
        });
        return (page.body as { totalCount: number }).totalCount === 1 ? page : undefined;
      });
      expectDocumented("GET", "/api/v1/webhook-endpoints/{endpointId}/messages", 200, listed.body);
      const [message] = (
        listed.body as { items: { id: string; attempts: { statusCode: number; responseBody: string }[] }[] }
      ).items;
      expect(message?.attempts.map((a) => a.statusCode)).toEqual([204, 503, 503]);
      expect(message?.attempts[1]?.responseBody).toBe("try later");

      const retried = await call(api(), `/webhook-endpoints/${id}/messages/${message?.id}/retry`, {
        key: key.secret,
        method: "POST",
      });
      expect(retried.status).toBe(202);
      expectDocumented(
        "POST",
        "/api/v1/webhook-endpoints/{endpointId}/messages/{messageId}/retry",
        202,
        retried.body,
      );
      await flaky.waitFor(4);
      // The receiver has the request before the service has recorded its answer: replay only
      // picks up messages whose attempt has ended.
      const settled = () =>
        eventually(async () => {
          const page = await call(api(), `/webhook-endpoints/${id}/messages?status=succeeded`, {
            key: key.secret,
          });
          return (page.body as { totalCount: number }).totalCount === 1 ? true : undefined;
        });
      await settled();

      const replayed = await call(api(), `/webhook-endpoints/${id}/replay`, {
        key: key.secret,
        method: "POST",
        json: { since },
      });
      expect(replayed.status).toBe(202);
      expect(replayed.body).toEqual({ replayedCount: 1 });
      await flaky.waitFor(5);
      await settled();
      const cli = await deployment.cli("webhooks", "replay", id, "--since", since);
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ endpointId: id, replayedCount: 1 });
      const all = await flaky.waitFor(6);
      expect(new Set(all.map((t) => t.headers["webhook-id"])).size).toBe(1);

      const fired = await call(api(), `/webhook-endpoints/${id}/test`, {
        key: key.secret,
        method: "POST",
        json: { eventType: "signature_request.declined" },
      });
      expect(fired.status).toBe(200);
      expectDocumented("POST", "/api/v1/webhook-endpoints/{endpointId}/test", 200, fired.body);
      expect(fired.body).toMatchObject({ attempt: { statusCode: 204, succeeded: true, trigger: "test" } });
      const [test] = flaky.received.slice(-1);
      expect(verifyWebhook(secret, test as ReceivedWebhook)).toMatchObject({
        type: "signature_request.declined",
      });
    } finally {
      await flaky.close();
    }
  });
});
