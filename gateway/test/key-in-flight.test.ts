/**
 * One key's requests in the works at once: past the bound they wait briefly for a turn, and past the
 * wait or behind too many waiting they are refused at once with 429 and Retry-After. The public API's
 * two families and /restapi share one bound (DocuSign's error shape there); MCP has its own; another
 * key is not held up.
 */
import { EventEmitter } from "node:events";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { createLogger, MemoryEventBus } from "@countersign/kit";
import type { NextFunction, Request, Response } from "express";
import { z } from "zod";
import { buildGateway, unconnectedServices } from "../src/app.js";
import { type ListeningGateway, listen } from "../src/http-server.js";
import { type AdmissionLimits, admissionConfig, admissionLimits } from "../src/middleware/admission.js";
import { KeyInFlight } from "../src/middleware/key-in-flight.js";

/** A response as the middleware sees it: its caller, and the close that gives a turn back. */
function responseOf(keyId: string): Response & EventEmitter {
  return Object.assign(new EventEmitter(), { locals: { caller: { keyId } } }) as unknown as Response &
    EventEmitter;
}

/** Sends a request of `keyId` through the middleware; what became of it is pushed to `events`. */
function arrive(inFlight: KeyInFlight, keyId: string, name: string, events: string[]) {
  const res = responseOf(keyId);
  const next: NextFunction = (err?: unknown) => {
    if (err === undefined) return void events.push(`${name} in`);
    const problem = err as { code: string; message: string; headers: Record<string, string> };
    events.push(
      `${name} ${problem.code} (Retry-After ${problem.headers["Retry-After"]}): ${problem.message}`,
    );
  };
  inFlight.admit()({} as Request, res, next);
  return { close: () => res.emit("close") };
}

