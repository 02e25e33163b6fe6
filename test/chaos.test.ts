/**
 * Faults under steady load (distributed mode, two replicas of everything): each service killed
 * with SIGKILL in turn, a rolling restart, NATS killed and started again, every PostgreSQL
 * connection terminated, the S3 endpoint killed and started again. Afterwards every acknowledged
 * request is stored and sent, every event reached the webhook endpoint once, every invitation went
 * out once, no outbox holds an event, and no client ever saw a 5xx but 503 with Retry-After.
 *
 * `npm run test:chaos` holds each fault longer and writes docs/reliability.md; in `npm test` the
 * faults are short and the table goes to the log.
 */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@countersign/gen/grpc/health/v1/health_pb.js";
import { networkTransport } from "@countersign/kit";
import pg from "pg";
import { readDistributedEndpoints } from "../deploy/local/src/distributed-endpoints.js";
import { type Deployment, faultsIn, REPO, startDistributed } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { RestartablePeer } from "./support/outage-peers.js";
import { outboxMails } from "./support/outbox-mail.js";
import { makePdf } from "./support/pdfs.js";
import {
  type FaultRow,
  type FaultWindow,
  reliabilityMarkdown,
  rowFor,
} from "./support/reliability-report.js";
import { recipientEmail, SteadyLoad } from "./support/steady-load.js";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";

const FULL = process.env.CHAOS_FULL === "1";
/** How long a dependency stays down, and the load runs on after each fault. */
const HOLD_MS = FULL ? 15_000 : 3_000;
/** How long events and e-mails may take to arrive after the load stops. */
const SETTLE_MS = FULL ? 300_000 : 120_000;
const SERVICES = ["auth", "templates", "documents", "requests", "webhooks"] as const;
const COMPONENTS = [...SERVICES, "gateway"] as const;
const REPLICAS = COMPONENTS.map((c) => `${c}=2`).join(",");

