/**
 * At-least-once delivery under a crash (distributed mode): with two webhooks replicas sharing the
 * durable consumer and the message queue, one is killed with SIGKILL while 1,000 events stream
 * through, and the receiver still gets every one — counted as distinct webhook-ids, so duplicates
 * are allowed and losses are not.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Deployment, startDistributed } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { makePdf } from "./support/pdfs.js";
import {
  createTestCa,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

const infra = await distributedInfra();
const describeDistributed = infra ? describe : describe.skip;
afterAll(() => infra?.close());

const REQUESTS = 500;
const EVENTS = REQUESTS * 2;

/** The pids of the launcher's children that run the webhooks service. */
function webhooksReplicas(launcherPid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" });
  return table
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, ppid, ...args]) =>
        Number(ppid) === launcherPid &&
        /services\/webhooks\/(src\/server\.ts|dist\/server\.js)/.test(args.join(" ")),
    )
    .map(([pid]) => Number(pid));
}

/** Runs `work` over the items with at most `width` at once. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

describeDistributed("distributed mode: a webhooks replica killed mid-stream", () => {
  let deployment: Deployment;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const caFile = join(tmpdir(), `countersign-chaos-ca-${process.pid}.pem`);
    await writeFile(caFile, createTestCa().caPem);
    deployment = await startDistributed(infra as NonNullable<typeof infra>, {
      env: {
        COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
        COUNTERSIGN_WEBHOOK_CA_FILE: caFile,
        COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE: "0,0.5,1,2,4",
        // A dead replica's claims and unacknowledged events pass to the other within seconds.
        COUNTERSIGN_WEBHOOK_TIMEOUT_SECONDS: "2",
        NATS_ACK_WAIT_SECONDS: "5",
        // 1,000 calls as fast as 8 workers go: the per-key limit is not what this test is about.
        COUNTERSIGN_RATE_LIMIT_PER_SECOND: "10000",
        COUNTERSIGN_RATE_LIMIT_BURST: "10000",
        LOG_LEVEL: "info",
      },
    });
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
    await deployment?.destroy();
  });

  test("every one of 1,000 events reaches the receiver", async () => {
    receiver = await startWebhookReceiver();
    const gateway = deployment.gateways[0] as string;
    const api = `${gateway}/api/v1`;
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "chaos")).stdout) as {
      secret: string;
    };
    const endpoint = await call(api, "/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url: receiver.url, eventTypes: ["signature_request.sent", "signature_request.cancelled"] },
    });
    const { secret } = endpoint.body as { secret: string };
    const upload = await call(api, "/documents/upload?filename=chaos.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf" },
    });
    const documentId = (upload.body as { id: string }).id;
    const replicas = webhooksReplicas(deployment.pid);
    expect(replicas).toHaveLength(2);

    let killed = false;
    await inParallel(
      Array.from({ length: REQUESTS }, (_, i) => i),
      8,
      async (i) => {
        const created = await call(api, "/signature-requests", {
          key: key.secret,
          method: "POST",
          json: {
            title: `Chaos ${i}`,
            documentIds: [documentId],
            fields: [{ type: "signature", role: "Signer", page: 1, x: 60, y: 600, width: 180, height: 40 }],
            recipients: [{ name: "Sam Signer", email: `chaos.${i}@example.com`, role: "Signer" }],
            send: true,
          },
        });
        expect(created.status).toBe(201);
        const id = (created.body as { id: string }).id;
        const cancelled = await call(api, `/signature-requests/${id}/cancel`, {
          key: key.secret,
          method: "POST",
          json: {},
        });
        expect(cancelled.status).toBe(200);
        if (!killed && receiver.received.length >= EVENTS / 5) {
          killed = true;
          process.kill(replicas[0] as number, "SIGKILL");
        }
      },
    );
    expect(killed).toBe(true);

    const ids = await eventually(
      async () => {
        const distinct = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
        return distinct.size >= EVENTS ? distinct : undefined;
      },
      120_000,
      250,
    );
    expect(ids.size).toBe(EVENTS);
    const types = new Map<string, number>();
    const seen = new Set<string>();
    for (const req of receiver.received) {
      const id = req.headers["webhook-id"] as string;
      const payload = verifyWebhook(secret, req) as { type: string };
      if (seen.has(id)) continue;
      seen.add(id);
      types.set(payload.type, (types.get(payload.type) ?? 0) + 1);
    }
    expect(Object.fromEntries(types)).toEqual({
      "signature_request.sent": REQUESTS,
      "signature_request.cancelled": REQUESTS,
    });
    expect(deployment.output()).toMatch(
      /"process":"webhooks-\d"[^\n]*"msg":"a process exited; starting it again"/,
    );
  }, 240_000);
});
