/**
 * X-Forwarded-For is believed only from the proxies an operator names (COUNTERSIGN_TRUSTED_PROXIES):
 * behind an ingress each client then has its own log-in limit (and its own address in the audit
 * trail); without the setting anyone could write the header, so it is ignored.
 */
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { createLogger, MemoryEventBus } from "@countersign/kit";
import { buildGateway, unconnectedServices } from "../src/app.js";
import { type ListeningGateway, listen } from "../src/http-server.js";

/** A gateway whose auth refuses every log-in, behind which only the limiter's answers matter. */
async function gatewayTrusting(trustedProxies: string[]): Promise<ListeningGateway> {
  const auth = createRouterTransport((router) =>
    router.service(AuthService, {
      createSession() {
        throw new Error("wrong password");
      },
    }),
  );
  const gateway = buildGateway({
    services: { ...unconnectedServices(), auth: createClient(AuthService, auth) },
    bus: new MemoryEventBus(),
    logger: createLogger({ name: "gateway", level: "silent" }),
    publicUrl: "http://localhost",
    ready: async () => {},
    trustedProxies,
  });
  const server = await listen(0, "127.0.0.1");
  server.serve(gateway.app);
  return server;
}

async function logInAttempts(server: ListeningGateway, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await fetch(`${server.url}/console/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i + 1}` },
      body: JSON.stringify({ email: "a@example.com", password: "guess" }),
    });
    statuses.push(reply.status);
  }
  return statuses;
}

test("without trusted proxies, X-Forwarded-For is ignored: one address, one log-in limit", async () => {
  const server = await gatewayTrusting([]);
  try {
    const statuses = await logInAttempts(server, 12);
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  } finally {
    await server.close();
  }
});

test("behind a trusted proxy, each forwarded client has its own log-in limit", async () => {
  const server = await gatewayTrusting(["127.0.0.0/8"]);
  try {
    expect((await logInAttempts(server, 12)).filter((status) => status === 429)).toEqual([]);
  } finally {
    await server.close();
  }
});
