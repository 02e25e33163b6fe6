import { createHmac } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { ProblemCodeSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { fieldViolations } from "@countersign/kit";
import { PEPPER, type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
let workspaceId: string;

beforeAll(async () => {
  auth = await startAuth();
  workspaceId = (await auth.client.createWorkspace({ name: "Acme" })).workspace?.id as string;
});
afterAll(() => auth.close());

async function codeOf(promise: Promise<unknown>): Promise<Code | undefined> {
  return promise.then(
    () => undefined,
    (err: unknown) => ConnectError.from(err).code,
  );
}

test("a new key's secret is sk_ and 43 base62 digits, and only its keyed hash is stored", async () => {
  const { key, secret } = await auth.client.createApiKey({ workspaceId, name: "ci" });
  expect(secret).toMatch(/^sk_[0-9A-Za-z]{43}$/);
  const { rows } = await auth.db.query<Record<string, unknown>>("SELECT * FROM api_keys WHERE id = $1", [
    key?.id,
  ]);
  expect(JSON.stringify(rows)).not.toContain(secret);
  const expected = createHmac("sha256", PEPPER).update(secret).digest();
  expect(Buffer.from(rows[0]?.secret_hash as Uint8Array).equals(expected)).toBe(true);
});

test("a test key's secret says so, and verifying it answers a test key; a live key's answers live", async () => {
  const test = await auth.client.createApiKey({ workspaceId, name: "sandbox", test: true });
  const live = await auth.client.createApiKey({ workspaceId, name: "production" });
  expect(test.secret).toMatch(/^sk_test_[0-9A-Za-z]{43}$/);
  expect(test.key?.test).toBe(true);
  expect((await auth.client.verifyApiKey({ secret: test.secret })).key?.test).toBe(true);
  expect((await auth.client.verifyApiKey({ secret: live.secret })).key?.test).toBe(false);
  const listed = (await auth.client.listApiKeys({ workspaceId })).keys;
  expect(listed.find((k) => k.id === test.key?.id)?.test).toBe(true);
});

test("two keys never share a secret", async () => {
  const secrets = new Set<string>();
  for (let i = 0; i < 20; i++)
    secrets.add((await auth.client.createApiKey({ workspaceId, name: `k${i}` })).secret);
  expect(secrets.size).toBe(20);
});

test("the list shows names and creation times, newest first, and no secret", async () => {
  const other = (await auth.client.createWorkspace({ name: "Listing" })).workspace?.id as string;
  const first = await auth.client.createApiKey({ workspaceId: other, name: "first" });
  const second = await auth.client.createApiKey({ workspaceId: other, name: "second" });
  const { keys } = await auth.client.listApiKeys({ workspaceId: other });
  expect(keys.map((k) => k.name)).toEqual(["second", "first"]);
  expect(keys[0]?.createTime).toBeDefined();
  expect(JSON.stringify(keys, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
    first.secret,
  );
  expect(JSON.stringify(keys, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
    second.secret,
  );
});

test("a key verifies to its workspace until it is deleted, and deleting it announces ApiKeyDeleted", async () => {
  const { key, secret } = await auth.client.createApiKey({ workspaceId, name: "doomed" });
  const verified = await auth.client.verifyApiKey({ secret });
  expect(verified.key?.id).toBe(key?.id);
  expect(verified.apiAccessEnabled).toBe(true);

  const announced = new Promise<string>((resolve) => {
    void auth.bus.listen(subjects.apiKeyDeleted, (msg) =>
      resolve(fromBinary(ApiKeyDeletedSchema, msg.data).keyId),
    );
  });
  await auth.client.deleteApiKey({ workspaceId, keyId: key?.id as string });
  expect(await announced).toBe(key?.id);
  expect(await codeOf(auth.client.verifyApiKey({ secret }))).toBe(Code.Unauthenticated);
});

test("another workspace cannot delete a key: it is not found there", async () => {
  const { key, secret } = await auth.client.createApiKey({ workspaceId, name: "mine" });
  const stranger = (await auth.client.createWorkspace({ name: "Stranger" })).workspace?.id as string;
  expect(await codeOf(auth.client.deleteApiKey({ workspaceId: stranger, keyId: key?.id as string }))).toBe(
    Code.NotFound,
  );
  expect((await auth.client.verifyApiKey({ secret })).key?.id).toBe(key?.id);
});

test("malformed and unknown secrets are Unauthenticated", async () => {
  for (const secret of ["", "sk_short", `pk_${"a".repeat(43)}`, `sk_${"a".repeat(43)}`]) {
    expect(await codeOf(auth.client.verifyApiKey({ secret }))).toBe(Code.Unauthenticated);
  }
});

test("a key needs a name of 1 to 100 characters, reported as a field violation", async () => {
  for (const name of ["", "   ", "x".repeat(101)]) {
    const err = await auth.client
      .createApiKey({ workspaceId, name })
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect(fieldViolations(err as ConnectError).map((v) => v.path)).toEqual(["name"]);
  }
});

test("ids that are not UUIDs name nothing: not found, never a database error", async () => {
  expect(await codeOf(auth.client.listApiKeys({ workspaceId: "nope" }))).toBe(Code.NotFound);
  expect(await codeOf(auth.client.deleteApiKey({ workspaceId, keyId: "1; DROP TABLE api_keys" }))).toBe(
    Code.NotFound,
  );
  expect(
    await codeOf(
      auth.client.createApiKey({ workspaceId: "00000000-0000-7000-8000-000000000000", name: "x" }),
    ),
  ).toBe(Code.NotFound);
});

test("switching API access off shows in verification at once", async () => {
  const switchable = (await auth.client.createWorkspace({ name: "Switchable" })).workspace?.id as string;
  const { secret } = await auth.client.createApiKey({ workspaceId: switchable, name: "k" });
  await auth.client.updateWorkspace({ workspaceId: switchable, apiAccessEnabled: false });
  expect((await auth.client.verifyApiKey({ secret })).apiAccessEnabled).toBe(false);
});

test("a key keeps its secret's last four characters as its hint, and an expiry when given", async () => {
  const expireTime = timestampFromDate(new Date(Date.now() + 30 * 86_400_000));
  const { key, secret } = await auth.client.createApiKey({ workspaceId, name: "hinted", expireTime });
  expect(key?.hint).toBe(secret.slice(-4));
  expect(key?.expireTime?.seconds).toBe(expireTime.seconds);
  const listed = (await auth.client.listApiKeys({ workspaceId })).keys.find((k) => k.id === key?.id);
  expect(listed?.hint).toBe(secret.slice(-4));
  expect(listed?.lastUseTime).toBeUndefined();
});

test("an expiry in the past, or more than ten years ahead, is a field violation", async () => {
  for (const at of [new Date(Date.now() - 1000), new Date(Date.now() + 11 * 366 * 86_400_000)]) {
    const refused = await auth.client
      .createApiKey({ workspaceId, name: "bad expiry", expireTime: timestampFromDate(at) })
      .then(
        () => undefined,
        (err: unknown) => ConnectError.from(err),
      );
    expect(refused?.code).toBe(Code.InvalidArgument);
    expect(fieldViolations(refused as ConnectError).map((v) => v.path)).toEqual(["expiresAt"]);
  }
});

test("an expired key is refused, saying so in words meant for the API's caller", async () => {
  const { key, secret } = await auth.client.createApiKey({
    workspaceId,
    name: "short-lived",
    expireTime: timestampFromDate(new Date(Date.now() + 60_000)),
  });
  expect((await auth.client.verifyApiKey({ secret })).key?.id).toBe(key?.id);
  await auth.db.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [
    key?.id,
  ]);
  const refused = await auth.client.verifyApiKey({ secret }).then(
    () => undefined,
    (err: unknown) => ConnectError.from(err),
  );
  expect(refused?.code).toBe(Code.Unauthenticated);
  expect(refused?.rawMessage).toMatch(
    /^this API key \(“short-lived”\) expired at \d{4}-.*Z; an Organization Admin/,
  );
  expect(refused?.findDetails(ProblemCodeSchema).map((d) => d.code)).toEqual(["unauthorized"]);
});

test("a key keeps the scopes it was made with, verifies with them, and is refused scopes that do not exist or repeat", async () => {
  const scoped = await auth.client.createApiKey({
    workspaceId,
    name: "reader",
    scopes: ["templates:read", "requests:read"],
  });
  expect(scoped.key?.scopes).toEqual(["templates:read", "requests:read"]);
  expect((await auth.client.verifyApiKey({ secret: scoped.secret })).key?.scopes).toEqual([
    "templates:read",
    "requests:read",
  ]);
  // Made without scopes, as every key before them was: stored as none, which is full access.
  const full = await auth.client.createApiKey({ workspaceId, name: "full" });
  expect((await auth.client.verifyApiKey({ secret: full.secret })).key?.scopes).toEqual([]);

  for (const scopes of [
    ["templates:read", "everything"],
    ["requests:send", "requests:send"],
  ]) {
    const refused = await auth.client.createApiKey({ workspaceId, name: "bad", scopes }).catch((e) => e);
    expect(ConnectError.from(refused).code).toBe(Code.InvalidArgument);
    expect(fieldViolations(ConnectError.from(refused)).map((v) => v.path)).toEqual(["scopes"]);
  }
  const { rows } = await auth.db.query("SELECT 1 FROM api_keys WHERE workspace_id = $1 AND name = 'bad'", [
    workspaceId,
  ]);
  expect(rows).toHaveLength(0);
});
