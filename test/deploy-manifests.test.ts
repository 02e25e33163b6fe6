/**
 * The Kubernetes manifests agree with the code: one Deployment per service and the gateway, each
 * running an entry point that exists, probed the way it can answer, locked down, and listed in the
 * base kustomization. Each overlay, rendered by kustomize (built into kubectl), is valid against
 * the Kubernetes schemas (kubernetes-models, offline), its selectors select, its probes ask ports
 * that exist, its network policies match the calls the code makes, and every variable a component
 * requires is set.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { BlockList, isIPv4 } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CALLERS } from "@countersign/domain";
import { NODE_FLAGS, parseCallers, tokenDigest } from "@countersign/kit";
import yaml from "js-yaml";
import type { z } from "zod";
import { GATEWAY_HEAP_MB, UPLOAD_READER_NODE_FLAGS } from "../deploy/local/src/pod-resources.js";
import { REPO } from "./support/deployments.js";

interface Container {
  command: string[];
  ports: { name: string; containerPort: number }[];
  readinessProbe: { grpc?: { port: number }; httpGet?: { path: string; port: string } };
  livenessProbe: { grpc?: { port: number; service?: string } };
  securityContext: {
    readOnlyRootFilesystem: boolean;
    allowPrivilegeEscalation: boolean;
    capabilities: { drop: string[] };
  };
  env: { name: string; value?: string }[];
  resources: { limits: { memory: string } };
  volumeMounts: { mountPath: string; readOnly?: boolean }[];
}

interface Deployment {
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  spec: { template: { spec: { securityContext: { runAsNonRoot: boolean }; containers: Container[] } } };
}

const base = join(REPO, "deploy/base");
const load = <T>(path: string) => yaml.load(readFileSync(path, "utf8")) as T;
const services = readdirSync(join(REPO, "services"))
  .filter((name) => name !== "kit" && name !== "domain")
  .sort();
/** Components that run a service's code in a role of their own, and the service. */
const ROLES: Record<string, string> = { "requests-sealer": "requests", converter: "documents" };
const components = [...services, ...Object.keys(ROLES), "gateway"];
/** The service whose code a component runs (and whose database it opens). */
const serviceOf = (component: string) => ROLES[component] ?? component;
/** Components that answer calls, each behind a Service of its own. */
const answering = [...services, "converter"];
/** Components with no database: the gateway, and the converter, which keeps nothing. */
const withoutDatabase = ["gateway", "converter"];
/** Components that call out over https, and to what: each must reach an address on the internet on TCP 443. */
const OUTBOUND_HTTPS: Record<string, string> = {
  auth: "a workspace's single sign-on provider (OpenID Connect discovery, token and keys)",
  webhooks: "customers' webhook endpoints",
  "requests-sealer": "the time-stamping authority, OCSP responders and CRLs",
  documents: "a cloud object store",
  gateway: "a cloud object store, for downloads by presigned URL",
};
/** Of those, the ones a workspace points somewhere: never at a private, link-local or metadata address. */
const WORKSPACE_CHOSEN = ["auth", "webhooks"];
/** Each component's entry point, in the repository. */
const entryOf = (component: string) =>
  component === "gateway"
    ? "gateway/src/server.ts"
    : component === "converter"
      ? "services/documents/src/converter-server.ts"
      : `services/${serviceOf(component)}/src/server.ts`;

test("the package's scripts that run Countersign, and the image, start Node with the flags every process needs", () => {
  const { scripts } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const running = [
    "start",
    "start:distributed",
    "cli",
    "prepare:database",
    "test",
    "test:chaos",
    "fuzz",
    "bench",
  ];
  for (const name of running)
    expect([name, scripts[name]]).toEqual([name, expect.stringMatching(/\b(node|tsx) --no-wasm-code-gc /)]);
  expect(NODE_FLAGS).toEqual(["--no-wasm-code-gc"]);
  const image = readFileSync(join(REPO, "deploy/docker/Dockerfile"), "utf8");
  expect(JSON.parse((image.match(/^CMD (.+)$/m) as RegExpMatchArray)[1] as string)).toEqual(
    expect.arrayContaining(NODE_FLAGS),
  );
});

