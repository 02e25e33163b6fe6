/**
 * PostgreSQL and NATS JetStream in containers for the distributed-mode suites, started with
 * testcontainers. Where podman is, from the images test/containers/build-images.sh builds out of
 * Debian's packages (once, then cached), on podman's Docker-compatible API served for this process
 * alone by test/containers/podman-engine.sh — which removes the containers when the process ends,
 * however it ends, so testcontainers' reaper (an image from a registry) stays off. Elsewhere, on the
 * engine testcontainers finds itself (DOCKER_HOST, Docker's socket), the official images.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const TEST_CONTAINERS = fileURLToPath(new URL("../containers/", import.meta.url));
/** The label podman-engine.sh removes a run's containers by. */
export const RUN_LABEL = "countersign.test-run";

export interface InfraContainers {
  postgresUrl: string;
  natsUrl: string;
  /** The images the containers run. */
  images: Images;
  /** The containers' ids, for a test that they are gone after close(). */
  containerIds: string[];
  /** Stops and removes the containers, and stops the engine started for them. */
  close(): Promise<void>;
}

function succeeds(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export const podmanPresent = () => succeeds("podman", ["--version"]);

/** podman, or a Docker engine that answers. */
export const containerEngineAvailable = () => podmanPresent() || succeeds("docker", ["info"]);

/** Runs a command and answers its output; what it says on stderr goes to this process's stderr. */
async function output(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} ended with ${code}`);
  return text;
}

interface Images {
  postgres: string;
  nats: string;
}

async function imageNames(podman: boolean): Promise<Images> {
  if (!podman) return { postgres: "postgres:16-alpine", nats: "nats:2" };
  const printed = await output(join(TEST_CONTAINERS, "build-images.sh"), []);
  const postgres = /^postgres=(.+)$/m.exec(printed)?.[1];
  const nats = /^nats=(.+)$/m.exec(printed)?.[1];
  if (!postgres || !nats) throw new Error(`build-images.sh printed no image names: ${printed}`);
  return { postgres, nats };
}

/** podman's API on a socket of its own, pointed to by DOCKER_HOST, until close() or this process ends. */
async function startPodmanEngine(run: string): Promise<{ close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-podman-"));
  const socket = join(dir, "podman.sock");
  // A process group of its own: a Ctrl-C meant for jest must not stop it before it has cleaned up.
  const engine = spawn(join(TEST_CONTAINERS, "podman-engine.sh"), [socket, run], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let said = "";
  const ready = new Promise<boolean>((resolve) => {
    engine.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("ready")) resolve(true);
    });
    engine.stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString("utf8");
    });
    engine.once("exit", () => resolve(false));
    setTimeout(() => resolve(false), 60_000).unref();
  });
  const close = async () => {
    if (engine.exitCode === null && engine.signalCode === null) {
      const exited = once(engine, "exit");
      engine.stdin.end();
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  if (!(await ready)) {
    await close();
    throw new Error(`podman's API did not start within a minute: ${said.trim()}`);
  }
  process.env.DOCKER_HOST = `unix://${socket}`;
  process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
  return { close };
}

/** The two servers, each in a container of its own, once each has said it is ready. */
export async function startInfraContainers(): Promise<InfraContainers> {
  const podman = podmanPresent();
  const images = await imageNames(podman);
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const engine = podman ? await startPodmanEngine(run) : undefined;
  try {
    const { GenericContainer, Wait } = await import("testcontainers");
    const labels = { [RUN_LABEL]: run };
    // The official image logs "ready" a first time from the server that initialises its data, which
    // listens on no port: the caller waits for the servers to answer, too.
    const [postgres, nats] = await Promise.all([
      new GenericContainer(images.postgres)
        // What the official image needs to trust connections; ours trusts every one already.
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
        .withExposedPorts(5432)
        .withLabels(labels)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/))
        .start(),
      new GenericContainer(images.nats)
        .withCommand(["-js"])
        .withExposedPorts(4222)
        .withLabels(labels)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start(),
    ]);
    return {
      postgresUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
      natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
      images,
      containerIds: [postgres.getId(), nats.getId()],
      close: async () => {
        await Promise.all([postgres.stop(), nats.stop()]);
        await engine?.close();
      },
    };
  } catch (error) {
    // The engine removes whatever of the run had started.
    await engine?.close();
    throw error;
  }
}
