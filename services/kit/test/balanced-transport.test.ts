/**
 * Calls to a service are spread over all its replicas, whether the address lists them or a host
 * name resolves to them, and a replica that stops or was never there costs no call.
 */
import net, { type AddressInfo } from "node:net";
import { createClient } from "@connectrpc/connect";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { balancedTransport } from "../src/balanced-transport.js";
import { HealthState } from "../src/health.js";
import { createLogger } from "../src/logger.js";
import { createRpcMetrics } from "../src/metrics.js";
import { type RunningServer, startServiceServer } from "../src/server.js";

interface Replica {
  server: RunningServer;
  calls: number;
  uploadedBytes: number;
}

const running: Replica[] = [];

async function startReplica(host = "127.0.0.1", port = 0, drainMs = 0): Promise<Replica> {
  const replica = { calls: 0, uploadedBytes: 0 } as Replica;
  replica.server = await startServiceServer({
    routes: [
      (router) =>
        router.service(AuthService, {
          async listWorkspaces() {
            replica.calls++;
            // Long enough that a few calls are always in flight on each replica.
            await new Promise((resolve) => setTimeout(resolve, 3));
            return { workspaces: [] };
          },
        }),
      (router) =>
        router.service(DocumentsService, {
          async uploadDocument(requests) {
            for await (const request of requests) {
              if (request.part.case === "chunk") replica.uploadedBytes += request.part.value.length;
            }
            return {};
          },
        }),
    ],
    health: new HealthState([AuthService.typeName], async () => {}),
    logger: createLogger({ name: "balancer-test", level: "silent" }),
    metrics: createRpcMetrics(),
    port,
    host,
    drainMs,
    graceMs: 5_000,
  });
  running.push(replica);
  return replica;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((replica) => replica.server.close()));
});

/** Makes `total` calls, `concurrency` at a time; `during(done)` runs after each completed call. */
async function load(
  call: () => Promise<unknown>,
  total: number,
  concurrency: number,
  during: (done: number) => void = () => {},
): Promise<{ ok: number; failed: unknown[] }> {
  let started = 0;
  let done = 0;
  const failed: unknown[] = [];
  const worker = async () => {
    while (started < total) {
      started++;
      await call().catch((err: unknown) => failed.push(err));
      during(++done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ok: done - failed.length, failed };
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const client = (address: string, resolve?: (host: string) => Promise<string[]>) =>
  createClient(AuthService, balancedTransport(address, { transport: {}, resolve, restMs: 200 }));

test("two replicas on two addresses each take between 30 % and 70 % of the calls", async () => {
  const [a, b] = [await startReplica(), await startReplica()] as [Replica, Replica];
  const auth = client(`${a.server.url},${b.server.url}`);
  const result = await load(() => auth.listWorkspaces({}), 400, 8);
  expect(result).toEqual({ ok: 400, failed: [] });
  expect(a.calls + b.calls).toBe(400);
  expect(a.calls / 400).toBeGreaterThanOrEqual(0.3);
  expect(a.calls / 400).toBeLessThanOrEqual(0.7);
});

test("stopping one replica under load loses no call: the rest go to the other", async () => {
  const [a, b] = [await startReplica(), await startReplica()] as [Replica, Replica];
  const auth = client(`${a.server.url},${b.server.url}`);
  let stopped: Promise<void> | undefined;
  const result = await load(
    () => auth.listWorkspaces({}),
    600,
    8,
    (done) => {
      if (done === 150) stopped = a.server.close();
    },
  );
  await stopped;
  expect(result.failed).toEqual([]);
  expect(result.ok).toBe(600);
  expect(a.calls + b.calls).toBe(600);
  expect(b.calls).toBeGreaterThan(a.calls);
});

test("a listed replica that is not listening is passed over and left to rest", async () => {
  const live = await startReplica();
  const deadPort = await closedPort();
  const transport = balancedTransport(`http://127.0.0.1:${deadPort},${live.server.url}`, {
    transport: {},
    restMs: 60_000,
  });
  const auth = createClient(AuthService, transport);
  const result = await load(() => auth.listWorkspaces({}), 100, 4);
  expect(result).toEqual({ ok: 100, failed: [] });
  expect(live.calls).toBe(100);
  // Resting, the dead replica is tried by the few calls that chose it before the first refusal.
  expect(transport.callsByReplica()[`http://127.0.0.1:${deadPort}`]).toBeLessThanOrEqual(4);
});

test("an upload that could not reach its replica is sent whole to another", async () => {
  const live = await startReplica();
  const deadPort = await closedPort();
  // Never resting, the dead replica is chosen first by about half the calls.
  const transport = balancedTransport(`http://127.0.0.1:${deadPort},${live.server.url}`, {
    transport: {},
    restMs: 0,
  });
  const documents = createClient(DocumentsService, transport);
  async function* parts() {
    yield { part: { case: "header" as const, value: { filename: "a.pdf" } } };
    for (let i = 0; i < 4; i++) yield { part: { case: "chunk" as const, value: new Uint8Array(1000) } };
  }
  for (let i = 0; i < 20; i++) await documents.uploadDocument(parts());
  expect(transport.callsByReplica()[`http://127.0.0.1:${deadPort}`]).toBeGreaterThan(0);
  expect(live.uploadedBytes).toBe(20 * 4000);
});

test("a host name is resolved to all its addresses, again as replicas come and go", async () => {
  const first = await startReplica("127.0.0.1");
  const port = first.server.port;
  const second = await startReplica("127.0.0.2", port);
  let answer = ["127.0.0.1"];
  const transport = balancedTransport(`http://auth.countersign.svc:${port}`, {
    transport: {},
    refreshMs: 50,
    resolve: async (host) => {
      expect(host).toBe("auth.countersign.svc");
      return answer;
    },
  });
  const auth = createClient(AuthService, transport);
  await load(() => auth.listWorkspaces({}), 50, 4);
  expect([first.calls, second.calls]).toEqual([50, 0]);

  answer = ["127.0.0.1", "127.0.0.2"];
  await new Promise((resolve) => setTimeout(resolve, 60));
  await auth.listWorkspaces({});
  await load(() => auth.listWorkspaces({}), 200, 4);
  expect(second.calls).toBeGreaterThan(40);

  // A failed lookup keeps the replicas last known; an answer without one retires it.
  answer = [];
  await new Promise((resolve) => setTimeout(resolve, 60));
  await load(() => auth.listWorkspaces({}), 20, 2);
  answer = ["127.0.0.2"];
  await new Promise((resolve) => setTimeout(resolve, 60));
  await auth.listWorkspaces({});
  const before = first.calls;
  await load(() => auth.listWorkspaces({}), 50, 4);
  expect(first.calls).toBe(before);
});
