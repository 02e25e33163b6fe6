/**
 * The development overlay as a cluster runs it: deploy/overlays/dev rendered by kustomize, and
 * every Deployment of Countersign's images started from the images built from this tree
 * (deploy/docker/build-images.sh), each container exactly as rendered (rendered-pods.ts): command,
 * environment from its Secrets and ConfigMaps, user, read-only root, volumes, memory limit. The
 * overlay's third-party dependencies are the machine's: PostgreSQL and NATS through relays, an S3
 * server and an SMTP server, each answering on the containers' network under its Service's name.
 * Then one flow through the gateway container, as an operator and an integrator meet it: a key made
 * by the ops CLI inside the gateway container (as `kubectl exec` runs it), a template, a request, both
 * signers through the signing page's API, a sealed PDF that pdfsig calls valid, and a DOCX the
 * converter container turns into a PDF. A manifest that does not fit the image — a file missing, a
 * variable the process needs, a write outside its volumes — stops a component, and the suite says which.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import yaml from "js-yaml";
import pg from "pg";
import { startLocalS3 } from "../deploy/local/src/local-s3.js";
import { ENGINE_FLAGS, IMAGES, imagesBuilt, podman } from "./support/built-images.js";
import { REPO } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { deleteStream, uniqueName } from "./support/infra.js";
import { makeDocx } from "./support/office-documents.js";
import { pdfsig } from "./support/pdf-tools.js";
import {
  bytesOf,
  ConfigSources,
  type Container,
  type KubeObject,
  podmanRuns,
  selects,
} from "./support/rendered-pods.js";
import { SignerBrowser } from "./support/signer-browser.js";
import { startSmtpPeer } from "./support/smtp-peer.js";
import { createTwoRoleTemplate, sendFromTwoRoleTemplate } from "./support/templates.js";

const run = promisify(execFile);

const objects = (() => {
  const rendered = execFileSync("kubectl", ["kustomize", join(REPO, "deploy/overlays/dev")], {
    encoding: "utf8",
  });
  return yaml.loadAll(rendered) as KubeObject[];
})();
const sources = new ConfigSources(objects);
/** The Deployments that run Countersign's images: what this suite starts. */
const ours = objects.filter(
  (o) =>
    o.kind === "Deployment" &&
    o.spec?.template?.spec.containers.some((c) => c.image.startsWith("ghcr.io/countersign/")),
);
const podOf = (name: string) => {
  const found = ours.find((o) => o.metadata.name === name)?.spec?.template;
  if (!found) throw new Error(`the overlay has no Deployment ${name}`);
  return found;
};
/** The first container of a Deployment's pod: the component itself. */
const componentOf = (name: string): Container => {
  const [container] = podOf(name).spec.containers;
  if (!container) throw new Error(`the Deployment ${name} has no container`);
  return container;
};
const services = objects.filter((o) => o.kind === "Service");

const suite = imagesBuilt("the dev overlay as containers") ? describe : describe.skip;

/**
 * A TCP relay from the containers' network to a service of the machine's loopback. Closing it ends
 * its connections too: a container removed takes its end away without a word, and a server waits
 * for every connection to end before it closes.
 */
async function relay(host: string, port: number, to: number): Promise<() => Promise<void>> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    const upstream = tcpConnect(to, "127.0.0.1");
    for (const end of [socket, upstream]) {
      open.add(end);
      end.on("close", () => open.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const end of open) end.destroy();
    });
}

