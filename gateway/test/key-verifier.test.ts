/**
 * The gateway's key cache, against an AuthService reached over the real Connect protocol in memory.
 * The service behind it answers from a table the test controls and counts the calls it gets.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ProblemCodeSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  ApiKeyDeletedSchema,
  WorkspaceUpdatedSchema,
} from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { MemoryEventBus } from "@countersign/kit";
import { KeyVerifier } from "../src/key-verifier.js";

const keys = new Map<
  string,
  { id: string; workspaceId: string; enabled: boolean; expiresAt?: number; asUser?: string }
>();
let calls = 0;
const transport = createRouterTransport((router) =>
  router.service(AuthService, {
    async verifyApiKey(req) {
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      const key = keys.get(req.secret);
      if (!key) throw new ConnectError("unknown API key", Code.Unauthenticated);
      if (key.expiresAt !== undefined && key.expiresAt <= Date.now()) {
        throw new ConnectError("this API key expired", Code.Unauthenticated, undefined, [
          { desc: ProblemCodeSchema, value: { code: "unauthorized" } },
        ]);
      }
      return {
        key: {
          id: key.id,
          workspaceId: key.workspaceId,
          name: "k",
          expireTime: key.expiresAt === undefined ? undefined : timestampFromMs(key.expiresAt),
        },
        apiAccessEnabled: key.enabled,
        accessToken: key.asUser ? { userId: key.asUser, email: `${key.asUser}@example.com` } : undefined,
      };
    },
  }),
);

let bus: MemoryEventBus;
let verifier: KeyVerifier;
let stop: () => Promise<void>;

beforeEach(async () => {
  keys.clear();
  keys.set("sk_a", { id: "key-a", workspaceId: "ws-1", enabled: true });
  keys.set("sk_b", { id: "key-b", workspaceId: "ws-1", enabled: true });
  calls = 0;
  bus = new MemoryEventBus();
  verifier = new KeyVerifier(createClient(AuthService, transport), { ttlMs: 60_000 });
  stop = await verifier.listen(bus);
});
afterEach(() => stop());

test("a key is asked about once and then answered from the cache", async () => {
  for (let i = 0; i < 10; i++)
    expect(await verifier.verify("sk_a")).toMatchObject({ keyId: "key-a", workspaceId: "ws-1" });
  expect(calls).toBe(1);
});

test("concurrent verifications of one key share one call", async () => {
  await Promise.all(Array.from({ length: 20 }, () => verifier.verify("sk_a")));
  expect(calls).toBe(1);
});

test("an unknown key is undefined and not remembered", async () => {
  expect(await verifier.verify("sk_unknown")).toBeUndefined();
  keys.set("sk_unknown", { id: "late", workspaceId: "ws-1", enabled: true });
  expect(await verifier.verify("sk_unknown")).toMatchObject({ keyId: "late" });
});

test("ApiKeyDeleted drops exactly that key from the cache", async () => {
  await verifier.verify("sk_a");
  await verifier.verify("sk_b");
  keys.delete("sk_a");
  await bus.publish(
    subjects.apiKeyDeleted,
    toBinary(ApiKeyDeletedSchema, create(ApiKeyDeletedSchema, { keyId: "key-a" })),
  );
  expect(await verifier.verify("sk_a")).toBeUndefined();
  expect(await verifier.verify("sk_b")).toMatchObject({ keyId: "key-b" });
  expect(calls).toBe(3);
});

test("an integration's revocation drops its tokens, answers in flight across it included, and takes the tokens it grants later", async () => {
  keys.set("oat_1", { id: "integration-1", workspaceId: "ws-1", enabled: true, asUser: "ada" });
  keys.set("oat_2", { id: "integration-2", workspaceId: "ws-1", enabled: true, asUser: "ada" });
  expect(await verifier.verify("oat_1")).toMatchObject({
    keyId: "integration-1",
    onBehalfOf: { userId: "ada", email: "ada@example.com" },
  });
  await verifier.verify("oat_2");
  const inFlight = verifier.verify("oat_2");
  keys.delete("oat_1");
  await bus.publish(
    subjects.apiKeyDeleted,
    toBinary(ApiKeyDeletedSchema, create(ApiKeyDeletedSchema, { keyId: "integration-1", integration: true })),
  );
  expect(await verifier.verify("oat_1")).toBeUndefined();
  // Another integration's answers stand.
  expect(await inFlight).toMatchObject({ keyId: "integration-2" });

  const asked = verifier.verify("oat_3");
  keys.set("oat_3", { id: "integration-1", workspaceId: "ws-1", enabled: true, asUser: "ada" });
  verifier.forgetIntegration("integration-1");
  expect(await asked).toBeUndefined();
  // A token granted after the revocation (a new consent) is taken, unlike a deleted key's id.
  expect(await verifier.verify("oat_3")).toMatchObject({ keyId: "integration-1" });
});

test("WorkspaceUpdated drops the workspace's keys, so API access follows at once", async () => {
  await verifier.verify("sk_a");
  (keys.get("sk_a") as { enabled: boolean }).enabled = false;
  await bus.publish(
    subjects.workspaceUpdated,
    toBinary(
      WorkspaceUpdatedSchema,
      create(WorkspaceUpdatedSchema, { workspaceId: "ws-1", apiAccessEnabled: false }),
    ),
  );
  expect(await verifier.verify("sk_a")).toMatchObject({ apiAccessEnabled: false });
});

test("a key deleted while its verification is in flight is neither accepted nor cached", async () => {
  // auth answers after 5 ms with the key as it was when asked; the deletion lands in between.
  const pending = verifier.verify("sk_a");
  verifier.forgetKey("key-a");
  expect(await pending).toBeUndefined();
  const before = calls;
  expect(await verifier.verify("sk_a")).toBeUndefined();
  expect(calls).toBe(before + 1);
});

test("an answer asked for before a workspace change is used once but not cached", async () => {
  const pending = verifier.verify("sk_b");
  verifier.forgetWorkspace("ws-1");
  expect(await pending).toMatchObject({ keyId: "key-b" });
  const before = calls;
  await verifier.verify("sk_b");
  expect(calls).toBe(before + 1);
});

test("entries expire after the TTL", async () => {
  const shortLived = new KeyVerifier(createClient(AuthService, transport), { ttlMs: 20 });
  await shortLived.verify("sk_a");
  await new Promise((r) => setTimeout(r, 40));
  await shortLived.verify("sk_a");
  expect(calls).toBe(2);
});

test("at most maxEntries callers are remembered, the least lately used forgotten first", async () => {
  keys.set("sk_c", { id: "key-c", workspaceId: "ws-1", enabled: true });
  const small = new KeyVerifier(createClient(AuthService, transport), { ttlMs: 60_000, maxEntries: 2 });
  await small.verify("sk_a");
  await small.verify("sk_b");
  await small.verify("sk_a");
  await small.verify("sk_c");
  calls = 0;
  await small.verify("sk_a");
  await small.verify("sk_b");
  expect(calls).toBe(1);
});

test("a key is not remembered past its expiry, and then auth's refusal says why", async () => {
  keys.set("sk_soon", { id: "soon", workspaceId: "ws-1", enabled: true, expiresAt: Date.now() + 60 });
  expect(await verifier.verify("sk_soon")).toMatchObject({ keyId: "soon" });
  expect(await verifier.verify("sk_soon")).toMatchObject({ keyId: "soon" });
  expect(calls).toBe(1);
  await new Promise((r) => setTimeout(r, 80));
  // The cache's TTL is a minute; the key's own expiry ends its entry first.
  expect(await verifier.verify("sk_soon")).toEqual({ refused: "this API key expired" });
  expect(calls).toBe(2);
});

test("auth being down is an error, not an unknown key", async () => {
  const down = createRouterTransport((router) =>
    router.service(AuthService, {
      verifyApiKey() {
        throw new ConnectError("no route to auth", Code.Unavailable);
      },
    }),
  );
  await expect(new KeyVerifier(createClient(AuthService, down)).verify("sk_a")).rejects.toMatchObject({
    code: Code.Unavailable,
  });
});
