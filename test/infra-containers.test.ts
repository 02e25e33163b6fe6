/**
 * The distributed suites' containers path, run for real wherever podman is (under CI, its absence
 * fails the run): PostgreSQL and NATS JetStream from the images test/containers builds out of
 * Debian's packages, on podman's API, with a distributed deployment against them; then the
 * containers gone once the suite closes them, and gone too when whatever started the engine dies.
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import pg from "pg";
import {
  type InfraContainers,
  podmanPresent,
  RUN_LABEL,
  TEST_CONTAINERS,
} from "./support/container-infra.js";
import { type Deployment, startDistributed } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { containerInfra, unavailable, uniqueName } from "./support/infra.js";
import { createTwoRoleTemplate, sendFromTwoRoleTemplate } from "./support/templates.js";

const infra = podmanPresent()
  ? await containerInfra()
  : unavailable(
      "the containers path is tested with podman, and there is none",
      "Install podman, as root, with the packages deploy/docker/node-base.sh names.",
    );
const suite = infra ? describe : describe.skip;

const run = promisify(execFile);

/** Whether podman still has the container (`podman container exists` ends with 1 when it has not). */
async function containerExists(id: string): Promise<boolean> {
  try {
    await run("podman", ["container", "exists", id]);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 1) return false;
    throw error;
  }
}

suite("distributed suites' infrastructure from containers", () => {
  // Where infra is undefined the suite is skipped: no test or hook below runs.
  const containers = infra as InfraContainers;
  let deployment: Deployment;
  let api: string;
  let key: string;

  beforeAll(async () => {
    deployment = await startDistributed(containers);
    api = `${deployment.gateways[0]}/api/v1`;
    key = (
      JSON.parse((await deployment.cli("keys", "create", "--name", "containers")).stdout) as {
        secret: string;
      }
    ).secret;
  }, 180_000);
  let closed = false;
  afterAll(async () => {
    if (closed) return;
    await deployment?.destroy();
    await containers.close();
  });

  test("the servers are Debian's, in containers, not the machine's", async () => {
    const { postgresUrl, natsUrl } = containers;
    expect(new URL(postgresUrl).port).not.toBe("5432");
    expect(new URL(natsUrl).port).not.toBe("4222");
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string }>("SELECT version()");
      expect(rows[0]?.version).toMatch(/^PostgreSQL 15\.\d+ \(Debian /);
    } finally {
      await client.end();
    }
  });

  test("a deployment on them answers: health, a template, a request sent from it, its event in JetStream", async () => {
    for (const gateway of deployment.gateways) expect((await call(gateway, "/healthz")).status).toBe(200);
    const templateId = await createTwoRoleTemplate(api, key);
    const sent = await sendFromTwoRoleTemplate(api, key, templateId);
    expect(sent.status).toBe(201);
    expect(
      (await call(api, `/signature-requests/${(sent.body as { id: string }).id}`, { key })).body,
    ).toMatchObject({
      templateId,
      status: "sent",
    });

    const nc = await connect({ servers: containers.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      const subjects = await eventually(async () => {
        const info = await jsm.streams.info(`${deployment.namespace}_events`, { subjects_filter: ">" });
        const names = Object.keys(info.state.subjects ?? {});
        return names.some((s) => s.endsWith("templates.template_changed")) ? names : undefined;
      });
      expect(subjects.length).toBeGreaterThan(0);
    } finally {
      await nc.close();
    }
  });

  test("the engine removes its run's containers when whatever holds it open ends, SIGKILL included", async () => {
    const dir = await mkdtemp(join(tmpdir(), "countersign-podman-"));
    const label = uniqueName("orphan");
    // The engine's input is the only pipe it listens on: held by a process killed below, as a jest
    // worker killed mid-suite would be.
    const holder = spawn("sleep", ["600"], { stdio: ["ignore", "pipe", "ignore"] });
    const engine = spawn(join(TEST_CONTAINERS, "podman-engine.sh"), [join(dir, "podman.sock"), label], {
      stdio: [holder.stdout, "pipe", "inherit"],
    });
    try {
      const [ready] = (await once(engine.stdout, "data")) as [Buffer];
      expect(ready.toString()).toContain("ready");
      const created = await run("podman", [
        "create",
        "--label",
        `${RUN_LABEL}=${label}`,
        containers.images.nats,
      ]);
      const id = created.stdout.trim();
      expect(await containerExists(id)).toBe(true);

      holder.kill("SIGKILL");
      await once(engine, "exit");
      expect(await containerExists(id)).toBe(false);
    } finally {
      holder.kill("SIGKILL");
      engine.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("closing removes the containers", async () => {
    closed = true;
    await deployment.destroy();
    await containers.close();
    for (const id of containers.containerIds) expect(await containerExists(id)).toBe(false);
  });
});