test("the base lists every component, each with deployment, service (but a role that answers no calls), hpa, pdb, account and policy", () => {
  const { resources } = load<{ resources: string[] }>(join(base, "kustomization.yaml"));
  expect(resources.filter((r) => !r.endsWith(".yaml")).sort()).toEqual([...components].sort());
  for (const component of components) {
    expect(
      load<{ resources: string[] }>(join(base, component, "kustomization.yaml")).resources.sort(),
    ).toEqual(
      [
        "deployment.yaml",
        "hpa.yaml",
        "network-policy.yaml",
        "pdb.yaml",
        ...(answering.includes(component) || component === "gateway" ? ["service.yaml"] : []),
        "serviceaccount.yaml",
      ].sort(),
    );
  }
});

describe.each(components)("%s", (component) => {
  const deployment = load<Deployment>(join(base, component, "deployment.yaml"));
  const container = deployment.spec.template.spec.containers[0] as Container;

  test("runs the JavaScript `npm run build:server` makes of an entry point in the repository", () => {
    const entry = container.command.at(-1) as string;
    const otherFlags = [...NODE_FLAGS, ...UPLOAD_READER_NODE_FLAGS];
    expect(container.command.filter((arg) => !otherFlags.includes(arg)).slice(0, 2)).toEqual([
      "node",
      "--conditions=compiled",
    ]);
    expect(entry).toBe(entryOf(component).replace("/src/", "/dist/").replace(/\.ts$/, ".js"));
    expect(existsSync(join(REPO, entry.replace("/dist/", "/src/").replace(/\.js$/, ".ts")))).toBe(true);
  });

  test("is probed the way it answers: gRPC health for services (liveness apart), HTTP for the gateway", () => {
    if (component === "gateway") expect(container.readinessProbe.httpGet?.path).toBe("/readyz");
    else {
      expect(container.readinessProbe.grpc?.port).toBe(8080);
      expect(container.livenessProbe.grpc).toEqual({ port: 8080, service: "liveness" });
    }
  });

  test("runs as non-root, read-only, with no capabilities, writing only to /tmp (other mounts read-only)", () => {
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(container.securityContext.capabilities.drop).toEqual(["ALL"]);
    expect(container.volumeMounts.filter((m) => !m.readOnly).map((m) => m.mountPath)).toEqual(["/tmp"]);
  });

  test("a component that calls others has a token of its own, from a Secret no other component mounts; a service has its own database", () => {
    const names = container.env.map((e) => e.name);
    const token = container.env.find((e) => e.name === "COUNTERSIGN_SERVICE_TOKEN") as
      | { valueFrom?: { secretKeyRef?: { name: string } } }
      | undefined;
    const calls = ["gateway", "templates", "documents", "requests", "requests-sealer"].includes(component);
    expect([component, token?.valueFrom?.secretKeyRef?.name]).toEqual([
      component,
      calls ? `countersign-identity-${component}` : undefined,
    ]);
    if (!withoutDatabase.includes(component))
      expect(names).toContain(`${serviceOf(component).toUpperCase()}_DATABASE_URL`);
  });
});

/** One object of a rendered overlay, as `kubectl kustomize` prints it. */
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: each kind is read by the checks that know its shape
  spec?: any;
  data?: Record<string, string>;
}

interface PodSpec {
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string }[] } }[];
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  initContainers?: RenderedContainer[];
  containers: RenderedContainer[];
}

interface Probe {
  grpc?: { port: number };
  httpGet?: { port: string | number };
  exec?: unknown;
}

interface RenderedContainer {
  name: string;
  image?: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}

/** The overlay as Kubernetes would receive it; kustomize is built into kubectl. */
function render(overlay: string): Manifest[] {
  const text = execFileSync("kubectl", ["kustomize", join(REPO, "deploy/overlays", overlay)], {
    encoding: "utf8",
  });
  return yaml.loadAll(text) as Manifest[];
}

/** The model class kubernetes-models has for an object's apiVersion and kind. */
async function modelFor(manifest: Manifest): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = manifest.apiVersion.includes("/")
    ? manifest.apiVersion.split("/")
    : ["", manifest.apiVersion];
  const path = group
    ? `kubernetes-models/${group}/${version}/${manifest.kind}`
    : `kubernetes-models/${version}/${manifest.kind}`;
  const module = (await import(path)) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = module[manifest.kind];
  if (!model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  return model;
}

/**
 * The object as the API server reads it: kustomize wraps a long Secret value over lines, and the
 * server's base64 decoder skips line breaks (Go's encoding/base64), which the schema's format does not.
 */
