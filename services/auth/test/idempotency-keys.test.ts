import { createHash } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { ClaimOutcome } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { uuidv7 } from "@countersign/kit";
import { type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const fingerprint = (text: string) => createHash("sha256").update(text).digest("hex");
const answer = { status: 201, contentType: "application/json", body: new TextEncoder().encode('{"id":"x"}') };

test("the first claim runs the request; once completed, the same key and request get its answer", async () => {
  const workspaceId = uuidv7();
  const request = {
    workspaceId,
    key: "order-1",
    fingerprint: fingerprint("POST /templates {}"),
    claimSeconds: 30,
  };
  expect((await auth.client.claimIdempotencyKey(request)).outcome).toBe(ClaimOutcome.CLAIMED);
  expect((await auth.client.claimIdempotencyKey(request)).outcome).toBe(ClaimOutcome.IN_PROGRESS);
  await auth.client.completeIdempotencyKey({ ...request, response: answer });
  const replay = await auth.client.claimIdempotencyKey(request);
  expect(replay.outcome).toBe(ClaimOutcome.COMPLETED);
  expect([replay.response?.status, new TextDecoder().decode(replay.response?.body)]).toEqual([
    201,
    '{"id":"x"}',
  ]);
});

test("a key used for another request is a mismatch; another workspace's key is its own", async () => {
  const workspaceId = uuidv7();
  const request = { workspaceId, key: "k", fingerprint: fingerprint("a"), claimSeconds: 30 };
  await auth.client.claimIdempotencyKey(request);
  const other = await auth.client.claimIdempotencyKey({ ...request, fingerprint: fingerprint("b") });
  expect(other.outcome).toBe(ClaimOutcome.MISMATCH);
  const elsewhere = await auth.client.claimIdempotencyKey({ ...request, workspaceId: uuidv7() });
  expect(elsewhere.outcome).toBe(ClaimOutcome.CLAIMED);
});

test("a released claim, or one whose claimer vanished, lets the next caller run the request", async () => {
  const workspaceId = uuidv7();
  const request = { workspaceId, key: "k", fingerprint: fingerprint("a"), claimSeconds: 30 };
  await auth.client.claimIdempotencyKey(request);
  await auth.client.releaseIdempotencyKey(request);
  expect((await auth.client.claimIdempotencyKey(request)).outcome).toBe(ClaimOutcome.CLAIMED);
  await auth.db.query("UPDATE idempotency_keys SET claimed_until = now() - interval '1 second'");
  expect((await auth.client.claimIdempotencyKey(request)).outcome).toBe(ClaimOutcome.CLAIMED);
});

test("an answer past its 24 hours is forgotten", async () => {
  const workspaceId = uuidv7();
  const request = { workspaceId, key: "old", fingerprint: fingerprint("a"), claimSeconds: 30 };
  await auth.client.claimIdempotencyKey(request);
  await auth.client.completeIdempotencyKey({ ...request, response: answer });
  await auth.db.query(
    "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'old'",
  );
  const again = await auth.client.claimIdempotencyKey({ ...request, fingerprint: fingerprint("b") });
  expect(again.outcome).toBe(ClaimOutcome.CLAIMED);
});

test("of many claims at once, exactly one runs the request", async () => {
  const workspaceId = uuidv7();
  const request = { workspaceId, key: "race", fingerprint: fingerprint("a"), claimSeconds: 30 };
  const outcomes = await Promise.all(
    Array.from({ length: 25 }, () => auth.client.claimIdempotencyKey(request)),
  );
  expect(outcomes.filter((o) => o.outcome === ClaimOutcome.CLAIMED)).toHaveLength(1);
});

test("malformed keys and fingerprints are refused", async () => {
  const err = await auth.client
    .claimIdempotencyKey({ workspaceId: uuidv7(), key: "x".repeat(256), fingerprint: "nope" })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConnectError);
  expect((err as ConnectError).code).toBe(Code.InvalidArgument);
});
