/**
 * Auth over real gRPC with a client we did not write (@grpc/grpc-js with the .proto files loaded
 * at run time): health checks as Kubernetes probes make them, and AuthService calls with and
 * without the service token. Against the standalone admin port and, where the infrastructure is
 * there, the auth process of a distributed deployment.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { type Deployment, REPO, startDistributed, startStandalone } from "./support/deployments.js";
import { distributedInfra } from "./support/infra.js";

type Callback<T> = (err: grpc.ServiceError | null, value?: T) => void;
type UnaryMethod = (
  request: object,
  metadata: grpc.Metadata,
  callback: Callback<Record<string, unknown>>,
) => void;
type Stub = grpc.Client & Record<string, UnaryMethod>;

const definition = protoLoader.loadSync(
  ["grpc/health/v1/health.proto", "countersign/auth/v1/auth_service.proto"],
  {
    includeDirs: [join(REPO, "proto")],
    keepCase: false,
    defaults: true,
    enums: String,
  },
);
const loaded = grpc.loadPackageDefinition(definition) as unknown as {
  grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
  countersign: { auth: { v1: { AuthService: grpc.ServiceClientConstructor } } };
};

function unary(
  stub: Stub,
  method: string,
  request: object,
  token?: string,
): Promise<Record<string, unknown>> {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    stub[method]?.call(stub, request, metadata, (err, value) => (err ? reject(err) : resolve(value ?? {}))),
  );
}

/** The auth service's address (host:port) and token, however the deployment exposes them. */
async function authEndpoint(deployment: Deployment): Promise<{ target: string; token: string }> {
  if (deployment.mode === "standalone") {
    const admin = JSON.parse(await readFile(join(deployment.dataDir, "admin.json"), "utf8")) as {
      url: string;
      token: string;
    };
    return { target: new URL(admin.url).host, token: admin.token };
  }
  const endpoints = JSON.parse(await readFile(join(deployment.dataDir, "distributed.json"), "utf8")) as {
    services: { auth: string[] };
    operatorToken: string;
  };
  return { target: new URL(endpoints.services.auth[0] as string).host, token: endpoints.operatorToken };
}

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

describe.each(modes)("%s mode: auth over gRPC from @grpc/grpc-js", (_mode, start) => {
  let deployment: Deployment;
  let health: Stub;
  let auth: Stub;
  let token: string;

  beforeAll(async () => {
    deployment = await start();
    const endpoint = await authEndpoint(deployment);
    token = endpoint.token;
    const credentials = grpc.credentials.createInsecure();
    health = new loaded.grpc.health.v1.Health(endpoint.target, credentials) as unknown as Stub;
    auth = new loaded.countersign.auth.v1.AuthService(endpoint.target, credentials) as unknown as Stub;
  }, 180_000);

  afterAll(async () => {
    health?.close();
    auth?.close();
    await deployment?.destroy();
  });

  test("grpc.health.v1.Health/Check answers SERVING for the server and for AuthService, with no token", async () => {
    expect(await unary(health, "check", { service: "" })).toEqual({ status: "SERVING" });
    expect(await unary(health, "check", { service: "countersign.auth.v1.AuthService" })).toEqual({
      status: "SERVING",
    });
  });

  test("Health/Check of a service the server does not have is NOT_FOUND", async () => {
    await expect(unary(health, "check", { service: "no.such.Service" })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
  });

  test("AuthService answers a client with the service token, and refuses one without it", async () => {
    const { workspaces } = (await unary(auth, "listWorkspaces", {}, token)) as {
      workspaces: { name: string }[];
    };
    expect(workspaces.map((w) => w.name)).toContain("Default workspace");
    await expect(unary(auth, "listWorkspaces", {})).rejects.toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
    });
  });

  test("a created key verifies over gRPC, and validation failures arrive as INVALID_ARGUMENT", async () => {
    const { workspaces } = (await unary(auth, "listWorkspaces", {}, token)) as {
      workspaces: { id: string }[];
    };
    const workspaceId = workspaces[0]?.id;
    const created = (await unary(auth, "createApiKey", { workspaceId, name: "grpc" }, token)) as {
      secret: string;
    };
    expect(created.secret).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    const verified = (await unary(auth, "verifyApiKey", { secret: created.secret }, token)) as {
      key: { workspaceId: string };
    };
    expect(verified.key.workspaceId).toBe(workspaceId);
    await expect(unary(auth, "createApiKey", { workspaceId, name: "" }, token)).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
    });
  });
});