function asReceived(manifest: Manifest): Manifest {
  if (manifest.kind !== "Secret" || !manifest.data) return manifest;
  const data = Object.fromEntries(
    Object.entries(manifest.data).map(([key, value]) => [key, value.replace(/[\r\n]/g, "")]),
  );
  return { ...manifest, data };
}

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** Whether a label selector (matchLabels and In/NotIn expressions) selects pods of these labels. */
function selects(
  selector: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: "In" | "NotIn"; values: string[] }[];
  },
  labels: Record<string, string>,
): boolean {
  return (
    matches(selector.matchLabels ?? {}, labels) &&
    (selector.matchExpressions ?? []).every(
      ({ key, operator, values }) => values.includes(labels[key] ?? "") === (operator === "In"),
    )
  );
}

describe.each(["dev", "prod"])("the %s overlay, rendered", (overlay) => {
  const objects = render(overlay);
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const workloads = [...ofKind("Deployment"), ...ofKind("StatefulSet")];
  const podLabels = (w: Manifest) => w.spec.template.metadata.labels as Record<string, string>;
  const podSpec = (w: Manifest) => w.spec.template.spec as PodSpec;
  const byName = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);
  const countersign = (kind: string) => ofKind(kind).filter((o) => components.includes(o.metadata.name));

  test("every object is valid against the Kubernetes schemas", async () => {
    const invalid: string[] = [];
    for (const manifest of objects) {
      try {
        new (await modelFor(manifest))(asReceived(manifest)).validate();
      } catch (err) {
        invalid.push(`${manifest.kind}/${manifest.metadata.name}: ${(err as Error).message}`);
      }
    }
    expect(invalid).toEqual([]);
  });

  test("selectors select: Services, PDBs and policies find their pods, HPAs their Deployments", () => {
    for (const service of ofKind("Service")) {
      const selected = workloads.filter((w) => matches(service.spec.selector, podLabels(w)));
      expect([service.metadata.name, selected.length]).toEqual([service.metadata.name, 1]);
      const ports = podSpec(selected[0] as Manifest).containers.flatMap((c) => c.ports ?? []);
      for (const port of service.spec.ports as { targetPort: string | number }[]) {
        expect(ports.some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)).toBe(
          true,
        );
      }
    }
    for (const workload of workloads) {
      expect(matches(workload.spec.selector.matchLabels, podLabels(workload))).toBe(true);
      if (workload.kind === "StatefulSet")
        expect(byName("Service", workload.spec.serviceName)?.spec.clusterIP).toBe("None");
    }
    for (const pdb of ofKind("PodDisruptionBudget")) {
      expect(workloads.filter((w) => matches(pdb.spec.selector.matchLabels, podLabels(w)))).toHaveLength(1);
    }
    for (const hpa of ofKind("HorizontalPodAutoscaler")) {
      expect(byName(hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name)).toBeDefined();
    }
    for (const policy of ofKind("NetworkPolicy")) {
      const selector = policy.spec.podSelector.matchLabels ?? {};
      if (Object.keys(selector).length > 0) {
        expect([policy.metadata.name, workloads.some((w) => matches(selector, podLabels(w)))]).toEqual([
          policy.metadata.name,
          true,
        ]);
      }
      const peers = [
        ...(policy.spec.ingress ?? []).flatMap((r: { from?: unknown[] }) => r.from ?? []),
        ...(policy.spec.egress ?? []).flatMap((r: { to?: unknown[] }) => r.to ?? []),
      ] as {
        podSelector?: { matchLabels?: Record<string, string> };
        namespaceSelector?: unknown;
      }[];
      for (const peer of peers) {
        // A peer in another namespace (the ingress controller, DNS, Prometheus) is not ours to check.
        if (!peer.podSelector?.matchLabels || peer.namespaceSelector) continue;
        expect(workloads.some((w) => matches(peer.podSelector?.matchLabels ?? {}, podLabels(w)))).toBe(true);
      }
    }
  });

  test("every container of the Countersign image runs an entry point the build makes, with the Node flags every process needs", () => {
    for (const workload of workloads) {
      const spec = podSpec(workload);
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        if (!container.image?.startsWith("ghcr.io/countersign/countersign")) continue;
        const entry = (container.command ?? []).find((arg) => arg.endsWith(".js")) as string;
        expect([workload.metadata.name, container.command]).toEqual([
          workload.metadata.name,
          expect.arrayContaining(NODE_FLAGS),
        ]);
        expect([workload.metadata.name, entry]).toEqual([
          workload.metadata.name,
          expect.stringMatching(/\/dist\//),
        ]);
        expect([
          entry,
          existsSync(join(REPO, entry.replace("/dist/", "/src/").replace(/\.js$/, ".ts"))),
        ]).toEqual([entry, true]);
      }
    }
  });

  test("every probe asks a port its container has", () => {
    for (const workload of workloads) {
      for (const container of podSpec(workload).containers) {
        const ports = container.ports ?? [];
        for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
          if (!probe || probe.exec) continue;
          const port = probe.grpc?.port ?? probe.httpGet?.port;
          expect([
            workload.metadata.name,
            ports.some((p) => p.containerPort === port || p.name === port),
          ]).toEqual([workload.metadata.name, true]);
        }
      }
    }
  });

  test("each component has its own ServiceAccount, with no token mounted", () => {
    for (const deployment of countersign("Deployment")) {
      const spec = podSpec(deployment);
      expect(spec.serviceAccountName).toBe(deployment.metadata.name);
      expect(spec.automountServiceAccountToken).toBe(false);
      const account = byName("ServiceAccount", deployment.metadata.name) as Manifest & {
        automountServiceAccountToken?: boolean;
      };
      expect(account?.automountServiceAccountToken).toBe(false);
    }
  });

  test("services are headless, so that their callers see and balance over every ready pod", () => {
    for (const service of answering) expect(byName("Service", service)?.spec.clusterIP).toBe("None");
    expect(byName("Service", "gateway")?.spec.clusterIP).toBeUndefined();
  });

  test("network policies deny by default and let each service be called only by its callers", () => {
    const deny = ofKind("NetworkPolicy").find((p) => Object.keys(p.spec.podSelector).length === 0);
    expect(deny?.spec.policyTypes).toEqual(["Ingress", "Egress"]);
    // The callers of a service are the components whose Deployment names its address.
    const callersOf = (service: string) =>
      countersign("Deployment")
        .filter((d) => podSpec(d).containers[0]?.env?.some((e) => e.name === `${service.toUpperCase()}_ADDR`))
        .map((d) => d.metadata.name)
        .sort();
    for (const service of answering) {
      const policy = byName("NetworkPolicy", service) as Manifest;
      const allowed = (
        policy.spec.ingress as { from: { podSelector: { matchLabels: Record<string, string> } }[] }[]
      )
        .flatMap((rule) => rule.from)
        .map((peer) => peer.podSelector.matchLabels["app.kubernetes.io/name"])
        .sort();
      expect([service, allowed]).toEqual([service, callersOf(service)]);
      for (const caller of callersOf(service)) {
        const egress = (byName("NetworkPolicy", caller) as Manifest).spec.egress as {
          to?: { podSelector?: { matchLabels: Record<string, string> } }[];
        }[];
        const reaches = egress.some((rule) =>
          (rule.to ?? []).some((peer) => peer.podSelector?.matchLabels["app.kubernetes.io/name"] === service),
        );
        expect([caller, service, reaches]).toEqual([caller, service, true]);
      }
    }
  });

  /** Whether the policies that govern a component's pods let it open TCP `port` to `ip`, outside the cluster. */
  const reachesOutside = (component: string, ip: string, port: number) => {
    const family = isIPv4(ip) ? "ipv4" : "ipv6";
    const within = (cidr: string) => {
      const [network, bits] = cidr.split("/") as [string, string];
      if ((isIPv4(network) ? "ipv4" : "ipv6") !== family) return false;
      const block = new BlockList();
      block.addSubnet(network, Number(bits), family);
      return block.check(ip, family);
    };
    type Peer = { ipBlock?: { cidr: string; except?: string[] } };
    type Rule = { to?: Peer[]; ports?: { protocol?: string; port: number }[] };
    const labels = podLabels(byName("Deployment", component) as Manifest);
    return ofKind("NetworkPolicy")
      .filter(
        (policy) => selects(policy.spec.podSelector, labels) && policy.spec.policyTypes.includes("Egress"),
      )
      .flatMap((policy) => (policy.spec.egress ?? []) as Rule[])
      .some(
        (rule) =>
          (!rule.to?.length ||
            rule.to.some(
              (peer) =>
                peer.ipBlock && within(peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some(within),
            )) &&
          (!rule.ports?.length || rule.ports.some((p) => (p.protocol ?? "TCP") === "TCP" && p.port === port)),
      );
  };

  test("what calls out over https reaches the internet on 443; what a workspace points reaches no private address", () => {
    const publicAddresses = ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"];
    const privateAddresses = [
      "10.0.0.1",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "fd00::1",
      "fe80::1",
    ];
    const reach = Object.keys(OUTBOUND_HTTPS).map((component) => [
      component,
      publicAddresses.every((ip) => reachesOutside(component, ip, 443)),
    ]);
    expect(reach).toEqual(Object.keys(OUTBOUND_HTTPS).map((component) => [component, true]));
    const leaks = WORKSPACE_CHOSEN.flatMap((component) =>
      privateAddresses.filter((ip) => reachesOutside(component, ip, 443)).map((ip) => `${component} → ${ip}`),
    );
    expect(leaks).toEqual([]);
    // Those that call nothing outside reach nothing there.
    const quiet = components.filter((c) => !(c in OUTBOUND_HTTPS) && reachesOutside(c, "93.184.215.14", 443));
    expect(quiet).toEqual([]);
  });

  test("the converter reaches nothing: no policy lets its pods out, and only documents in", () => {
    const converter = podLabels(byName("Deployment", "converter") as Manifest);
    const governing = ofKind("NetworkPolicy").filter((policy) => selects(policy.spec.podSelector, converter));
    expect(governing.map((policy) => policy.metadata.name).sort()).toEqual([
      "allow-metrics-scrape",
      "converter",
      "default-deny",
    ]);
    expect(governing.flatMap((policy) => policy.spec.egress ?? [])).toEqual([]);
  });

  test("what touches the object store may reach it: documents stores files, the gateway streams downloads", () => {
    const s3Ports = (name: string) =>
      ((byName("NetworkPolicy", name) as Manifest).spec.egress as { ports?: { port: number }[] }[])
        .flatMap((rule) => rule.ports ?? [])
        .map((p) => p.port);
    for (const component of ["documents", "gateway"]) {
      expect([component, s3Ports(component)]).toEqual([component, expect.arrayContaining([9000, 443])]);
    }
    const minio = byName("NetworkPolicy", "minio");
    if (minio) {
      const admitted = (
        minio.spec.ingress as { from: { podSelector: { matchExpressions: { values: string[] }[] } }[] }[]
      ).flatMap((rule) => rule.from.flatMap((peer) => peer.podSelector.matchExpressions[0]?.values ?? []));
      expect(admitted.sort()).toEqual(["documents", "gateway"]);
    }
  });

  test("every variable a component requires is set in its Deployment", async () => {
    const { serviceConfigSchema, statelessServiceConfigSchema } = await import("@countersign/kit");
    const configMaps = new Map(ofKind("ConfigMap").map((c) => [c.metadata.name, Object.keys(c.data ?? {})]));
    for (const deployment of countersign("Deployment")) {
      const name = deployment.metadata.name;
      const container = podSpec(deployment).containers[0] as RenderedContainer;
      const set = new Set([
        ...(container.env ?? []).map((e) => e.name),
        ...(container.envFrom ?? []).flatMap(
          (source) => configMaps.get(source.configMapRef?.name ?? "") ?? [],
        ),
      ]);
      const module = (await import(join(REPO, entryOf(name)))) as Record<string, z.ZodObject>;
      const configSchema = (
        name === "converter" ? module.converterConfigSchema : module.configSchema
      ) as z.ZodObject;
      const shared = name === "converter" ? statelessServiceConfigSchema : serviceConfigSchema;
      const shapes = name === "gateway" ? [configSchema.shape] : [configSchema.shape, shared.shape];
      const required = shapes.flatMap((shape) =>
        Object.entries(shape as Record<string, z.ZodType>)
          .filter(([, schema]) => !schema.safeParse(undefined).success)
          .map(([variable]) => variable),
      );
      if (!withoutDatabase.includes(name)) required.push(`${serviceOf(name).toUpperCase()}_DATABASE_URL`);
      expect([name, required.filter((variable) => !set.has(variable))]).toEqual([name, []]);
    }
  });

  test("every Secret a container reads is documented in secrets.example.yaml (and generated in dev)", () => {
    const documented = (
      yaml.loadAll(readFileSync(join(base, "secrets.example.yaml"), "utf8")) as Manifest[]
    ).map((secret) => {
      const { data = {}, stringData = {} } = secret as unknown as { data?: object; stringData?: object };
      return { name: secret.metadata.name, keys: [...Object.keys(data), ...Object.keys(stringData)] };
    });
    const generated = new Map(ofKind("Secret").map((s) => [s.metadata.name, Object.keys(s.data ?? {})]));
    for (const workload of countersign("Deployment")) {
      for (const container of [
        ...(podSpec(workload).initContainers ?? []),
        ...podSpec(workload).containers,
      ]) {
        const refs = (container.env ?? []).flatMap((variable) => variable.valueFrom?.secretKeyRef ?? []);
        for (const ref of refs) {
          if (overlay === "prod") {
            expect(documented.find((s) => s.name === ref.name)?.keys).toContain(ref.key);
          } else {
            // kustomize names a generated Secret with a hash suffix and rewrites the references.
            expect(generated.get(ref.name)).toContain(ref.key);
          }
        }
      }
      // A Secret mounted as files (the seal): each file is a key of it.
      for (const volume of podSpec(workload).volumes ?? []) {
        if (!volume.secret) continue;
        const keys = volume.secret.items?.map((item) => item.key) ?? [];
        const known =
          overlay === "prod"
            ? documented.find((s) => s.name === volume.secret?.secretName)?.keys
            : generated.get(volume.secret.secretName);
        expect([volume.secret.secretName, known]).toEqual([
          volume.secret.secretName,
          expect.arrayContaining(keys),
        ]);
      }
    }
    if (overlay === "prod") expect(generated.size).toBe(0);
  });

  test("the services' COUNTERSIGN_CALLERS names the digest of each caller's identity Secret (dev), or must be set (prod)", () => {
    const callers = ofKind("ConfigMap").find((c) => c.metadata.name.startsWith("countersign-config"))?.data
      ?.COUNTERSIGN_CALLERS as string;
    if (overlay === "prod") {
      expect(() => parseCallers(callers, CALLERS)).toThrow(/COUNTERSIGN_CALLERS/);
      return;
    }
    const digests = parseCallers(callers, CALLERS);
    for (const caller of CALLERS) {
      const secret = ofKind("Secret").find((s) =>
        s.metadata.name.startsWith(`countersign-identity-${caller}-`),
      );
      const token = Buffer.from(
        (secret?.data as { token?: string } | undefined)?.token ?? "",
        "base64",
      ).toString("utf8");
      expect([caller, digests.get(caller)?.map((digest) => digest.toString("hex"))]).toEqual([
        caller,
        [tokenDigest(token)],
      ]);
    }
  });
});

