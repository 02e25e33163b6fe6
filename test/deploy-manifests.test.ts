/**
 * The Kubernetes manifests agree with the code: one Deployment per service and the gateway, each
 * running an entry point that exists, probed the way it can answer, locked down, and listed in the
 * base kustomization.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
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
  env: { name: string }[];
  volumeMounts: { mountPath: string }[];
}

interface Deployment {
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  spec: { template: { spec: { securityContext: { runAsNonRoot: boolean }; containers: Container[] } } };
}

const base = join(REPO, "deploy/base");
const load = <T>(path: string) => yaml.load(readFileSync(path, "utf8")) as T;
const services = readdirSync(join(REPO, "services")).filter((name) => name !== "kit");
const components = [...services, "gateway"];

test("the base lists every service and the gateway, each with deployment, service, hpa and pdb", () => {
  const { resources } = load<{ resources: string[] }>(join(base, "kustomization.yaml"));
  expect(resources.filter((r) => r !== "config.yaml").sort()).toEqual([...components].sort());
  for (const component of components) {
    expect(
      load<{ resources: string[] }>(join(base, component, "kustomization.yaml")).resources.sort(),
    ).toEqual(["deployment.yaml", "hpa.yaml", "pdb.yaml", "service.yaml"]);
  }
});

describe.each(components)("%s", (component) => {
  const deployment = load<Deployment>(join(base, component, "deployment.yaml"));
  const container = deployment.spec.template.spec.containers[0] as Container;

  test("runs an entry point that exists in the repository", () => {
    const entry = container.command.at(-1) as string;
    expect(container.command.slice(0, 3)).toEqual(["node", "--import", "tsx"]);
    expect(existsSync(join(REPO, entry))).toBe(true);
  });

  test("is probed the way it answers: gRPC health for services (liveness apart), HTTP for the gateway", () => {
    if (component === "gateway") expect(container.readinessProbe.httpGet?.path).toBe("/readyz");
    else {
      expect(container.readinessProbe.grpc?.port).toBe(8080);
      expect(container.livenessProbe.grpc).toEqual({ port: 8080, service: "liveness" });
    }
  });

  test("runs as non-root, read-only, with no capabilities, writing only to /tmp", () => {
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(container.securityContext.capabilities.drop).toEqual(["ALL"]);
    expect(container.volumeMounts.map((m) => m.mountPath)).toEqual(["/tmp"]);
  });

  test("gets the service token, and a service its own database", () => {
    const names = container.env.map((e) => e.name);
    expect(names).toContain("COUNTERSIGN_INTERNAL_TOKEN");
    if (component !== "gateway") expect(names).toContain(`${component.toUpperCase()}_DATABASE_URL`);
  });
});