const infra = await distributedInfra();
const describeDistributed = infra ? describe : describe.skip;
afterAll(() => infra?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeDistributed("chaos: faults under steady load, two replicas of everything", () => {
  let deployment: Deployment;
  let nats: RestartablePeer;
  let s3: RestartablePeer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    nats = await RestartablePeer.nats();
    s3 = await RestartablePeer.s3();
    receiver = await startWebhookReceiver();
    const caFile = join(tmpdir(), `countersign-chaos-ca-${process.pid}.pem`);
    await writeFile(caFile, receiver.caPem);
    deployment = await startDistributed(
      {
        postgresUrl: (infra as NonNullable<typeof infra>).postgresUrl,
        natsUrl: nats.url,
        close: async () => {},
      },
      {
        args: ["--replicas", REPLICAS],
        env: {
          S3_ENDPOINT: s3.url,
          S3_ACCESS_KEY: "S3RVER",
          S3_SECRET_KEY: "S3RVER",
          COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
          COUNTERSIGN_WEBHOOK_CA_FILE: caFile,
          COUNTERSIGN_WEBHOOK_RETRY_SCHEDULE: "0,0.5,1,2,4,8",
          COUNTERSIGN_WEBHOOK_TIMEOUT_SECONDS: "2",
          NATS_ACK_WAIT_SECONDS: "5",
          COUNTERSIGN_RATE_LIMIT_PER_SECOND: "10000",
          COUNTERSIGN_RATE_LIMIT_BURST: "10000",
          COUNTERSIGN_DRAIN_MS: "500",
          LOG_LEVEL: "info",
        },
      },
    );
  }, 240_000);
  afterAll(async () => {
    await receiver?.close();
    await deployment?.destroy();
    await nats?.destroy();
    await s3?.destroy();
  });

  test("no acknowledged request is lost, every event is delivered once, and no client sees a 5xx", async () => {
    const api = `${deployment.gateways[0]}/api/v1`;
    const { secret: apiKey } = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "chaos")).stdout,
    ) as {
      secret: string;
    };
    const endpoint = await call(api, "/webhook-endpoints", {
      key: apiKey,
      method: "POST",
      json: { url: receiver.url, eventTypes: ["signature_request.sent"] },
    });
    const webhookSecret = (endpoint.body as { secret: string }).secret;
    const pdf = await makePdf(1);
    const upload = await call(api, "/documents/upload?filename=chaos.pdf", {
      key: apiKey,
      method: "POST",
      body: pdf,
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.status).toBe(201);

    const load = new SteadyLoad({
      gateways: deployment.gateways,
      apiKey,
      documentId: (upload.body as { id: string }).id,
      pdf,
      workers: 4,
      pauseMs: 100,
    });
    const windows: FaultWindow[] = [];
    const fault = async (name: string, make: () => Promise<void>) => {
      const window = { fault: name, from: Date.now(), to: 0 };
      windows.push(window);
      await make();
      await sleep(HOLD_MS);
      window.to = Date.now();
    };

    // Events: one event id per acknowledged request (deliveries may repeat; events may not). Each
    // delivery's signature is checked as it arrives: Standard Webhooks refuses a timestamp older
    // than five minutes, and the long form runs longer than that.
    const eventIds = new Map<string, Set<string>>();
    let verified = 0;
    const collectEvents = () => {
      for (const delivery of receiver.received.slice(verified)) {
        const payload = verifyWebhook(webhookSecret, delivery) as {
          data: { signatureRequest: { id: string } };
        };
        const id = payload.data.signatureRequest.id;
        eventIds.set(id, (eventIds.get(id) ?? new Set()).add(delivery.headers["webhook-id"] as string));
        verified++;
      }
    };
    const collecting = setInterval(collectEvents, 1000);

    load.start();
    let shares: Record<string, Record<string, number>>;
    try {
      const before = await callsByReplica(deployment);
      await fault("none (steady load)", async () => {});
      shares = sharesBetween(before, await callsByReplica(deployment));

      for (const component of COMPONENTS) {
        await fault(`\`kill -9\` ${component}-0`, async () => {
          await replaceProcess(deployment, `${component}-0`, "SIGKILL");
        });
      }
      // Services and gateways apart: the gateways have no load balancer in front of them here, so
      // their row shows what an ingress would retry (connections refused by a gateway stopping).
      for (const group of [SERVICES, ["gateway"] as const]) {
        const restarted = FULL ? group.flatMap((c) => [`${c}-0`, `${c}-1`]) : group.map((c) => `${c}-1`);
        const what = group.length === 1 ? "gateways" : "services";
        await fault(
          `rolling restart of the ${what} (SIGTERM, ${restarted.length} replicas one at a time)`,
          async () => {
            for (const name of restarted) await replaceProcess(deployment, name, "SIGTERM");
          },
        );
      }
      await fault(`NATS killed for ${HOLD_MS / 1000} s`, async () => {
        await nats.kill();
        await sleep(HOLD_MS);
        await nats.start();
      });
      await fault("PostgreSQL: every connection terminated", async () => {
        await terminateConnections(infra?.postgresUrl as string, deployment.databasePrefix as string);
      });
      await fault(`S3 endpoint killed for ${HOLD_MS / 1000} s`, async () => {
        await s3.kill();
        await sleep(HOLD_MS);
        await s3.start();
      });
    } finally {
      await load.stop();
    }

    const acknowledged = load.operations.filter((op) => op.id !== undefined);
    const requests = acknowledged.filter((op) => op.kind === "request");
    const lost = new Set<string>();
    let stuck = 0;
    for (const op of acknowledged) {
      const path = op.kind === "request" ? `/signature-requests/${op.id}` : `/documents/${op.id}`;
      const stored = await call(api, path, { key: apiKey });
      if (stored.status !== 200) lost.add(op.id as string);
      else if (op.kind === "request" && (stored.body as { status: string }).status !== "sent") stuck++;
    }

    await eventually(
      async () => {
        collectEvents();
        return requests.every((op) => eventIds.has(op.id as string)) ? true : undefined;
      },
      SETTLE_MS,
      500,
    ).catch(() => undefined);
    clearInterval(collecting);
    const delivered = requests.filter((op) => eventIds.has(op.id as string)).length;
    const eventsDuplicated = [...eventIds.values()].filter((ids) => ids.size > 1).length;

    let invitations = new Map<string, number>();
    await eventually(
      async () => {
        invitations = new Map();
        for (const mail of await outboxMails(deployment.dataDir)) {
          invitations.set(mail.to, (invitations.get(mail.to) ?? 0) + 1);
        }
        return requests.every((op) => invitations.has(recipientEmail(op.index))) ? true : undefined;
      },
      SETTLE_MS,
      1000,
    ).catch(() => undefined);
    const emailsSent = requests.filter((op) => invitations.has(recipientEmail(op.index))).length;
    const emailsDuplicated = requests.filter(
      (op) => (invitations.get(recipientEmail(op.index)) ?? 0) > 1,
    ).length;

    const outboxLeft = await eventually(
      async () => {
        const left = await outboxRows(infra?.postgresUrl as string, deployment.databasePrefix as string);
        return left === 0 ? left : undefined;
      },
      60_000,
      500,
    ).catch(() => -1);

    const twice = new Set(
      requests.filter((op) => (invitations.get(recipientEmail(op.index)) ?? 0) > 1).map((op) => op.index),
    );
    const serverErrors = load.operations
      .flatMap((op) => op.attempts)
      .filter((a) => a.status >= 500 && !(a.status === 503 && a.retryAfter))
      .map((a) => `${a.status} ${a.code ?? "(no problem body)"}`);
    const rows: FaultRow[] = windows.map((window) => rowFor(window, load.operations, lost, twice));
    const markdown = reliabilityMarkdown(
      rows,
      {
        replicas: `two replicas of every service and of the gateway (\`--replicas ${REPLICAS}\`)`,
        loadDescription: `4 clients each making one operation every 100 ms after the last (${load.operations.length} in all, every fourth an upload)`,
        events: { expected: requests.length, delivered, duplicated: eventsDuplicated },
        emails: { expected: requests.length, sent: emailsSent, duplicated: emailsDuplicated },
        stuck,
        outboxLeft,
        serverErrors,
        shares,
      },
      FULL ? "npm run test:chaos" : "npm test (short form)",
    );
    if (FULL) await writeFile(join(REPO, "docs/reliability.md"), markdown);
    else process.stdout.write(`\n${markdown}\n`);
    // Where a 5xx came from: the error-level lines the processes logged, for whoever reads a failure.
    const faults = faultsIn(deployment.output());
    const logFile = join(tmpdir(), `countersign-chaos-${process.pid}.log`);
    await writeFile(logFile, deployment.output());
    process.stdout.write(`\nall output in ${logFile}; error-level lines:\n${faults.join("\n") || "none"}\n`);

    expect(rows.map((r) => [r.fault, r.lost, r.serverErrors])).toEqual(rows.map((r) => [r.fault, 0, 0]));
    expect(load.operations.filter((op) => op.id === undefined).map((op) => op.refused)).toEqual([]);
    expect({ stuck, outboxLeft }).toEqual({ stuck: 0, outboxLeft: 0 });
    // No process crashed or logged a fault of ours: every fault here is one it must ride out.
    expect(faults).toEqual([]);
    expect({ delivered, eventsDuplicated }).toEqual({ delivered: requests.length, eventsDuplicated: 0 });
    expect({ emailsSent, emailsDuplicated }).toEqual({ emailsSent: requests.length, emailsDuplicated: 0 });
    for (const byReplica of Object.values(shares)) {
      for (const share of Object.values(byReplica)) expect(share).toBeGreaterThanOrEqual(0.3);
    }
  }, 900_000);
});

