/**
 * `npm run bench`, in both modes, every figure against a baseline of the same run:
 * - GET /v1/ping through the gateway against bare Express and bare Node;
 * - GET /v1/accounts/{id}/templates?pageSize=5 against GET /v1/ping;
 * - POST /v1/accounts/{id}/signature-requests (from a template, sent at once) against GET /v1/ping;
 * - a 10 MiB PDF uploaded and downloaded through the gateway against the blob store put and got directly
 *   and through the thinnest HTTP server in front of it;
 * - the gateway's peak resident memory during a 25 MiB upload;
 * - completing a 10-page request with 3 signers and 30 fields against pdf-lib loading and saving it;
 * - webhook latency at 200 events/s and delivery throughput against a bare HTTPS POST loop (distributed).
 * - the signing page and the console's log-in page in Lighthouse's mobile run (standalone);
 * - GET /v1/ping with OpenTelemetry tracing on at 10 % sampling against the same untraced;
 * - a bulk send of 1,000 rows against the same requests made by calls, four at once;
 * - the size of each image deploy/docker/build-images.sh built, and what it adds to its base.
 * BENCH_ONLY=completion measures completion alone (in process, no deployment), BENCH_ONLY=webhooks
 * the webhooks alone (a distributed deployment), BENCH_ONLY=phone the pages alone (a standalone
 * deployment), BENCH_ONLY=create-send ping and create-and-send alone (both modes), BENCH_ONLY=tracing
 * ping untraced against traced at 10 % sampling (both modes), BENCH_ONLY=bulk-send a bulk send of
 * 1,000 rows against the same requests made by calls (both modes); each only prints its figures.
 * Prints the figures and writes docs/benchmarks.md.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BlobStore, FileBlobStore } from "@countersign/kit";
import { S3BlobStore } from "@countersign/kit/s3-blob-store.js";
import { S3RVER_CREDENTIALS } from "../../deploy/local/src/local-s3.js";
import { startLocalTimestampAuthority } from "../../deploy/local/src/timestamp-authority.js";
import { imageSizes, imagesBuilt } from "../support/built-images.js";
import {
  type Deployment,
  OwnedProcess,
  REPO,
  startDistributed,
  startStandalone,
} from "../support/deployments.js";
import { distributedInfra } from "../support/infra.js";
import { makeLargePdf, makePdf } from "../support/pdfs.js";
import { createTestCa } from "../support/webhook-receiver.js";
import { type BulkSendFigures, measureBulkSend } from "./bulk-send.js";
import { writeChart } from "./chart.js";
import { measureCompletion } from "./completion.js";
import { measurePhonePages, type PhoneFigures } from "./lighthouse.js";
import { CREATE_SEND_RATE, type LoadOptions, measure, measureAtRate } from "./measure.js";
import { gatewayPid, peakDuring } from "./process-memory.js";
import {
  benchSummary,
  bulkSendLines,
  completionLines,
  imageLines,
  type ModeResult,
  phoneLines,
  printResults,
  webhookLines,
  writeReport,
} from "./report.js";
import { distributedStartup, type StartupFigures, standaloneStartup } from "./startup.js";
import { measureTracingCost, type TracingCost } from "./tracing-cost.js";
import { type FloorUrl, measureTransfer, putThroughFloor, uploadThroughGateway } from "./transfer.js";

/** The thinnest HTTP server in front of the baseline store: where its keys are reached, and its process. */
interface Floor {
  url: FloorUrl;
  pid: number;
}

import { measureWebhooks, type WebhookFigures } from "./webhooks.js";

const options: LoadOptions = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  durationSeconds: Number(process.env.BENCH_DURATION_SECONDS ?? 10),
  warmUpSeconds: 2,
  headers: {},
};
const TRANSFER_ROUNDS = Number(process.env.BENCH_TRANSFER_ROUNDS ?? 8);
const MiB = 2 ** 20;

/** Production logging, and limits so high that the limiter and the key's bound only keep their books. */

const GATEWAY_ENV = {
  LOG_LEVEL: "info",
  COUNTERSIGN_RATE_LIMIT_PER_SECOND: "1000000",
  COUNTERSIGN_RATE_LIMIT_BURST: "1000000",
  COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: "1000",
};

/** A baseline server in a process of its own; its origin. */
async function baseline(
  entry: string,
  logs: string,
  env: Record<string, string> = {},
): Promise<{ origin: string; proc: OwnedProcess }> {
  const proc = OwnedProcess.start(entry, { PORT: "0", ...env }, join(logs, `${entry.split("/").pop()}.log`));
  const [, port] = await proc.waitFor(/"listening":(\d+)/);
  return { origin: `http://127.0.0.1:${port}`, proc };
}