suite("the dev overlay, every component a container as rendered", () => {
  const prefix = uniqueName("csdev");
  const network = prefix;
  const volumes = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const closers: (() => Promise<unknown>)[] = [];
  const containers: string[] = [];
  let gateway = "";
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let key = "";

  /** Each container that ended, with the last lines it wrote: why a component did not come up. */
  async function ended(): Promise<string[]> {
    const states = await Promise.all(
      containers.map(async (name) => ({
        name,
        status: await podman("inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name).catch(
          async (err: Error) => {
            const all = await podman("ps", "--all", "--format", "{{.Names}} {{.Status}}");
            throw new Error(`${name} is gone: ${err.message}\npodman ps --all:\n${all}`);
          },
        ),
      })),
    );
    return Promise.all(
      states
        .filter(({ status }) => !status.startsWith("running"))
        .map(async ({ name, status }) => {
          const { stdout, stderr } = await run("podman", ["logs", "--tail", "15", name]);
          return `${name} ${status}:\n${stdout}${stderr}`;
        }),
    );
  }

  beforeAll(async () => {
    await podman("network", "create", network);
    // The network's bridge exists once a container is on it: the host's peers listen on its gateway.
    const anchor = `${prefix}-anchor`;
    await podman(
      ...["run", "--detach", "--name", anchor, ...ENGINE_FLAGS, "--network", network],
      ...["--entrypoint", '["sleep"]'],
      ...[IMAGES.countersign, "infinity"],
    );
    containers.push(anchor);
    const host = await podman(
      "network",
      "inspect",
      network,
      "--format",
      "{{range .Subnets}}{{.Gateway}}{{end}}",
    );

    // The overlay's dependencies, each under its Service's name and port.
    const documentsEnv = sources.environment(componentOf("documents"));
    const s3 = await startLocalS3(join(volumes, "s3"), {
      host,
      port: 9000,
      credentials: {
        accessKey: documentsEnv.S3_ACCESS_KEY ?? "",
        secretKey: documentsEnv.S3_SECRET_KEY ?? "",
      },
    });
    smtp = await startSmtpPeer({ host, port: 1025 });
    const relays = [await relay(host, 5432, 5432), await relay(host, 4222, 4222)];
    closers.push(
      () => s3.close(),
      () => smtp.close(),
      ...relays,
    );
    const peers: Record<string, string> = { postgres: host, nats: host, minio: host, mailpit: host };

    // Every Service the overlay has is either one of the pods run here or one of those peers.
    const started = ours.map((o) => o.metadata.name);
    const unserved = services
      .map((s) => s.metadata.name)
      .filter(
        (name) =>
          !(name in peers) &&
          !ours.some((o) =>
            selects(
              services.find((s) => s.metadata.name === name)?.spec?.selector,
              o.spec?.template?.metadata.labels,
            ),
          ),
      );
    expect(unserved).toEqual([]);

    // A fresh start: the databases the overlay's PostgreSQL makes, and no events of an earlier run.
    const init = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === "postgres-init")?.data?.[
      "init.sql"
    ];
    const databases = [...(init ?? "").matchAll(/CREATE DATABASE (\w+);/g)].map((m) => m[1] as string);
    expect(databases.length).toBeGreaterThanOrEqual(5);
    const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres" });
    await admin.connect();
    for (const name of databases) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
    }
    await admin.end();
    await deleteStream(
      "nats://127.0.0.1:4222",
      `${sources.resolve("configMap", { name: "countersign-config", key: "NATS_NAMESPACE" })}_events`,
    );

    // One after another: podman 4.3 setting up several containers' networks at once is a race
    // this suite need not run (the containers wait for each other anyway, as a cluster's pods do).
    for (const name of started) {
      const pod = podOf(name);
      const runs = podmanRuns(`${prefix}-${name}`, pod.spec, sources, {
        network,
        aliases: services
          .filter((s) => selects(s.spec?.selector, pod.metadata.labels))
          .map((s) => s.metadata.name),
        hosts: peers,
        volumesIn: join(volumes, name),
        imageFor: (image) => image,
        engineFlags: ENGINE_FLAGS,
        publish: name === "gateway" ? { gateway: [8080] } : {},
      });
      for (const args of runs.init) await podman(...args);
      for (const args of runs.main) {
        await podman(...args);
        containers.push(args[args.indexOf("--name") + 1] as string);
      }
    }
    const published = await podman("port", `${prefix}-gateway-gateway`, "8080/tcp");
    gateway = `http://${published}`;
    await eventually(async () => {
      const down = await ended();
      if (down.length > 0) throw new Error(`components stopped:\n${down.join("\n")}`);
      const ready = await fetch(`${gateway}/readyz`).catch(() => undefined);
      return ready?.status === 200 ? true : undefined;
    }, 120_000);
  }, 240_000);

  afterAll(async () => {
    if (containers.length > 0) await podman("rm", "--force", "--time", "2", ...containers).catch(() => {});
    await podman("network", "rm", "--force", network).catch(() => {});
    for (const close of closers) await close().catch(() => {});
    rmSync(volumes, { recursive: true, force: true });
  }, 120_000);

  test("each component runs as uid 1000 on a read-only root, writes only its volumes, and holds the memory limit it was given", async () => {
    for (const name of ours.map((o) => o.metadata.name)) {
      const component = componentOf(name);
      const container = `${prefix}-${name}-${component.name}`;
      const limit = component.resources?.limits?.memory as string;
      const facts = await podman(
        "exec",
        container,
        "sh",
        "-c",
        "id -u; touch /app/x 2>/dev/null && echo wrote-app; touch /tmp/x && echo wrote-tmp",
      );
      expect({ name, facts: facts.split("\n") }).toEqual({ name, facts: ["1000", "wrote-tmp"] });
      expect(Number(await podman("inspect", "--format", "{{.HostConfig.Memory}}", container))).toBe(
        bytesOf(limit),
      );
    }
  }, 180_000);

  test("the ops CLI, run in the gateway container as kubectl exec runs it, makes a key that the gateway takes", async () => {
    const operator = Object.values(
      sources.secret(
        objects.find(
          (o) => o.kind === "Secret" && o.metadata.name.startsWith("countersign-identity-operator-"),
        )?.metadata.name as string,
      ),
    )[0] as string;
    const cli = (...args: string[]) =>
      podman(
        "exec",
        ...["--env", `COUNTERSIGN_SERVICE_TOKEN=${operator}`],
        `${prefix}-gateway-gateway`,
        ...["node", "--no-wasm-code-gc", "--conditions=compiled", "deploy/local/dist/cli.js", ...args],
      );
    const [workspace] = (await cli("workspaces", "list"))
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string });
    const created = JSON.parse(
      await cli("keys", "create", "--name", "containers", "--workspace", workspace?.id as string),
    ) as {
      secret: string;
    };
    key = created.secret;
    expect((await call(gateway, "/api/v1/templates", { key })).status).toBe(200);
  }, 180_000);

  test("a template, a request, both signers through the signing page's API, and a sealed PDF pdfsig calls valid", async () => {
    const api = `${gateway}/api/v1`;
    const templateId = await createTwoRoleTemplate(api, key);
    const sent = await sendFromTwoRoleTemplate(api, key, templateId);
    expect(sent.status).toBe(201);
    const request = sent.body as { id: string };
    for (const signer of ["ada@example.com", "bob@example.com"]) {
      const link = await eventually(
        async () => smtp.mails.find((mail) => mail.to === signer && mail.link)?.link,
        60_000,
      );
      const browser = new SignerBrowser(gateway);
      await browser.open(link);
      const session = (await browser.show()).body as { fields: { id: string }[] };
      const values = Object.fromEntries(session.fields.map((f) => [f.id, { kind: "typed", text: signer }]));
      expect((await browser.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
    }
    const completed = await eventually(async () => {
      const got = await call(api, `/signature-requests/${request.id}`, { key });
      return (got.body as { status: string }).status === "completed"
        ? (got.body as { signedDocumentId: string })
        : undefined;
    }, 90_000);
    const sealed = await fetch(`${api}/documents/${completed.signedDocumentId}/download`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(sealed.status).toBe(200);
    const verdict = await pdfsig(new Uint8Array(await sealed.arrayBuffer()));
    expect(verdict).toContain("Signature is Valid.");
    // The overlay's time-stamping authority, a container too, stamped it: PAdES B-LTA's document time-stamp.
    expect(verdict).toMatch(/Signature Field Name: Countersign time-stamp/);
  }, 180_000);

  test("a DOCX upload is converted by the converter container", async () => {
    const upload = await call(`${gateway}/api/v1`, "/documents/upload?filename=letter.docx", {
      key,
      method: "POST",
      body: makeDocx({ paragraphs: ["Dear Ada,", "the containers work."] }),
      headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
    });
    expect({ status: upload.status, text: upload.status === 201 ? "" : upload.text }).toEqual({
      status: 201,
      text: "",
    });
    expect(upload.body).toMatchObject({ contentType: "application/pdf", pageCount: 1 });
    const converter = await podman("logs", `${prefix}-converter-converter`);
    expect(converter).toMatch(/convert/i);
  }, 180_000);
});
