/** Prints the figures and writes docs/benchmarks.md with the method, the machine and the ratios. */

import { readFile, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { ADDED_BYTES_BUDGET, type ImageSize } from "../support/built-images.js";
import type { BulkSendFigures } from "./bulk-send.js";
import type { CompletionFigures } from "./completion.js";
import { LIGHTHOUSE_VERSION, type PhoneFigures } from "./lighthouse.js";
import type { Figures, LoadOptions, RateFigures } from "./measure.js";
import type { MemoryGrowth } from "./process-memory.js";
import type { StartupFigures } from "./startup.js";
import { type BenchSummary, type ModeSummary, type OnceSummary, verdicts } from "./targets.js";
import type { TracingCost } from "./tracing-cost.js";
import type { TransferResult } from "./transfer.js";
import type { WebhookFigures } from "./webhooks.js";

export interface ModeResult {
  mode: "standalone" | "distributed";
  gateway: Figures;
  templates: Figures;
  createAndSend: Figures;
  /** Create-and-send offered at a fixed rate, with the processor time of every process per request. */
  createAndSendAtRate: RateFigures;
  express: Figures;
  node: Figures;
  transfer: TransferResult;
  upload25: MemoryGrowth;
  upload25x3: MemoryGrowth;
  /** The same upload through the thinnest HTTP server in front of the store (its own process). */
  floorUpload25: MemoryGrowth;
  startup: StartupFigures;
  /** Ping untraced and traced at 10 %, two deployments side by side. */
  tracing?: TracingCost;
  /** A bulk send of 1,000 rows against the same requests made by calls. */
  bulkSend?: BulkSendFigures;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The figures measured once a run, as `bench-summary` names them. */
function onceSummary(phone?: PhoneFigures, completion: CompletionFigures[] = []): Partial<OnceSummary> {
  const contract = completion.find((c) => c.document === "text" && c.level === "B-B");
  return {
    ...(phone && {
      signingLighthouseScore: phone.signing.score,
      signingLcpMs: phone.signing.largestPaintMs,
      signingTbtMs: phone.signing.totalBlockingMs,
      signingJsKb: phone.signing.scriptKb,
      consoleLighthouseScore: phone.consoleLogIn.score,
    }),
    ...(contract && { completionPerFloor: round2(contract.completionP50Ms / contract.floorP50Ms) }),
  };
}

/** The `bench-summary` figures of each mode, and those measured once (names and targets in targets.ts). */
export function benchSummary(
  results: ModeResult[],
  phone?: PhoneFigures,
  completion?: CompletionFigures[],
): BenchSummary {
  const summary: BenchSummary = onceSummary(phone, completion);
  for (const r of results) {
    const t = r.transfer;
    const figures: ModeSummary = {
      pingPerExpress: round2(r.gateway.requestsPerSecond / r.express.requestsPerSecond),
      templatesPerPing: round2(r.templates.requestsPerSecond / r.gateway.requestsPerSecond),
      createSendPerPing:
        Math.round((r.createAndSend.requestsPerSecond / r.gateway.requestsPerSecond) * 1000) / 1000,
      createSendP50Ms: r.createAndSend.p50Ms,
      createSendP99Ms: r.createAndSend.p99Ms,
      cpuMsPerCreateSend: r.createAndSendAtRate.cpuMsPerRequest,
      createSendP99AtRateMs: r.createAndSendAtRate.p99Ms,
      uploadPerStore: round2(t.gateway.uploadMBps / t.blobStore.uploadMBps),
      downloadPerStore: round2(t.gateway.downloadMBps / t.blobStore.downloadMBps),
      uploadGrowthMiB: r.upload25.growthMiB,
      firstStartS: r.startup.firstStartS,
      idleRssMiB: r.startup.idleRssMiB,
    };
    if (t.floor) {
      figures.uploadPerFloor = round2(t.gateway.uploadMBps / t.floor.uploadMBps);
      figures.downloadPerFloor = round2(t.gateway.downloadMBps / t.floor.downloadMBps);
    }
    if (r.tracing)
      figures.tracedPingCpuPerUntraced = round2(
        r.tracing.tracedAtRate.cpuMsPerRequest / r.tracing.untracedAtRate.cpuMsPerRequest,
      );
    if (r.startup.restartS !== undefined) figures.restartS = r.startup.restartS;
    if (r.startup.idleRssAfterRestartMiB !== undefined)
      figures.idleRssAfterRestartMiB = r.startup.idleRssAfterRestartMiB;
    summary[r.mode] = figures;
  }
  return summary;
}

function targetLines(results: ModeResult[], phone?: PhoneFigures, completion?: CompletionFigures[]): string {
  return verdicts(benchSummary(results, phone, completion))
    .map(
      (v) =>
        `| ${v.mode} | ${v.target.label} | ${v.value} | ${v.target.better === "higher" ? "≥" : "≤"} ${Math.round(v.bound * 100) / 100} | ${v.met ? "met" : "**missed**"} |`,
    )
    .join("\n");
}

function startupLines(results: ModeResult[]): string {
  return results
    .map(({ mode, startup: s }) =>
      mode === "standalone"
        ? `- standalone: first start on a new data directory **${s.firstStartS} s**, idle **${s.idleRssMiB} MiB**; restart on the same data **${s.restartS} s**, idle **${s.idleRssAfterRestartMiB} MiB**`
        : `- distributed: first start (each service's database created and migrated) **${s.firstStartS} s**; every process of the launcher together, idle **${s.idleRssMiB} MiB**`,
    )
    .join("\n");
}

/** Our own targets. */
export const TARGETS = {
  /** The gateway keeps at least this share of bare Express's throughput on GET /v1/ping (both modes). */
  pingToExpress: 0.8,
  /**
   * Uploads and downloads through the gateway reach at least this share of their floor: the thinnest
   * HTTP server in front of the same store, measured in the same run.
   */
  transferToFloor: 0.9,
  /** Create-and-send at its fixed rate: the most processor time of every process per request (ms). */
  createSendCpuMs: 6,
  /** Create-and-send at its fixed rate: p99 below this (ms). */
  createSendP99AtRateMs: 100,
  /** The gateway's resident memory grows by less than this during a 25 MiB upload. */
  upload25GrowthMiB: 16,
  /** Completing a request takes at most this many times the same work done the thinnest way (issue 36). */
  completionToFloor: 1.5,
  /** Webhooks at 200 events/s reach the receiver within this many ms (p99). */
  webhookP99Ms: 500,
  /** Webhook deliveries keep at least this share of a bare HTTPS POST loop's rate. */
  webhookToBareLoop: 0.5,
};

const ratio = (a: number, b: number) => a / b;
const fixed = (n: number) => n.toFixed(2);
const verdict = (met: boolean) => (met ? "target met" : "target missed");

function loadTable(results: ModeResult[]): string {
  const rows = results.flatMap(
    ({ mode, gateway, templates, createAndSend, createAndSendAtRate, express, node, tracing }) =>
      [
        gateway,
        templates,
        createAndSend,
        createAndSendAtRate,
        express,
        node,
        ...(tracing ? [tracing.untracedAtRate, tracing.tracedAtRate, tracing.untraced, tracing.traced] : []),
      ].map(
        (f) =>
          `| ${mode} | ${f.target} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.requests} | ${f.non2xx + f.errors} |`,
      ),
  );
  return [
    "| mode | target | req/s | p50 ms | p99 ms | requests | failed |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

function loadRatios(results: ModeResult[]): string {
  return results
    .map(
      ({ mode, gateway, templates, createAndSend, createAndSendAtRate: atRate, express, node, tracing }) => {
        const toExpress = ratio(gateway.requestsPerSecond, express.requestsPerSecond);
        const met = ` — ${verdict(toExpress >= TARGETS.pingToExpress)}`;
        return [
          `- ${mode}: ping: gateway / bare Express = **${fixed(toExpress)}**${met}; bare Express / bare Node = ${fixed(ratio(express.requestsPerSecond, node.requestsPerSecond))}`,
          `- ${mode}: templates page / ping = **${fixed(ratio(templates.requestsPerSecond, gateway.requestsPerSecond))}** (req/s); p99 ${templates.p99Ms} ms against ${gateway.p99Ms} ms`,
          `- ${mode}: create-and-send / ping = **${fixed(ratio(createAndSend.requestsPerSecond, gateway.requestsPerSecond))}** (req/s); p50 ${createAndSend.p50Ms} ms, p99 ${createAndSend.p99Ms} ms against ${gateway.p99Ms} ms`,
          ...(tracing
            ? [
                `- ${mode}: tracing on at 10 % sampling (two deployments side by side, ABBA, twice with the start order swapped; ${tracing.exports} OTLP exports taken): processor time per ping at ${tracing.tracedAtRate.ratePerSecond}/s **${tracing.tracedAtRate.cpuMsPerRequest} ms** against ${tracing.untracedAtRate.cpuMsPerRequest} ms untraced = **${fixed(ratio(tracing.tracedAtRate.cpuMsPerRequest, tracing.untracedAtRate.cpuMsPerRequest))}**; pings as fast as answered ${tracing.traced.requestsPerSecond}/s against ${tracing.untraced.requestsPerSecond}/s = ${fixed(ratio(tracing.traced.requestsPerSecond, tracing.untraced.requestsPerSecond))}`,
              ]
            : []),
          `- ${mode}: create-and-send offered at ${atRate.ratePerSecond}/s (${atRate.requestsPerSecond}/s answered): p50 ${atRate.p50Ms} ms, **p99 ${atRate.p99Ms} ms** — ${verdict(atRate.p99Ms < TARGETS.createSendP99AtRateMs)}; processor time of every process **${atRate.cpuMsPerRequest} ms** a request — ${verdict(atRate.cpuMsPerRequest <= TARGETS.createSendCpuMs)} (settled and idle it used ${atRate.idleCpuMsPerSecond} ms a second, ${fixed(atRate.idleCpuMsPerSecond / atRate.ratePerSecond)} ms of each request's share)`,
        ].join("\n");
      },
    )
    .join("\n");
}

function transferTable(results: ModeResult[]): string {
  const rows = results.map(({ mode, transfer: t }) => {
    const up = ratio(t.gateway.uploadMBps, t.blobStore.uploadMBps);
    const down = ratio(t.gateway.downloadMBps, t.blobStore.downloadMBps);
    return `| ${mode} | ${t.gateway.uploadMBps} | ${t.blobStore.uploadMBps} | **${fixed(up)}** | ${t.gateway.downloadMBps} | ${t.blobStore.downloadMBps} | **${fixed(down)}** |`;
  });
  return [
    "| mode | upload via gateway MB/s | blob store put MB/s | ratio | download via gateway MB/s | blob store get MB/s | ratio |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

function transferVerdicts(results: ModeResult[]): string {
  return results
    .map(({ mode, transfer: t }) => {
      if (!t.floor) return `- ${mode}: no floor measured`;
      const worst = Math.min(
        ratio(t.gateway.uploadMBps, t.floor.uploadMBps),
        ratio(t.gateway.downloadMBps, t.floor.downloadMBps),
      );
      return `- ${mode}: the gateway's lower share of its floor ${fixed(worst)} — ${verdict(worst >= TARGETS.transferToFloor)}`;
    })
    .join("\n");
}

/** The thinnest HTTP server in front of each mode's store: the transfers' floor. */
const FLOOR = { standalone: "a bare Node file server", distributed: "a bare Node proxy" };

/** What the floor reached, against the store and the gateway. */
function httpFloorLines(results: ModeResult[]): string {
  return results
    .flatMap(({ mode, transfer: t }) => {
      const floor = t.floor;
      if (!floor) return [];
      return [
        `- ${mode}: the same store through ${FLOOR[mode]}: put ${floor.uploadMBps} MB/s (**${fixed(ratio(floor.uploadMBps, t.blobStore.uploadMBps))}** of the store), get ${floor.downloadMBps} MB/s (**${fixed(ratio(floor.downloadMBps, t.blobStore.downloadMBps))}** of the store); the gateway reaches ${fixed(ratio(t.gateway.uploadMBps, floor.uploadMBps))} of its uploads and ${fixed(ratio(t.gateway.downloadMBps, floor.downloadMBps))} of its downloads`,
      ];
    })
    .join("\n");
}

function memoryLines(results: ModeResult[]): string {
  return results
    .map(({ mode, upload25: m, upload25x3: three, floorUpload25: floor }) => {
      const what =
        mode === "standalone" ? "the whole process (gateway and every service)" : "the gateway process";
      return `- ${mode}: ${what}: ${m.beforeMiB} MiB before, peak ${m.peakMiB} MiB, growth **${m.growthMiB} MiB**${mode === "distributed" ? ` — ${verdict(m.growthMiB < TARGETS.upload25GrowthMiB)}` : ""}; three uploads in a row: growth ${three.growthMiB} MiB; the same upload through ${FLOOR[mode]} in front of the store: growth ${floor.growthMiB} MiB`;
    })
    .join("\n");
}

export function completionLines(figures: CompletionFigures[]): string {
  const what = { text: "text in an embedded font", scanned: "scanned, one image a page" };
  const rows = figures.map((c) => {
    const times = ratio(c.completionP50Ms, c.floorP50Ms);
    return `| ${what[c.document]} | ${c.level} | ${Math.round(c.pdfBytes / 1024)} KiB | ${c.baselineP50Ms} | ${c.floorP50Ms} | ${c.completionP50Ms} | ${c.completionP99Ms} | ${Math.round(c.sealedBytes / 1024)} KiB | **${fixed(times)}** — ${verdict(times <= TARGETS.completionToFloor)} |`;
  });
  return [
    "| 10-page document | seal | size | pdf-lib load and save, p50 ms | floor, p50 ms | completion, p50 ms | p99 ms | sealed | completion / floor (p50) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ...rows,
  ].join("\n");
}

export function webhookLines(w: WebhookFigures): string {
  const share = ratio(w.deliveredPerSecond, w.barePerSecond);
  return [
    `- latency at ${w.rate} events/s (reached ${w.reachedRate}), ${w.events} events published on JetStream: p50 ${w.latencyP50Ms} ms, **p99 ${w.latencyP99Ms} ms** — ${verdict(w.latencyP99Ms < TARGETS.webhookP99Ms)}`,
    ...w.committed.map(
      (c) =>
        `- commit-to-receipt of real requests through the API (create-and-send, then cancel) at ${c.rate} events/s, ${c.events} events: p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms`,
    ),
    `- throughput from a backlog of ${w.backlog} events: ${w.deliveredPerSecond} deliveries/s against a bare Node HTTPS POST loop's ${w.barePerSecond}/s over ${w.bareConnections} kept-alive connections = **${fixed(share)}** — ${verdict(share >= TARGETS.webhookToBareLoop)}`,
  ].join("\n");
}

function webhookSection(w: WebhookFigures): string {
  return `
## Webhooks: latency and throughput (distributed)

The local distributed deployment with two webhooks replicas, delivering to an HTTPS receiver on
loopback in the benchmark's process (its own CA, trusted through \`COUNTERSIGN_WEBHOOK_CA_FILE\`).
Latency is from an event's \`occurTime\` (its payload's \`timestamp\`) to the receiver holding the
whole body. The first run publishes \`signature_request.sent\` events on JetStream at a steady rate,
exactly as the requests service's outbox relay does, after ${200} discarded; the second makes real
requests through the API, whose events are stamped in the committing transaction, at a light and
at a heavy rate (the heavy one keeps both cores busy creating requests, which is what its latency
shows); the third
publishes a backlog at once and counts deliveries a second from the first publish to the last
receipt (fan-out, queue, signing, HTTPS), against a bare Node \`https.request\` loop posting the same
body to the same receiver over as many kept-alive connections as the service's two replicas open.

${webhookLines(w)}

Targets: p99 < ${TARGETS.webhookP99Ms} ms at 200 events/s; deliveries ≥ ${TARGETS.webhookToBareLoop} × the bare loop.
`;
}

/** Rows a second of a bulk send, against the same requests made by calls four at once. */
export function bulkSendLines(results: Pick<ModeResult, "mode" | "bulkSend">[]): string {
  return results
    .flatMap(({ mode, bulkSend: f }) =>
      f
        ? [
            `- ${mode}: ${f.rows} rows at **${f.rowsPerSecond.toFixed(1)} rows/s**, against ${f.baselinePerSecond.toFixed(1)} requests/s made by ${f.baselineRequests} calls four at once: **${fixed(ratio(f.rowsPerSecond, f.baselinePerSecond))}**`,
          ]
        : [],
    )
    .join("\n");
}

export function printResults(results: ModeResult[]): void {
  console.log(
    `\n${loadTable(results)}\n\n${loadRatios(results)}\n\n${bulkSendLines(results)}\n\n${transferTable(results)}\n\n${transferVerdicts(results)}\n${httpFloorLines(results)}\n\n${memoryLines(results)}\n`,
  );
}

const FINDINGS_START = "<!-- profile findings: written by hand, kept by npm run bench -->";
const FINDINGS_END = "<!-- end of profile findings -->";

/**
 * What the profiles say the time and memory go to: written by people from `npm run bench:profile`,
 * not by this run, so each run keeps the section of the report it replaces.
 */
async function keptFindings(path: string): Promise<string> {
  const earlier = await readFile(path, "utf8").catch(() => "");
  const start = earlier.indexOf(FINDINGS_START);
  const end = earlier.indexOf(FINDINGS_END);
  if (start < 0 || end < start) return `${FINDINGS_START}\n${FINDINGS_END}`;
  return earlier.slice(start, end + FINDINGS_END.length);
}

export async function writeReport(
  path: string,
  results: ModeResult[],
  options: LoadOptions,
  transferRounds: number,
  completion: CompletionFigures[],
  webhooks?: WebhookFigures,
  phone?: PhoneFigures,
  images?: ImageSize[],
): Promise<void> {
  const cpu = cpus();
  const size = results[0]?.transfer.sizeMiB ?? 10;
  const findings = await keptFindings(path);
  const text = `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Every figure is a ratio
against baselines measured in the same run on the same machine, never an absolute promise.

Machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}. The load generator shares the 2 cores with the servers under test, so
absolute numbers are low; the ratios are what to compare. Standalone: one process for everything.
Distributed: one gateway replica of the local distributed deployment (services over Connect and HTTP/2, NATS
JetStream, Postgres, s3rver).

![Every figure against its target](benchmarks.svg)

## Targets

| mode | figure | measured | target | |
|---|---|---:|---:|---|
${targetLines(results, phone, completion)}

The same figures are printed as one line, \`bench-summary {json}\`, and drawn in \`docs/benchmarks.svg\`.

${findings}

## Start and idle memory

What \`npm start\` and \`npm run start:distributed\` run: the JavaScript of \`npm run build:server\`. A
start is timed from spawning the process to the ready line; memory is the resident set of the
process and every process below it, ${5} s after the start. Distributed counts the launcher and
all its components (PostgreSQL, NATS and S3 are not Countersign's and are left out).

${startupLines(results)}
${images ? `\n${imageLines(images)}\n` : ""}${phone ? `\n${phoneLines(phone)}\n` : ""}
## Requests: GET /v1/ping and a page of templates

\`GET /v1/ping\` with a valid, cached API key is the gateway's whole path: request id, access log
line (level info, written to a file), key verification from the cache, rate limiter
bookkeeping (limit raised so nothing is refused), JSON answer, and the call counted for API Usage
(totals sent to auth in batches; a failed call's record for Recent Errors). Baselines answer the same route with the same JSON:
a bare Express app (ETag and X-Powered-By off, as in the gateway) and a bare Node \`http\` server, each
in its own process. \`GET /v1/accounts/{id}/templates?pageSize=5\` adds the templates service: an
RPC, one query over 20 templates, five templates serialised. \`POST /v1/accounts/{id}/signature-requests\`
with \`send: true\` is the whole create-and-send: the template fetched from templates, its document
claimed at documents, one transaction with the request, its recipient, a signing link, the audit
entries, the \`sent\` event in the outbox and the queued e-mail, then the relay publishing the event and
the e-mail written as an \`.eml\` file (no SMTP_URL). Load: autocannon from the
benchmark's own process, ${options.connections} connections, no pipelining, ${options.warmUpSeconds} s warm-up
(discarded), then ${options.durationSeconds} s, the same headers for every target.

${loadTable(results)}

${loadRatios(results)}

Create-and-send is also offered at a fixed rate (${results.map((r) => `${r.createAndSendAtRate.ratePerSecond}/s ${r.mode}`).join(", ")}), an open load:
requests evenly spaced whatever the answers do, after a warm-up at that rate, each one's latency
counted from when it was due (\`test/bench/open-loop.ts\`). Its latency is what a client sees at that load, and its processor time is every process's: the deployment's tree
(the launcher's components and the job processes they fork) and, in distributed mode, PostgreSQL's
and NATS's processes, read from /proc before and after, divided by the requests answered. It starts
once the deployment has worked through what the load before it queued (the e-mails and events of
thousands of requests: until its processes use less than 5 % of a processor), and what they use
idle then is printed beside it.

Targets: gateway ≥ ${TARGETS.pingToExpress} × bare Express on ping in both modes; create-and-send at
its fixed rate p99 < ${TARGETS.createSendP99AtRateMs} ms and ≤ ${TARGETS.createSendCpuMs} ms of processor time a request.

## Documents: ${size} MiB uploads and downloads

A ${size} MiB PDF (one page and an incompressible attachment) uploaded as a raw \`application/pdf\`
body to \`POST /v1/accounts/{id}/documents/upload\` and downloaded from \`GET …/documents/{id}/download\`
— gateway, documents service (spooled to disk, hashed, parsed with pdf-lib; stored while it arrives
in distributed, after it in standalone) and blob store — against the same bytes put into and got
from the blob store directly: the filesystem store inside the benchmark's process in standalone; in
distributed the same s3rver, put by the S3 store (one streamed PUT to a presigned URL) and got from
a presigned URL by the client that downloads through the gateway. That client reads the socket
itself into one buffer that every read reuses: node:http's parser, or a new buffer for every read,
would be the slowest part of either. s3rver runs in a process of its own, as MinIO would. The same
store is also measured through the thinnest HTTP server Node has in front of it, in its own process
as the gateway is, with the same client: a file server on the filesystem store in standalone
(\`test/bench/bare-blob-server.ts\`), a proxy piping presigned requests to s3rver in distributed
(\`test/bench/bare-s3-proxy.ts\`) — the most any HTTP API in front of that store could reach on this
machine. ${transferRounds} rounds,
alternating between them, after one discarded round through the gateway; each figure is the median
round's. MB/s = 10⁶ bytes/s.

${transferTable(results)}

${transferVerdicts(results)}
${httpFloorLines(results)}

Target: ≥ ${TARGETS.transferToFloor} of the floor — the thinnest HTTP server in front of the same store,
measured in the same run — both ways.

## Memory: a 25 MiB upload

The peak resident set (the kernel's high-water mark, reset just before) during one upload of a
PDF just under the 25 MiB limit, against the resident set just before it: the first large upload
after a one-page one, and then three in a row. The same first large body is also sent through the
thinnest HTTP server in front of the store (the transfers' floor, after a one-page body too): what
Node itself holds while a body passes through, before any of Countersign's work.

${memoryLines(results)}

Target: the gateway grows by less than ${TARGETS.upload25GrowthMiB} MiB. In standalone mode the documents
service shares the process and reads the whole file to parse it, so that figure is not the
gateway's alone.

## Bulk send: 1,000 rows

A bulk send of 1,000 rows from a one-role template, each row a request sent at once, from the
batch's start to its end as the service records them; against the same requests made through
\`POST /signature-requests\` by calls four at once (the worker makes four at once).

${bulkSendLines(results)}

## Completion: a 10-page request, 3 signers, 30 fields

What the completion worker does once the last signer has signed, by the same functions
(\`drawCompletedDocument\`, which the service runs in its drawing thread, and \`Seal.sign\`), in the benchmark's process: a 10-page contract — text in an embedded
TrueType font as a word processor exports it, or scanned (a 150 dpi greyscale image a page) — with 30 fields — per signer a signature and
initials (two typed in the handwriting font, one drawn as a 600×200 PNG), a signing date, three
texts, two checkboxes, name and e-mail — drawn on, the certificate page appended, the page saved
once to hash the signed pages, then sealed (CAdES, RSA 3072) and saved again. Floor: the same work
done the thinnest way pdf-lib allows (\`test/bench/completion-floor.ts\`: the same faces embedded
with pdf-lib's own subsetting, no shaping, no fallback faces, a plain certificate page, the same seal
room and seal). pdf-lib loading and saving the same PDF is shown beside them. ${completion[0]?.runs ?? 20} runs each, interleaved, after 5 discarded.
Reading the originals from and storing the result in the blob store, and the database commit,
are not in either figure.

${completionLines(completion)}

Target: ≤ ${TARGETS.completionToFloor} × the floor.
${webhooks ? webhookSection(webhooks) : ""}`;
  await writeFile(path, text);
}

/** Lighthouse's mobile run of the signing page and the console's log-in page. */
export function phoneLines({ signing, consoleLogIn }: PhoneFigures): string {
  const page = (name: string, p: PhoneFigures["signing"]) =>
    `| ${name} | ${p.score} | ${p.firstPaintMs} | ${p.largestPaintMs} | ${p.totalBlockingMs} | ${p.scriptKb} |`;
  return `## On a phone: Lighthouse

Lighthouse ${LIGHTHOUSE_VERSION} (\`test/bench/lighthouse.ts\`), its mobile run: simulated slow 4G and a
processor four times slower, in Debian's Chromium, on the standalone deployment. The signing page
is opened from a signing link to a 10-page contract; script is what the page fetched, compressed, to
show that contract's first page (the page's own and pdf.js).

| page | score | first paint ms | largest paint ms | blocking ms | script KB |
|---|---:|---:|---:|---:|---:|
${page("signing page", signing)}
${page("console log-in", consoleLogIn)}`;
}

/** The images deploy/docker/build-images.sh built, and what each adds to the base both start from. */
export function imageLines(images: ImageSize[]): string {
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  return `## Images

Both images as \`deploy/docker/build-images.sh\` builds them from this tree, on \`node:24-bookworm-slim\`;
the default image may add at most ${mb(ADDED_BYTES_BUDGET)} to it (the converter adds LibreOffice and its fonts).

| image | size | added to the base |
|---|---:|---:|
${images.map((i) => `| \`${i.image}\` | ${mb(i.bytes)} | ${mb(i.addedBytes)} |`).join("\n")}`;
}