/**
 * Stops one replica and waits until the launcher's replacement answers (SERVING, or /readyz for a
 * gateway), as a Deployment's rollout waits for a new pod to be ready.
 */
async function replaceProcess(deployment: Deployment, name: string, signal: NodeJS.Signals): Promise<void> {
  const endpoints = await readDistributedEndpoints(deployment.dataDir);
  const pid = endpoints?.pids[name];
  if (!endpoints || pid === undefined) throw new Error(`no process ${name} is running`);
  process.kill(pid, signal);
  await eventually(
    async () => {
      const now = await readDistributedEndpoints(deployment.dataDir);
      const replaced = now?.pids[name];
      return replaced !== undefined && replaced !== pid ? replaced : undefined;
    },
    60_000,
    100,
  );
  const [component, replica] = name.split("-") as [string, string];
  if (component === "gateway") {
    const url = endpoints.gateways[Number(replica)] as string;
    await eventually(
      async () => ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      60_000,
      100,
    );
    return;
  }
  const health = createClient(
    Health,
    networkTransport(endpoints.services[component]?.[Number(replica)] as string, endpoints.operatorToken),
  );
  await eventually(
    async () => {
      const answer = await health.check({}, { timeoutMs: 1000 }).catch(() => undefined);
      return answer?.status === HealthCheckResponse_ServingStatus.SERVING ? true : undefined;
    },
    60_000,
    100,
  );
}

