/**
 * `npm run bench:profile -- <standalone|distributed> [ping|templates|create-and-send|create-and-send-at-rate|upload|download|start]`: runs one
 * load of the benchmark against a deployment whose processes run with `--cpu-prof`, then prints where
 * each busy process spent its time: self time by package (our code by folder) and the hottest
 * functions, and for a load of requests its time per request answered. The profiles stay in the printed folder for Chrome DevTools or speedscope.
 */
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type Deployment, REPO, startDistributed, startStandalone } from "../support/deployments.js";
import { distributedInfra } from "../support/infra.js";
import { makeLargePdf, makePdf } from "../support/pdfs.js";
import { CREATE_SEND_RATE, measure, measureAtRate } from "./measure.js";
import { processTable, treeOf } from "./process-table.js";
import { downloadThroughGateway, uploadThroughGateway } from "./transfer.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [mode = "standalone", load = "create-and-send"] = process.argv.slice(2);

/** The package a frame belongs to: a dependency by its name, ours by its folder, else Node or V8. */
function ownerOf(url: string): string {
  if (!url) return "(native: GC, I/O, builtins)";
  if (url.startsWith("wasm:")) return "(WebAssembly: PGlite's Postgres)";
  if (url.startsWith("node:")) return "node (internals)";
  const dependency = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1] as string;
  const ours = relative(REPO, url.startsWith("file:") ? fileURLToPath(url) : url);
  return ours
    .split("/")
    .slice(0, ours.startsWith("services/") ? 2 : 1)
    .join("/");
}