/** s3rver in a process of its own (`test/support/s3-process.ts`), with the credentials it accepts. */
async function s3Process(
  logs: string,
): Promise<{ endpoint: string; accessKey: string; secretKey: string; proc: OwnedProcess }> {
  const proc = OwnedProcess.start("test/support/s3-process.ts", {}, join(logs, "s3.log"), [
    join(logs, "s3"),
    "0",
  ]);
  const [, endpoint] = await proc.waitFor(/listening (\S+)/);
  return { endpoint: endpoint as string, ...S3RVER_CREDENTIALS, proc };
}

/** The store's presigned URLs, sent to `origin` (a proxy in front of its endpoint) instead. */
function presignedThrough(bucket: S3BlobStore, origin: string): FloorUrl {
  return async (key, method) => {
    const url = new URL(await (method === "PUT" ? bucket.writeUrl(key, 60) : bucket.readUrl(key, 60)));
    return `${origin}${url.pathname}${url.search}`;
  };
}

async function keyFor(deployment: Deployment): Promise<{ secret: string; accountId: string }> {
  const { stdout, stderr, code } = await deployment.cli("keys", "create", "--name", "bench");
  if (code !== 0) throw new Error(`could not create a key: ${stderr}`);
  return JSON.parse(stdout) as { secret: string; accountId: string };
}

