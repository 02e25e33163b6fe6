/**
 * Runs Countersign the way a user does — `standalone.ts` or the distributed launcher as child
 * processes — and gives tests its gateway URLs, a way to run the ops CLI against it, and every
 * line it logged (for the scan that no secret reached a log).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { NODE_FLAGS } from "@countersign/kit";
import { deleteStream, dropDatabases, type Infra, uniqueName } from "./infra.js";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SERVICES = ["auth", "templates", "documents", "requests", "webhooks"];
const run = promisify(execFile);

/** Lines of a deployment's output that are faults of ours: an error-level log line or an unhandled error. */
export function faultsIn(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => /Unhandled 'error' event|uncaughtException|"level":(50|60)/.test(line))
    .map((line) => line.slice(0, 1500));
}

export interface Deployment {
  mode: "standalone" | "distributed";
  /** One URL per gateway replica (standalone has one). */
  gateways: string[];
  dataDir: string;
  /** The process at the root of the deployment (the launcher, in distributed mode). */
  pid: number;
  /** The NATS namespace its events are published under (distributed mode). */
  namespace?: string;
  /** What each service's database name starts with (distributed mode). */
  databasePrefix?: string;
  adminEmail: string;
  adminPassword: string;
  /** Everything the processes wrote to stdout and stderr so far. */
  output(): string;
  cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  /** Stops the processes with SIGTERM (the data stays: restart tests start again on it); the exit code. */
  stop(): Promise<number | null>;
  /** Stops and removes everything the deployment created. */
  destroy(): Promise<void>;
}

export class OwnedProcess {
  private text = "";
  private readonly exited: Promise<number | null>;

  /** With a log file the process writes there itself, costing this process nothing (benchmarks). */
  constructor(
    readonly child: ChildProcess,
    private readonly logFile?: string,
  ) {
    child.stdout?.on("data", (chunk: Buffer) => {
      this.text += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.text += chunk.toString("utf8");
    });
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  static start(
    entry: string,
    env: Record<string, string>,
    logFile?: string,
    args: string[] = [],
    nodeArgs: string[] = [],
  ): OwnedProcess {
    const log = logFile ? openSync(logFile, "a") : undefined;
    // TypeScript runs through tsx; `npm run build:server`'s JavaScript resolves the workspaces to theirs.
    const loader = entry.endsWith(".js") ? ["--conditions=compiled"] : ["--import", "tsx"];
    const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, ...loader, entry, ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ["ignore", log ?? "pipe", log ?? "pipe"],
    });
    if (log !== undefined) closeSync(log);
    return new OwnedProcess(child, logFile);
  }

  get output(): string {
    return this.logFile ? readFileSync(this.logFile, "utf8") : this.text;
  }

  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (this.child.exitCode !== null)
        throw new Error(`process exited (${this.child.exitCode}):\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Resolves with the exit code once the process ends by itself. */
  exit(): Promise<number | null> {
    return this.exited;
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }
}

async function runCli(env: Record<string, string>, args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...NODE_FLAGS, "--conditions=compiled", "deploy/local/dist/cli.js", ...args],
      {
        cwd: REPO,
        env: { ...process.env, ...env },
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const failed = err as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

const ADMIN = { adminEmail: "admin@example.com", adminPassword: "correct-horse-battery-staple" };

/** Waits for the ready line; a start that fails leaves no process (and, given cleanUp, no data) behind. */
async function readyOrStopped(
  proc: OwnedProcess,
  pattern: RegExp,
  timeoutMs?: number,
  cleanUp: () => Promise<void> = async () => {},
): Promise<RegExpMatchArray> {
  try {
    return await proc.waitFor(pattern, timeoutMs);
  } catch (err) {
    await proc.stop();
    await cleanUp().catch(() => {});
    throw err;
  }
}

/** What both modes share: one process tree, its data dir, the CLI pointed at it. */
function deployment(
  mode: Deployment["mode"],
  proc: OwnedProcess,
  dataDir: string,
  gateways: string[],
  removeInfrastructure: () => Promise<void> = async () => {},
): Deployment {
  return {
    mode,
    gateways,
    dataDir,
    pid: proc.child.pid as number,
    ...ADMIN,
    output: () => proc.output,
    cli: (...args) => runCli({ COUNTERSIGN_DATA_DIR: dataDir }, args),
    stop: () => proc.stop(),
    destroy: async () => {
      await proc.stop();
      await removeInfrastructure();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Where the processes write their output instead of a pipe to this process. */
  logFile?: string;
  /** Command-line arguments of the launcher, such as `--replicas requests=2`. */
  args?: string[];
  /** Node's own flags, such as `--cpu-prof` (in distributed mode the launcher passes them on). */
  nodeArgs?: string[];
  /**
   * Runs `npm run build:server`'s JavaScript, as `npm start` and the image do (the default; jest's
   * global set-up builds it), or with false the sources through tsx, which compiled every module
   * again in each of a deployment's processes.
   */
  compiled?: boolean;
}

export async function startStandalone(dataDir?: string, options: StartOptions = {}): Promise<Deployment> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), "countersign-standalone-")));
  const proc = OwnedProcess.start(
    options.compiled === false ? "deploy/local/src/standalone.ts" : "deploy/local/dist/standalone.js",
    {
      PORT: "0",
      COUNTERSIGN_DATA_DIR: dir,
      COUNTERSIGN_ADMIN_EMAIL: ADMIN.adminEmail,
      COUNTERSIGN_ADMIN_PASSWORD: ADMIN.adminPassword,
      LOG_LEVEL: "debug",
      ...options.env,
    },
    options.logFile,
    [],
    // As `npm start` runs it.
    ["--expose-gc", ...(options.nodeArgs ?? [])],
  );
  const [ready] = await readyOrStopped(proc, /\{[^\n]*"msg":"Countersign is ready \(standalone\)"\}/);
  return deployment("standalone", proc, dir, [(JSON.parse(ready) as { url: string }).url]);
}

export async function startDistributed(infra: Infra, options: StartOptions = {}): Promise<Deployment> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-distributed-"));
  const namespace = uniqueName("t");
  const dbPrefix = `${uniqueName("cs")}_`;
  const proc = OwnedProcess.start(
    options.compiled === false ? "deploy/local/src/distributed.ts" : "deploy/local/dist/distributed.js",
    {
      PORT: "0",
      COUNTERSIGN_DATA_DIR: dir,
      POSTGRES_URL: infra.postgresUrl,
      NATS_URL: infra.natsUrl,
      NATS_NAMESPACE: namespace,
      COUNTERSIGN_DB_PREFIX: dbPrefix,
      COUNTERSIGN_ADMIN_EMAIL: ADMIN.adminEmail,
      COUNTERSIGN_ADMIN_PASSWORD: ADMIN.adminPassword,
      LOG_LEVEL: "debug",
      ...options.env,
    },
    options.logFile,
    options.args,
    options.nodeArgs,
  );
  const removeInfrastructure = async () => {
    await dropDatabases(
      infra.postgresUrl,
      SERVICES.map((s) => `${dbPrefix}${s}`),
    );
    await deleteStream(infra.natsUrl, `${namespace}_events`);
  };
  await readyOrStopped(proc, /"msg":"Countersign is ready \(distributed\)"/, 120_000, removeInfrastructure);
  const { gateways } = JSON.parse(await readFile(join(dir, "distributed.json"), "utf8")) as {
    gateways: string[];
  };
  return {
    ...deployment("distributed", proc, dir, gateways, removeInfrastructure),
    namespace,
    databasePrefix: dbPrefix,
  };
}