describe("KeyInFlight", () => {
  test("past the limit a key's requests wait in order; past the waiting bound they are refused at once; another key is not held up", () => {
    const inFlight = new KeyInFlight({ concurrent: 2, queued: 1, maxWaitMs: 10_000 });
    const events: string[] = [];
    const [a1, a2] = ["a1", "a2", "a3", "a4"].map((name) => arrive(inFlight, "key-a", name, events));
    arrive(inFlight, "key-b", "b1", events);
    expect(events).toEqual([
      "a1 in",
      "a2 in",
      "a4 rate_limited (Retry-After 1): this key has 2 requests in the works already; send the next when one is answered",
      "b1 in",
    ]);
    a1?.close();
    expect(events.at(-1)).toBe("a3 in");
    a2?.close();
    arrive(inFlight, "key-a", "a5", events);
    expect(events.at(-1)).toBe("a5 in");
  });

  test("a request that waited too long is refused; one whose caller hung up leaves the queue", async () => {
    const inFlight = new KeyInFlight(
      { concurrent: 1, queued: 1, maxWaitMs: 50 },
      (limit) => `only ${limit} at once`,
    );
    const events: string[] = [];
    arrive(inFlight, "key-a", "first", events);
    arrive(inFlight, "key-a", "gone", events).close();
    // The place the caller that hung up held is free again: this one waits instead of being refused.
    arrive(inFlight, "key-a", "patient", events);
    expect(events).toEqual(["first in"]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(events).toEqual(["first in", "patient rate_limited (Retry-After 1): only 1 at once"]);
  });

  test("the bound is read from the environment beside the gateway's, with defaults of 8 at once and 8 waiting 2 s", () => {
    const read = (env: Record<string, string>) => admissionLimits(z.object(admissionConfig).parse(env));
    expect(read({})).toEqual({
      admission: { concurrent: 64, queued: 256, maxWaitMs: 5_000 },
      keyInFlight: { concurrent: 8, queued: 8, maxWaitMs: 2_000 },
    });
    expect(
      read({
        COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: "3",
        COUNTERSIGN_KEY_MAX_QUEUED_REQUESTS: "0",
        COUNTERSIGN_KEY_MAX_QUEUE_WAIT_MS: "500",
      }).keyInFlight,
    ).toEqual({ concurrent: 3, queued: 0, maxWaitMs: 500 });
    expect(
      z.object(admissionConfig).safeParse({ COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: "0" }).success,
    ).toBe(false);
  });
});

const WORKSPACE_A = "0192f5d8-0000-7000-8000-00000000000a";
const WORKSPACE_B = "0192f5d8-0000-7000-8000-00000000000b";
const KEY_A = `sk_${"a".repeat(43)}`;
const KEY_B = `sk_${"b".repeat(43)}`;
const DOCUMENT = "0192f5d8-0000-7000-8000-0000000000d0";

describe("through the gateway", () => {
  /** The service calls being worked on, each answered (not found) when released. */
  const holds: (() => void)[] = [];
  const held = async (): Promise<never> => {
    await new Promise<void>((resolve) => holds.push(resolve));
    throw new ConnectError("not found", Code.NotFound);
  };
  let server: ListeningGateway;

  beforeAll(async () => {
    const keys = new Map([
      [KEY_A, WORKSPACE_A],
      [KEY_B, WORKSPACE_B],
    ]);
    const services = createRouterTransport((router) => {
      router.service(AuthService, {
        verifyApiKey({ secret }) {
          const workspaceId = keys.get(secret);
          if (!workspaceId) return {};
          return {
            key: { id: `key-${workspaceId}`, name: "k", workspaceId, scopes: [] },
            apiAccessEnabled: true,
            workspaceName: "w",
          };
        },
      });
      router.service(DocumentsService, { getDocument: held });
      router.service(RequestsService, { getSignatureRequest: held });
    });
    const limits: AdmissionLimits = { concurrent: 2, queued: 1, maxWaitMs: 10_000 };
    const gateway = buildGateway({
      services: {
        ...unconnectedServices(),
        auth: createClient(AuthService, services),
        documents: createClient(DocumentsService, services),
        requests: createClient(RequestsService, services),
      },
      bus: new MemoryEventBus(),
      logger: createLogger({ name: "gateway", level: "silent" }),
      publicUrl: "http://localhost",
      ready: async () => {},
      limits: { keyInFlight: limits },
    });
    server = await listen(0, "127.0.0.1");
    server.serve(gateway.app);
  });
  afterAll(async () => {
    for (const release of holds.splice(0)) release();
    await server.close();
  });

  const get = async (path: string, key: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      retryAfter: res.headers.get("retry-after"),
      body: (await res.json()) as Record<string, unknown>,
      ms: performance.now() - started,
    };
  };
  const restapi = (workspaceId: string) => `/restapi/v2.1/accounts/${workspaceId}/envelopes/${DOCUMENT}`;
  const refusal = "this key has 2 requests in the works already; send the next when one is answered";

  test("one bound across /api/v1, /v1/accounts and /restapi: refused at once in each door's shape, while another key and MCP are served", async () => {
    const working = [
      get(`/api/v1/documents/${DOCUMENT}`, KEY_A),
      get(`/v1/accounts/${WORKSPACE_A}/documents/${DOCUMENT}`, KEY_A),
    ];
    await until(() => holds.length === 2);
    // Of two more, one waits for a turn and the other, behind it, is refused at once.
    const next = [get(restapi(WORKSPACE_A), KEY_A), get(`/api/v1/documents/${DOCUMENT}`, KEY_A)];
    const first = await Promise.race(next);
    expect(first.status).toBe(429);

    const native = await get(`/v1/accounts/${WORKSPACE_A}/documents/${DOCUMENT}`, KEY_A);
    expect(native).toMatchObject({
      status: 429,
      type: expect.stringMatching(/^application\/problem\+json/),
      retryAfter: "1",
      body: { code: "rate_limited", status: 429, detail: refusal },
    });
    const docusign = await get(restapi(WORKSPACE_A), KEY_A);
    expect(docusign).toMatchObject({
      status: 429,
      retryAfter: "1",
      body: { errorCode: "HOURLY_APIINVOCATION_LIMIT_EXCEEDED", message: refusal },
    });
    expect(Math.max(native.ms, docusign.ms)).toBeLessThan(1_000);

    // Another workspace's key, and the same key through MCP's bound of its own, are served meanwhile.
    expect((await get("/v1/ping", KEY_B)).status).toBe(200);
    const mcp = await fetch(`${server.url}/mcp/v1`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY_A}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(mcp.status).toBe(200);

    // A turn given back goes to the one waiting: its own service call starts.
    holds.shift()?.();
    await until(() => holds.length === 2);
    while (holds.length > 0) holds.shift()?.();
    expect((await Promise.all(working)).map((reply) => reply.status)).toEqual([404, 404]);
    // The one that waited got its turn and was answered as its door answers an unknown id.
    expect((await Promise.all(next)).map((reply) => reply.status).sort()).toEqual(
      first.body.errorCode ? [404, 429] : [400, 429],
    );
    expect((await get("/v1/ping", KEY_A)).status).toBe(200);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("condition not reached");
}