/** The calls each replica of each service has served, from its Prometheus counters. */
async function callsByReplica(deployment: Deployment): Promise<Record<string, Record<string, number>>> {
  const endpoints = await readDistributedEndpoints(deployment.dataDir);
  const result: Record<string, Record<string, number>> = {};
  for (const [service, addresses] of Object.entries(endpoints?.services ?? {})) {
    result[service] = {};
    for (const [replica, address] of addresses.entries()) {
      const text = await (await fetch(`${address}/metrics`)).text();
      let calls = 0;
      for (const match of text.matchAll(/^rpc_server_handled_total\{([^}]*)\} (\d+)/gm)) {
        if (!(match[1] as string).includes("grpc.health")) calls += Number(match[2]);
      }
      (result[service] as Record<string, number>)[`${service}-${replica}`] = calls;
    }
  }
  return result;
}

function sharesBetween(
  before: Record<string, Record<string, number>>,
  after: Record<string, Record<string, number>>,
): Record<string, Record<string, number>> {
  const shares: Record<string, Record<string, number>> = {};
  for (const [service, replicas] of Object.entries(after)) {
    const served = Object.entries(replicas).map(
      ([name, n]) => [name, n - (before[service]?.[name] ?? 0)] as const,
    );
    const total = served.reduce((sum, [, n]) => sum + n, 0);
    if (total > 0) shares[service] = Object.fromEntries(served.map(([name, n]) => [name, n / total]));
  }
  return shares;
}

async function terminateConnections(postgresUrl: string, databasePrefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname LIKE $1 AND pid <> pg_backend_pid()",
      [`${databasePrefix}%`],
    );
    if (!rowCount) throw new Error("no connection of the deployment was found to terminate");
  } finally {
    await admin.end();
  }
}

async function outboxRows(postgresUrl: string, databasePrefix: string): Promise<number> {
  let rows = 0;
  for (const service of SERVICES) {
    const url = new URL(postgresUrl);
    url.pathname = `/${databasePrefix}${service}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const { rows: table } = await client.query<{ name: string | null }>(
        "SELECT to_regclass('outbox') AS name",
      );
      if (!table[0]?.name) continue;
      const { rows: found } = await client.query<{ n: string }>("SELECT count(*) AS n FROM outbox");
      rows += Number(found[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }
  return rows;
}