/** Twenty templates on one document, so that a page of five is a real query; returns the last one's id. */
async function seedTemplates(base: string, key: string): Promise<string> {
  const documentId = await uploadThroughGateway(base, key, await makePdf(1));
  let id = "";
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${base}/templates`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: `Bench template ${i}`,
        documentId,
        roles: [{ name: "Signer" }],
        fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 700, width: 200, height: 40 }],
      }),
    });
    if (res.status !== 201)
      throw new Error(`creating a template answered ${res.status}: ${await res.text()}`);
    id = ((await res.json()) as { id: string }).id;
  }
  return id;
}

/** Create-and-send from the template: as fast as it goes, then at the mode's fixed rate with every process's CPU. */
async function measureCreateAndSend(
  mode: ModeResult["mode"],
  deployment: Deployment,
  accountBase: string,
  templateId: string,
): Promise<Pick<ModeResult, "createAndSend" | "createAndSendAtRate">> {
  console.log(`${mode}: create-and-send from a template through the gateway (${options.durationSeconds} s)`);
  const shape = {
    method: "POST",
    json: {
      title: "Bench agreement",
      message: "Please sign.",
      templateId,
      recipients: [{ name: "Bench Signer", email: "signer@example.com", role: "Signer" }],
      send: true,
    },
  } as const;
  const url = `${accountBase}/signature-requests`;
  const createAndSend = await measure("gateway: create-and-send", url, options, shape);
  const rate = CREATE_SEND_RATE[mode];
  console.log(`${mode}: create-and-send offered at ${rate}/s, with the processor time of every process`);
  const createAndSendAtRate = await measureAtRate(
    `gateway: create-and-send at ${rate}/s`,
    url,
    options,
    rate,
    deployment.pid,
    shape,
  );
  return { createAndSend, createAndSendAtRate };
}

async function benchMode(
  mode: ModeResult["mode"],
  deployment: Deployment,
  baselines: { node: string; express: string; blobs: BlobStore; floor: Floor },
  startup: StartupFigures,
): Promise<ModeResult> {
  const key = await keyFor(deployment);
  const gatewayUrl = deployment.gateways[0] as string;
  const accountBase = `${gatewayUrl}/v1/accounts/${key.accountId}`;
  options.headers = { authorization: `Bearer ${key.secret}` };

  console.log(`${mode}: peak gateway memory during a 25 MiB upload`);
  const nearLimit = await makeLargePdf(25 * MiB - 64 * 1024);
  const pid = gatewayPid(deployment);
  await uploadThroughGateway(accountBase, key.secret, await makePdf(1));
  const upload25 = await peakDuring(pid, async () => {
    await uploadThroughGateway(accountBase, key.secret, nearLimit);
  });
  // Garbage not yet collected counts in a peak too; what is held for good would add up over uploads.
  const upload25x3 = await peakDuring(pid, async () => {
    for (let i = 0; i < 3; i++) await uploadThroughGateway(accountBase, key.secret, nearLimit);
  });
  // The same first large body through the thinnest server in front of the store, warmed up alike.
  const { url: floorUrl, pid: floorPid } = baselines.floor;
  await putThroughFloor(await floorUrl("bench-floor/warm-up.pdf", "PUT"), await makePdf(1));
  const floorPut = await floorUrl("bench-floor/25.pdf", "PUT");
  const floorUpload25 = await peakDuring(floorPid, () => putThroughFloor(floorPut, nearLimit));

  console.log(
    `${mode}: 10 MiB uploads and downloads, gateway against the blob store (${TRANSFER_ROUNDS} rounds)`,
  );
  const transfer = await measureTransfer(
    accountBase,
    key.secret,
    baselines.blobs,
    await makeLargePdf(10 * MiB),
    TRANSFER_ROUNDS,
    floorUrl,
  );

  console.log(
    `${mode}: GET /v1/ping and a page of templates through the gateway, bare Express, bare Node (${options.durationSeconds} s each)`,
  );
  const templateId = await seedTemplates(accountBase, key.secret);
  const gateway = await measure("gateway", `${gatewayUrl}/v1/ping`, options);
  const templates = await measure(
    "gateway: templates?pageSize=5",
    `${accountBase}/templates?pageSize=5`,
    options,
  );
  const { createAndSend, createAndSendAtRate } = await measureCreateAndSend(
    mode,
    deployment,
    accountBase,
    templateId,
  );
  console.log(`${mode}: a bulk send of 1,000 rows against the same requests made by calls, four at once`);
  const bulkSend = await measureBulkSend(accountBase, key.secret, templateId);
  const express = await measure("bare Express", baselines.express, options);
  const node = await measure("bare Node", baselines.node, options);
  for (const f of [gateway, templates, createAndSend, createAndSendAtRate, express, node]) {
    if (f.non2xx + f.errors > 0)
      console.warn(`${mode} ${f.target}: ${f.non2xx} non-2xx answers, ${f.errors} errors`);
  }
  return {
    mode,
    gateway,
    templates,
    createAndSend,
    createAndSendAtRate,
    express,
    node,
    transfer,
    upload25,
    upload25x3,
    floorUpload25,
    startup,
    bulkSend,
  };
}

/** Deliveries to the benchmark's own HTTPS receiver on loopback, trusted through its CA. */
async function webhookEnv(logs: string): Promise<Record<string, string>> {
  const caFile = join(logs, "webhook-ca.pem");
  await writeFile(caFile, createTestCa().caPem);
  return { COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8", COUNTERSIGN_WEBHOOK_CA_FILE: caFile };
}

async function webhooksOnly(): Promise<void> {
  const infra = await distributedInfra();
  if (!infra) throw new Error("the webhooks benchmark needs Postgres and NATS");
  const logs = await mkdtemp(join(tmpdir(), "countersign-bench-"));
  const deployment = await startDistributed(infra, {
    env: { ...GATEWAY_ENV, ...(await webhookEnv(logs)) },
    logFile: join(logs, "distributed.log"),
  });
  try {
    console.log(`bench: webhooks (logs in ${logs})`);
    console.log(
      `\n${webhookLines(await measureWebhooks(deployment, infra.natsUrl, await keyFor(deployment)))}\n`,
    );
  } finally {
    await deployment.destroy();
    await infra.close();
  }
}

async function phoneOnly(): Promise<void> {
  const deployment = await startStandalone(undefined, { env: GATEWAY_ENV, compiled: true });
  try {
    const figures = await measurePhonePages(deployment, (await keyFor(deployment)).secret);
    console.log(`\n${phoneLines(figures)}\n`);
  } finally {
    await deployment.destroy();
  }
}

/** Ping untraced and traced at 10 %, two deployments of the mode side by side (tracing-cost.ts). */
function tracingCostIn(
  mode: ModeResult["mode"],
  start: (env: Record<string, string>) => Promise<Deployment>,
): Promise<TracingCost> {
  console.log(`${mode}: ping untraced and traced at 10 % sampling, two deployments side by side`);
  return measureTracingCost(
    (env) => start({ ...GATEWAY_ENV, ...env }),
    async (deployment) => ({
      url: `${deployment.gateways[0]}/v1/ping`,
      headers: { authorization: `Bearer ${(await keyFor(deployment)).secret}` },
    }),
    options,
  );
}

async function tracingOnly(): Promise<void> {
  const print = (mode: string, cost: TracingCost) =>
    console.log(
      `${mode}: ping traced at 10 %: CPU per ping at ${cost.tracedAtRate.ratePerSecond}/s ${cost.tracedAtRate.cpuMsPerRequest} against ${cost.untracedAtRate.cpuMsPerRequest} ms untraced (${(cost.tracedAtRate.cpuMsPerRequest / cost.untracedAtRate.cpuMsPerRequest).toFixed(3)}); as fast as answered ${cost.traced.requestsPerSecond} against ${cost.untraced.requestsPerSecond}/s (${(cost.traced.requestsPerSecond / cost.untraced.requestsPerSecond).toFixed(3)}); ${cost.exports} OTLP exports`,
    );
  print(
    "standalone",
    await tracingCostIn("standalone", (env) => startStandalone(undefined, { env, compiled: true })),
  );
  const infra = await distributedInfra();
  if (!infra) return;
  try {
    print(
      "distributed",
      await tracingCostIn("distributed", (env) => startDistributed(infra, { env, compiled: true })),
    );
  } finally {
    await infra.close();
  }
}

async function createSendOnly(): Promise<void> {
  const measureIn = async (mode: ModeResult["mode"], deployment: Deployment) => {
    try {
      const key = await keyFor(deployment);
      const accountBase = `${deployment.gateways[0]}/v1/accounts/${key.accountId}`;
      options.headers = { authorization: `Bearer ${key.secret}` };
      const templateId = await seedTemplates(accountBase, key.secret);
      const ping = await measure("gateway", `${deployment.gateways[0]}/v1/ping`, options);
      const { createAndSend, createAndSendAtRate: atRate } = await measureCreateAndSend(
        mode,
        deployment,
        accountBase,
        templateId,
      );
      console.log(
        `${mode}: create-and-send ÷ ping ${(createAndSend.requestsPerSecond / ping.requestsPerSecond).toFixed(3)} (${createAndSend.requestsPerSecond}/s); at ${atRate.ratePerSecond}/s p99 ${atRate.p99Ms} ms, ${atRate.cpuMsPerRequest} ms CPU a request (idle ${atRate.idleCpuMsPerSecond} ms/s)`,
      );
    } finally {
      await deployment.destroy();
    }
  };
  await measureIn("standalone", await startStandalone(undefined, { env: GATEWAY_ENV, compiled: true }));
  const infra = await distributedInfra();
  if (!infra) return;
  try {
    await measureIn("distributed", await startDistributed(infra, { env: GATEWAY_ENV, compiled: true }));
  } finally {
    await infra.close();
  }
}

/** Bulk send's rows a second, and the same requests made by calls (bulk-send.ts). */
async function bulkSendIn(mode: ModeResult["mode"], deployment: Deployment): Promise<BulkSendFigures> {
  const key = await keyFor(deployment);
  const accountBase = `${deployment.gateways[0]}/v1/accounts/${key.accountId}`;
  const templateId = await seedTemplates(accountBase, key.secret);
  console.log(`${mode}: a bulk send of 1,000 rows against the same requests made by calls, four at once`);
  return measureBulkSend(accountBase, key.secret, templateId);
}

async function bulkSendOnly(): Promise<void> {
  const print = (mode: ModeResult["mode"], bulkSend: BulkSendFigures) =>
    console.log(bulkSendLines([{ mode, bulkSend }]));
  const standalone = await startStandalone(undefined, { env: GATEWAY_ENV, compiled: true });
  try {
    print("standalone", await bulkSendIn("standalone", standalone));
  } finally {
    await standalone.destroy();
  }
  const infra = await distributedInfra();
  if (!infra) return;
  try {
    const distributed = await startDistributed(infra, { env: GATEWAY_ENV, compiled: true });
    try {
      print("distributed", await bulkSendIn("distributed", distributed));
    } finally {
      await distributed.destroy();
    }
  } finally {
    await infra.close();
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === "bulk-send") return bulkSendOnly();
  if (process.env.BENCH_ONLY === "webhooks") return webhooksOnly();
  if (process.env.BENCH_ONLY === "phone") return phoneOnly();
  if (process.env.BENCH_ONLY === "create-send") return createSendOnly();
  if (process.env.BENCH_ONLY === "tracing") return tracingOnly();
  console.log("bench: completing a 10-page request (20 runs against pdf-lib load-and-save)");
  const authority = await startLocalTimestampAuthority(
    await mkdtemp(join(tmpdir(), "countersign-bench-tsa-")),
  );
  const completion = [
    await measureCompletion("text"),
    await measureCompletion("scanned"),
    await measureCompletion("text", { url: authority.url, timeoutMs: 10_000 }),
  ];
  await authority.close();
  console.log(`\n${completionLines(completion)}\n`);
  if (process.env.BENCH_ONLY === "completion") return;
  const logs = await mkdtemp(join(tmpdir(), "countersign-bench-"));
  console.log(`bench: server logs in ${logs}`);
  const owned: { stop(): Promise<unknown> }[] = [];
  const results: ModeResult[] = [];
  let webhooks: WebhookFigures | undefined;
  let phone: PhoneFigures | undefined;
  try {
    const node = await baseline("test/bench/bare-node.ts", logs);
    const express = await baseline("test/bench/bare-express.ts", logs);
    owned.push(node.proc, express.proc);
    const ping = (server: { origin: string }) => `${server.origin}/v1/ping`;

    console.log("standalone: first start, idle memory, restart, idle memory");
    const { deployment: standalone, figures: standaloneStart } = await standaloneStartup({
      env: GATEWAY_ENV,
      logFile: join(logs, "standalone.log"),
      compiled: true,
    });
    owned.push({ stop: () => standalone.destroy() });
    // Beside the deployment's own blobs: the same file system, the same store.
    const filesDir = join(standalone.dataDir, "bench-blobs");
    const fileServer = await baseline("test/bench/bare-blob-server.ts", logs, { BLOB_DIR: filesDir });
    owned.push(fileServer.proc);
    results.push(
      await benchMode(
        "standalone",
        standalone,
        {
          node: ping(node),
          express: ping(express),
          blobs: new FileBlobStore(filesDir),
          floor: {
            url: async (key) => `${fileServer.origin}/blobs/${key}`,
            pid: fileServer.proc.child.pid as number,
          },
        },
        standaloneStart,
      ),
    );
    await fileServer.proc.stop();
    console.log("standalone: the signing page and the console's log-in page in Lighthouse's mobile run");
    phone = await measurePhonePages(standalone, (await keyFor(standalone)).secret);
    await standalone.destroy();
    (results[0] as ModeResult).tracing = await tracingCostIn("standalone", (env) =>
      startStandalone(undefined, { env, compiled: true }),
    );

    const infra = await distributedInfra();
    if (infra) {
      // One S3 endpoint for the deployment and the baselines, so that all write to the same server; in
      // a process of its own, as MinIO would be, not in this one, whose client it would slow.
      const s3 = await s3Process(logs);
      owned.push(s3.proc);
      const proxy = await baseline("test/bench/bare-s3-proxy.ts", logs, { S3_ENDPOINT: s3.endpoint });
      owned.push(proxy.proc);
      console.log("distributed: first start, idle memory");
      const { deployment: distributed, figures: distributedStart } = await distributedStartup(infra, {
        compiled: true,
        env: {
          ...GATEWAY_ENV,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY: s3.accessKey,
          S3_SECRET_KEY: s3.secretKey,
          ...(await webhookEnv(logs)),
        },
        logFile: join(logs, "distributed.log"),
      });
      owned.push({ stop: () => distributed.destroy() });
      const bucket = await S3BlobStore.open({ ...s3, bucket: "bench-baseline", region: "us-east-1" });
      results.push(
        await benchMode(
          "distributed",
          distributed,
          {
            node: ping(node),
            express: ping(express),
            blobs: bucket,
            floor: { url: presignedThrough(bucket, proxy.origin), pid: proxy.proc.child.pid as number },
          },
          distributedStart,
        ),
      );
      console.log("distributed: webhook latency at 200 events/s and delivery throughput");
      webhooks = await measureWebhooks(distributed, infra.natsUrl, await keyFor(distributed));
      console.log(`\n${webhookLines(webhooks)}\n`);
      await distributed.destroy();
      (results[1] as ModeResult).tracing = await tracingCostIn("distributed", (env) =>
        startDistributed(infra, { env, compiled: true }),
      );
      await infra.close();
    }
  } finally {
    for (const process of owned.reverse()) await process.stop().catch(() => {});
    await rm(join(logs, "s3"), { recursive: true, force: true });
  }
  printResults(results);
  const images = imagesBuilt("the image sizes") ? await imageSizes() : undefined;
  if (images) console.log(`\n${imageLines(images)}\n`);
  const summary = benchSummary(results, phone, completion);
  console.log(`bench-summary ${JSON.stringify(summary)}`);
  await writeChart(join(REPO, "docs/benchmarks.svg"), summary);
  await writeReport(
    join(REPO, "docs/benchmarks.md"),
    results,
    options,
    TRANSFER_ROUNDS,
    completion,
    webhooks,
    phone,
    images,
  );
  console.log("bench: wrote docs/benchmarks.md and docs/benchmarks.svg");
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
