/**
 * Dependencies a test owns so that it can take them away: a NATS JetStream server and an S3
 * endpoint, each a process on a fixed loopback port that is killed and started again on the same
 * port and data, as a restarted pod would be.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./deployments.js";

const NATS_SERVER = "/usr/sbin/nats-server";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function listening(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A process that can be killed and started again with the same command. */
export class RestartablePeer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly url: string,
    readonly port: number,
    private readonly command: string,
    private readonly args: string[],
    private readonly dataDir: string,
  ) {}

  static async nats(): Promise<RestartablePeer> {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), "countersign-nats-"));
    const peer = new RestartablePeer(
      `nats://127.0.0.1:${port}`,
      port,
      NATS_SERVER,
      ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir],
      dir,
    );
    await peer.start();
    return peer;
  }

  static async s3(): Promise<RestartablePeer> {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), "countersign-s3-"));
    const peer = new RestartablePeer(
      `http://127.0.0.1:${port}`,
      port,
      process.execPath,
      ["--import", "tsx", join(REPO, "test/support/s3-process.ts"), dir, String(port)],
      dir,
    );
    await peer.start();
    return peer;
  }

  async start(): Promise<void> {
    this.child = spawn(this.command, this.args, { cwd: REPO, stdio: "ignore" });
    await listening(this.port);
  }

  /** SIGKILL: no goodbye to the clients, as a crashed node gives none. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async destroy(): Promise<void> {
    await this.kill();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