test("the gateway's pod gives it the heap the local launcher gives it, where the memory test measured it", () => {
  const gateway = load<Deployment>(join(base, "gateway/deployment.yaml"));
  const [container] = gateway.spec.template.spec.containers as [Container];
  expect(container.env.find((e) => e.name === "NODE_OPTIONS")?.value).toBe(
    `--max-old-space-size=${GATEWAY_HEAP_MB}`,
  );
  expect(container.resources.limits.memory).toBe("512Mi");
});

test("the containers that read uploads start node with the flags the launcher and `npm start` give them", () => {
  for (const name of ["gateway", "documents"]) {
    const [container] = load<Deployment>(join(base, `${name}/deployment.yaml`)).spec.template.spec
      .containers as [Container];
    expect([name, container.command]).toEqual([name, expect.arrayContaining(UPLOAD_READER_NODE_FLAGS)]);
  }
});

test("the dev overlay's seal init container makes a seal, from the Secret's password file, that the sealer opens", async () => {
  const sealer = render("dev").find(
    (o) => o.kind === "Deployment" && o.metadata.name === "requests-sealer",
  ) as Manifest;
  const init = (sealer.spec.template.spec as PodSpec).initContainers?.[0] as RenderedContainer;
  const dir = mkdtempSync(join(tmpdir(), "countersign-seal-"));
  try {
    const out = join(dir, "seal.p12");
    const passwordFile = join(dir, "password");
    writeFileSync(passwordFile, "a-password-of-some-length\n");
    const [node, ...args] = (init.command as string[]).map((arg) =>
      arg === "/seal/seal.p12"
        ? out
        : arg === "/var/run/secrets/countersign/seal/password"
          ? passwordFile
          : arg,
    );
    expect(node).toBe("node");
    const printed = execFileSync(process.execPath, args, { cwd: REPO, encoding: "utf8" });
    expect(printed).not.toContain("a-password-of-some-length");
    const { configuredSeal } = await import("@countersign/requests");
    expect(
      configuredSeal({ COUNTERSIGN_SEAL_P12: out, COUNTERSIGN_SEAL_P12_PASSWORD_FILE: passwordFile }),
    ).toBeDefined();
    writeFileSync(passwordFile, "wrong");
    expect(() =>
      configuredSeal({ COUNTERSIGN_SEAL_P12: out, COUNTERSIGN_SEAL_P12_PASSWORD_FILE: passwordFile }),
    ).toThrow(/COUNTERSIGN_SEAL_P12/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