/** Self time by frame over the samples taken in [from, to] µs before the profile's end. */
function summarise(
  profile: CpuProfile,
  window: { fromUs: number; toUs: number },
): { totalMs: number; owners: [string, number][]; hottest: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  let elapsed = 0;
  const timestamps = profile.timeDeltas.map((delta) => (elapsed += delta));
  const last = timestamps.at(-1) ?? 0;
  profile.samples.forEach((id, i) => {
    const beforeEnd = last - (timestamps[i] ?? 0);
    if (beforeEnd > window.fromUs || beforeEnd < window.toUs) return;
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    if (frame.functionName === "(idle)") continue;
    totalMs += ms;
    const owner = ownerOf(frame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    const name = `${frame.functionName || "(anonymous)"} ${owner}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { totalMs, owners: top(owners, 15), hottest: top(functions, 20) };
}

/** What each process of the deployment runs: its entry script, as the repository names it. */
async function entriesOf(root: number): Promise<Map<number, string>> {
  const tree = treeOf(root, await processTable());
  const entries = await Promise.all(
    tree.map(async ({ pid, name }): Promise<[number, string]> => {
      const args = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
      const script = args.slice(1).find((arg) => /\.(m?js|ts)$/.test(arg));
      return [pid, script ? relative(REPO, script) : name];
    }),
  );
  return new Map(entries);
}

async function key(deployment: Deployment): Promise<{ secret: string; accountId: string }> {
  const { stdout } = await deployment.cli("keys", "create", "--name", "profile");
  return JSON.parse(stdout) as { secret: string; accountId: string };
}

/** When the measured part of a load began and ended (wall clock, ms), and how many requests it answered. */
interface Measured {
  startedAt: number;
  endedAt: number;
  requests?: number;
}

/** Seeds, then runs the load. */
async function drive(deployment: Deployment): Promise<Measured> {
  const { secret, accountId } = await key(deployment);
  const base = `${deployment.gateways[0]}/v1/accounts/${accountId}`;
  const documentId = await uploadThroughGateway(base, secret, await makePdf(1));
  let templateId = "";
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${base}/templates`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: `Profile template ${i}`,
        documentId,
        roles: [{ name: "Signer" }],
        fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 700, width: 200, height: 40 }],
      }),
    });
    templateId = ((await res.json()) as { id: string }).id;
  }
  const options = {
    connections: 32,
    durationSeconds: 10,
    warmUpSeconds: 2,
    headers: { authorization: `Bearer ${secret}` },
  };
  // The warm-up run before the measured one is left out.
  let startedAt = Date.now() + (load === "upload" ? 0 : options.warmUpSeconds * 1000);
  if (load === "ping" || load === "templates") {
    const url = load === "ping" ? `${deployment.gateways[0]}/v1/ping` : `${base}/templates?pageSize=5`;
    const figures = await measure(load, url, options);
    console.log(figures);
    return { startedAt, endedAt: Date.now(), requests: figures.requests };
  }
  if (load === "upload") {
    const pdf = await makeLargePdf(10 * 2 ** 20);
    const started = performance.now();
    for (let i = 0; i < 8; i++) await uploadThroughGateway(base, secret, pdf);
    console.log({ uploadsOf10MiB: 8, ms: Math.round(performance.now() - started) });
  } else if (load === "download") {
    const id = await uploadThroughGateway(base, secret, await makeLargePdf(10 * 2 ** 20));
    // The upload is left out: only the downloads count.
    startedAt = Date.now();
    const started = performance.now();
    for (let i = 0; i < 16; i++) await downloadThroughGateway(base, secret, id);
    console.log({ downloadsOf10MiB: 16, ms: Math.round(performance.now() - started) });
  } else {
    const json = {
      title: "Profile agreement",
      templateId,
      recipients: [{ name: "Profile Signer", email: "signer@example.com", role: "Signer" }],
      send: true,
    };
    const shape = { method: "POST", json } as const;
    const url = `${base}/signature-requests`;
    if (load === "create-and-send-at-rate") {
      // Settled, warmed up, then the measured part: the last durationSeconds.
      const rate = CREATE_SEND_RATE[mode === "distributed" ? "distributed" : "standalone"];
      const figures = await measureAtRate(load, url, options, rate, deployment.pid, shape);
      console.log(figures);
      return {
        startedAt: Date.now() - options.durationSeconds * 1000,
        endedAt: Date.now(),
        requests: figures.requests,
      };
    }
    const figures = await measure(load, url, options, shape);
    console.log(figures);
    return { startedAt, endedAt: Date.now(), requests: figures.requests };
  }
  return { startedAt, endedAt: Date.now() };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-profile-"));
  const nodeArgs = ["--cpu-prof", `--cpu-prof-dir=${dir}`];
  const env = {
    LOG_LEVEL: "info",
    COUNTERSIGN_RATE_LIMIT_PER_SECOND: "1000000",
    COUNTERSIGN_RATE_LIMIT_BURST: "1000000",
    COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: "1000",
  };
  const infra = mode === "distributed" ? await distributedInfra() : undefined;
  if (mode === "distributed" && !infra) throw new Error("distributed mode needs Postgres and NATS");
  const deployment = infra
    ? await startDistributed(infra, { env, nodeArgs, compiled: true })
    : await startStandalone(undefined, { env, nodeArgs, compiled: true });
  // "start" profiles the start alone: every sample up to the stop counts.
  let measured: Measured = { startedAt: 0, endedAt: Date.now() };
  let entries = new Map<number, string>();
  try {
    if (load !== "start") measured = await drive(deployment);
    entries = await entriesOf(deployment.pid);
  } finally {
    await deployment.destroy();
    await infra?.close();
  }
  // The processes exited moments ago; only the samples of the measured load count.
  const exitedAt = Date.now();
  const window = {
    fromUs: (exitedAt - measured.startedAt) * 1000,
    toUs: (exitedAt - measured.endedAt) * 1000,
  };
  const profiles = (await readdir(dir)).filter((name) => name.endsWith(".cpuprofile"));
  const summaries = await Promise.all(
    profiles.map(async (name) => ({
      name,
      ...summarise(JSON.parse(await readFile(join(dir, name), "utf8")) as CpuProfile, window),
    })),
  );
  for (const summary of summaries.sort((a, b) => b.totalMs - a.totalMs).slice(0, 6)) {
    const perRequest = measured.requests
      ? ` (${(summary.totalMs / measured.requests).toFixed(2)} ms a request answered)`
      : "";
    const pid = Number(summary.name.split(".")[3]);
    console.log(
      `\n${summary.name} (${entries.get(pid) ?? "ended"}): ${Math.round(summary.totalMs)} ms busy${perRequest}`,
    );
    for (const [owner, ms] of summary.owners)
      console.log(`  ${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)} %  ${owner}`);
    console.log("  hottest functions (self time):");
    for (const [name, ms] of summary.hottest)
      console.log(`  ${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
  console.log(`\nprofiles in ${dir}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
