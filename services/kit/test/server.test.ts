/**
 * The service server end to end over real sockets: gRPC (HTTP/2) and Connect (HTTP/1.1) on one
 * port, Prometheus text beside them, health as probes see it, the service token, error masking,
 * and the call context a client passes on.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  Health,
  HealthCheckResponse_ServingStatus as Status,
} from "@countersign/gen/grpc/health/v1/health_pb.js";
import {
  type CallContext,
  currentCallContext,
  enterDataMode,
  inDataMode,
  runWithCallContext,
} from "../src/context.js";
import { HealthState } from "../src/health.js";
import { createLogger } from "../src/logger.js";
import { createRpcMetrics } from "../src/metrics.js";
import { type RunningServer, startServiceServer } from "../src/server.js";
import { operatorOnly, presentServiceToken } from "../src/service-identity.js";
import { networkTransport, serviceClient } from "../src/transport.js";

const TOKEN = "a-service-token-that-is-long-enough-to-pass";
let seen: CallContext | undefined;
let server: RunningServer;
let ready = true;

beforeAll(async () => {
  server = await startServiceServer({
    routes: [
      (router) =>
        router.service(AuthService, {
          async listWorkspaces() {
            seen = currentCallContext();
            return { workspaces: [{ id: "w1", name: "Acme" }] };
          },
          async getWorkspace() {
            throw new Error("pg: connection to 10.1.2.3 failed");
          },
        }),
    ],
    health: new HealthState([AuthService.typeName], async () => {
      if (!ready) throw new Error("database down");
    }),
    logger: createLogger({ name: "server-test", level: "silent" }),
    metrics: createRpcMetrics(),
    port: 0,
    host: "127.0.0.1",
    access: operatorOnly(TOKEN),
    drainMs: 300,
  });
});

const grpc = () => createGrpcTransport({ baseUrl: server.url, interceptors: [presentServiceToken(TOKEN)] });

test("gRPC over HTTP/2 and Connect over HTTP/1.1 are served on the same port", async () => {
  const overGrpc = createClient(AuthService, grpc());
  const overConnect = createClient(
    AuthService,
    createConnectTransport({
      baseUrl: server.url,
      httpVersion: "1.1",
      interceptors: [presentServiceToken(TOKEN)],
    }),
  );
  expect((await overGrpc.listWorkspaces({})).workspaces[0]?.name).toBe("Acme");
  expect((await overConnect.listWorkspaces({})).workspaces[0]?.name).toBe("Acme");
});

test("GET /metrics answers Prometheus text with the RPC counts", async () => {
  await createClient(AuthService, grpc()).listWorkspaces({});
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toMatch(
    /rpc_server_handled_total\{service="countersign.auth.v1.AuthService",method="ListWorkspaces",code="OK"\} \d+/,
  );
  expect(body).toContain("rpc_server_handling_seconds_bucket");
});

test("calls without the service token are refused; health checks are not", async () => {
  const anonymous = createGrpcTransport({ baseUrl: server.url });
  await expect(createClient(AuthService, anonymous).listWorkspaces({})).rejects.toMatchObject({
    code: Code.Unauthenticated,
  });
  const wrong = createGrpcTransport({
    baseUrl: server.url,
    interceptors: [presentServiceToken(`${TOKEN}x`)],
  });
  await expect(createClient(AuthService, wrong).listWorkspaces({})).rejects.toMatchObject({
    code: Code.Unauthenticated,
  });
  expect((await createClient(Health, anonymous).check({})).status).toBe(Status.SERVING);
});

test("an unexpected error reaches the caller as Internal with no internals", async () => {
  const err = await createClient(AuthService, grpc())
    .getWorkspace({ workspaceId: "x" })
    .catch((e: unknown) => ConnectError.from(e));
  expect((err as ConnectError).code).toBe(Code.Internal);
  expect((err as ConnectError).rawMessage).toBe("internal error");
});

test("health says NOT_SERVING while a dependency is down, and NotFound for an unknown service", async () => {
  const health = createClient(Health, grpc());
  await expect(health.check({ service: "no.Such" })).rejects.toMatchObject({ code: Code.NotFound });
  ready = false;
  await new Promise((r) => setTimeout(r, 2100));
  expect((await health.check({ service: AuthService.typeName })).status).toBe(Status.NOT_SERVING);
  // Liveness stays SERVING: a restart would not bring the database back.
  expect((await health.check({ service: "liveness" })).status).toBe(Status.SERVING);
  ready = true;
  await new Promise((r) => setTimeout(r, 2100));
  expect((await health.check({})).status).toBe(Status.SERVING);
});

test("a client inside a call context passes on the request id and the caller's deadline, as the time left when it calls", async () => {
  const client = serviceClient(AuthService, networkTransport(server.url, TOKEN));
  const before = Date.now();
  const deadline = before + 5000;
  await runWithCallContext({ requestId: "req-propagated", deadline }, () => client.listWorkspaces({}));
  const after = Date.now();
  expect(seen?.requestId).toBe("req-propagated");
  expect(seen?.deadline).toBeDefined();
  // The deadline travels as the time left (grpc-timeout, whole ms), which the server adds to its own
  // clock when the call arrives: later than the caller's by the call's time on the way at most.
  expect(seen?.deadline as number).toBeLessThanOrEqual(deadline + (after - before) + 1);
  expect(seen?.deadline as number).toBeGreaterThan(Date.now());
});

test("a call's data mode, once its caller is known, reaches the service it calls; a call for no one has none", async () => {
  const client = serviceClient(AuthService, networkTransport(server.url, TOKEN));
  await runWithCallContext({ requestId: "req-mode" }, async () => {
    await client.listWorkspaces({});
    expect(seen?.dataMode).toBeUndefined();
    enterDataMode("test");
    await client.listWorkspaces({});
  });
  expect(seen?.dataMode).toBe("test");
  await inDataMode("live", () => client.listWorkspaces({}));
  expect(seen?.dataMode).toBe("live");
});

test("closing turns health NOT_SERVING first, then stops the listener", async () => {
  const health = createClient(Health, grpc());
  const closing = server.close();
  await new Promise((r) => setTimeout(r, 100));
  expect((await health.check({})).status).toBe(Status.NOT_SERVING);
  await closing;
  await expect(fetch(`${server.url}/metrics`)).rejects.toThrow();
});
