/**
 * Completion survives failures at every stage: before sealing (the originals cannot be read),
 * during (the upload of the sealed PDF breaks off), after (it was stored but the answer was lost),
 * and a replica that stops in the middle, whose job another replica takes over once its claim
 * runs out, or at once when it is the only replica (standalone), and a time-stamping authority
 * that is down. Every time: one sealed document, one `completed` event, one e-mail per recipient;
 * every failed attempt is announced for the workspace's Recent Errors.
 */

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import {
  type DocumentsService,
  Kind,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type CompletionAttemptFailed,
  CompletionAttemptFailedSchema,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { backgroundJobs, serviceClient, uuidv7 } from "@countersign/kit";
import { freePort } from "../../../deploy/local/src/free-port.js";
import { startLocalTimestampAuthority } from "../../../deploy/local/src/timestamp-authority.js";
import type { RequestsModule } from "../src/service.js";
import { type Harness, startHarness, tokenOf, until } from "./harness.js";

let h: Harness;
/** Every failed attempt announced for the workspace's Recent Errors. */
const attemptFailures: CompletionAttemptFailed[] = [];
beforeAll(async () => {
  // The module under test must not complete anything itself: each test works through a replica.
  h = await startHarness({ completionPollIntervalMs: 3_600_000 });
  await h.bus.consume(subjects.completionAttemptFailed, "test-completion-failures", async (msg) => {
    attemptFailures.push(fromBinary(CompletionAttemptFailedSchema, msg.data));
  });
});
afterAll(() => h.close());

type Documents = Client<typeof DocumentsService>;

/** Signs both signers of a new request through `replica`; its completion is queued and kicked there. */
async function signAll(replica: RequestsModule) {
  const client = serviceClient(RequestsService, h.transport(replica));
  const ws = uuidv7();
  const { signatureRequest } = await client.createSignatureRequest({
    workspaceId: ws,
    title: "Recovery",
    templateId: await h.template(ws),
    recipients: [
      { name: "Ada", email: `ada.${ws}@example.com`, role: "Client" },
      { name: "Bob", email: `bob.${ws}@example.com`, role: "Countersigner" },
    ],
    send: true,
  });
  const request = signatureRequest as NonNullable<typeof signatureRequest>;
  for (const email of [`ada.${ws}@example.com`, `bob.${ws}@example.com`]) {
    const link = await waitFor(async () => (await h.mails()).find((m) => m.to === email && m.link)?.link);
    const { sessionToken } = await client.openSigningLink({ token: tokenOf(link) });
    const view = await client.getSigningSession({ sessionToken });
    const field = view.signatureRequest?.fields[0]?.id as string;
    await client.submitSignature({
      sessionToken,
      consent: true,
      values: { [field]: { value: { case: "typed", value: { text: email } } } },
    });
  }
  return { ws, requestId: request.id };
}

async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits for completion, then checks there is exactly one sealed document, event and e-mail each. */
async function expectCompletedOnce(ws: string, requestId: string) {
  const done = await waitFor(async () => {
    const { signatureRequest } = await h.requests.getSignatureRequest({ workspaceId: ws, requestId });
    return signatureRequest?.status === "completed" ? signatureRequest : undefined;
  }, 30_000);
  const { documents } = await h.documents.listDocuments({ workspaceId: ws, pageIndex: 0, pageSize: 100 });
  expect(documents.filter((d) => d.kind === Kind.SIGNED).map((d) => d.id)).toEqual([done.signedDocumentId]);
  await until(() => h.events.some((e) => e.type === "completed" && e.signatureRequest?.id === requestId));
  await new Promise((r) => setTimeout(r, 300));
  expect(h.events.filter((e) => e.type === "completed" && e.signatureRequest?.id === requestId)).toHaveLength(
    1,
  );
  const copies = await waitFor(async () => {
    const mails = (await h.mails()).filter(
      (m) => m.subject === "Completed: \u2068Recovery\u2069" && m.to.includes(ws),
    );
    return mails.length >= 2 ? mails : undefined;
  });
  expect(copies.map((m) => m.to).sort()).toEqual([`ada.${ws}@example.com`, `bob.${ws}@example.com`]);
  return done;
}

async function attemptsOf(requestId: string): Promise<{ attempts: number; last_error: string }> {
  const { rows } = await h.db.query<{ attempts: number; last_error: string }>(
    "SELECT attempts, last_error FROM completions WHERE request_id = $1",
    [requestId],
  );
  return rows[0] ?? { attempts: 0, last_error: "" };
}

/** Waits until the first attempt has failed and its retry is scheduled. */
async function failedOnce(requestId: string): Promise<void> {
  await waitFor(async () => ((await attemptsOf(requestId))?.last_error ? true : undefined));
}

/** Makes the next retry due now, instead of after its backoff. */
async function dueNow(requestId: string): Promise<void> {
  await h.db.query("UPDATE completions SET next_attempt_at = now() WHERE request_id = $1", [requestId]);
}

/**
 * Signs a request through a replica whose documents client fails once, waits for that failure,
 * makes the retry due and checks it completes once; the first attempt's error.
 */
async function recoversAfterOneFailure(documents: Documents): Promise<string> {
  const replica = await h.buildModule({ documents, completionPollIntervalMs: 100 });
  await replica.start();
  const { ws, requestId } = await signAll(replica);
  await failedOnce(requestId);
  const { last_error } = await attemptsOf(requestId);
  await dueNow(requestId);
  await expectCompletedOnce(ws, requestId);
  await replica.stop();
  return last_error;
}

test("before sealing: the originals cannot be read once, and the retry completes", async () => {
  let failures = 1;
  const documents: Documents = {
    ...h.documents,
    downloadDocument: (req, options) => {
      if (failures-- > 0) throw new Error("connection reset while reading the original");
      return h.documents.downloadDocument(req, options);
    },
  };
  const lastError = await recoversAfterOneFailure(documents);
  expect(lastError).toContain("connection reset");
});

test("during sealing: the upload of the sealed PDF breaks off, and nothing half-stored remains", async () => {
  let failures = 1;
  const documents: Documents = {
    ...h.documents,
    uploadDocument: async (messages, options) => {
      if (failures-- > 0) {
        for await (const message of messages) {
          if (message.part?.case === "chunk") throw new Error("stream reset mid-upload");
        }
      }
      return h.documents.uploadDocument(messages, options);
    },
  };
  await recoversAfterOneFailure(documents);
});

test("after sealing: the PDF was stored but the answer lost, and the retry stores no second copy", async () => {
  let failures = 1;
  const documents: Documents = {
    ...h.documents,
    uploadDocument: async (messages, options) => {
      const stored = await h.documents.uploadDocument(messages, options);
      if (failures-- > 0) throw new Error("deadline exceeded after the upload was stored");
      return stored;
    },
  };
  await recoversAfterOneFailure(documents);
});

test("a time-stamping authority that is down fails the attempt with nothing stored; once it is back the retry seals B-LTA", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/tsa`;
  const replica = await h.buildModule({
    completionPollIntervalMs: 100,
    timestampAuthority: { url, timeoutMs: 2000 },
  });
  await replica.start();
  const { ws, requestId } = await signAll(replica);
  await failedOnce(requestId);
  const unreachable = `the time-stamping authority at 127.0.0.1:${port} could not be reached`;
  expect((await attemptsOf(requestId)).last_error).toContain(unreachable);
  // The workspace's administrators are told which provider held the sealing up, and until when.
  const announced = await waitFor(async () =>
    attemptFailures.find((e) => e.signatureRequestId === requestId),
  );
  expect(announced).toMatchObject({ workspaceId: ws, attempt: 1, maxAttempts: 10 });
  expect(announced.reason).toContain(unreachable);
  expect(timestampDate(announced.retryTime as Timestamp).getTime()).toBeGreaterThan(Date.now());
  const { documents } = await h.documents.listDocuments({ workspaceId: ws, pageIndex: 0, pageSize: 100 });
  expect(documents.filter((d) => d.kind === Kind.SIGNED)).toEqual([]);

  const authority = await startLocalTimestampAuthority(await mkdtemp(join(tmpdir(), "tsa-")), port);
  try {
    await dueNow(requestId);
    const done = await expectCompletedOnce(ws, requestId);
    const chunks: Uint8Array[] = [];
    for await (const part of h.documents.downloadDocument({
      workspaceId: ws,
      documentId: done.signedDocumentId,
    })) {
      if (part.part.case === "chunk") chunks.push(part.part.value);
    }
    const sealed = Buffer.concat(chunks).toString("latin1");
    expect(sealed.match(/\/ByteRange/g)).toHaveLength(2);
    expect(sealed).toContain("/ETSI.RFC3161");
    expect(authority.answered).toBe(2);
  } finally {
    await replica.stop();
    await authority.close();
  }
});

test.each([
  ["another replica takes the job over once the claim runs out", false],
  ["the only replica, restarted, takes its own job up at once", true],
])("a replica that stops mid-completion: %s", async (_name, onlyReplica) => {
  let release: (() => void) | undefined;
  const hung = new Promise<void>((resolve) => {
    release = resolve;
  });
  const documents: Documents = {
    ...h.documents,
    uploadDocument: async () => {
      await hung;
      throw new Error("this replica was stopped");
    },
  };
  const stalled = await h.buildModule({ documents, completionPollIntervalMs: 3_600_000 });
  await stalled.start();
  const { ws, requestId } = await signAll(stalled);
  await waitFor(async () => ((await attemptsOf(requestId)).attempts === 1 ? true : undefined));

  const successor = await h.buildModule({ completionPollIntervalMs: 100, onlyReplica });
  if (!onlyReplica) {
    // A replica elsewhere waits for the claim to run out; here its end is brought forward.
    await h.db.query(
      "UPDATE completions SET claimed_until = now() - interval '1 second' WHERE request_id = $1",
      [requestId],
    );
  }
  await successor.start();
  await expectCompletedOnce(ws, requestId);
  release?.();
  await stalled.stop();
  await successor.stop();
  // The stalled replica's late failure does not undo the completion.
  const { signatureRequest } = await h.requests.getSignatureRequest({ workspaceId: ws, requestId });
  expect(signatureRequest?.status).toBe("completed");
});

describe("a completion that fails at every attempt", () => {
  /** A replica whose drawings never finish in time, which gives up after two attempts. */
  async function failingReplica() {
    const replica = await h.buildModule({
      drawingLimits: { timeoutMs: 1, heapMb: 256 },
      completionAttempts: 2,
      completionRetryBaseMs: 20,
      completionPollIntervalMs: 50,
    });
    await replica.start();
    return replica;
  }

  async function parked(ws: string, requestId: string) {
    return waitFor(async () => {
      const { signatureRequest } = await h.requests.getSignatureRequest({ workspaceId: ws, requestId });
      return signatureRequest?.completionFailure ? signatureRequest : undefined;
    });
  }

  test("waits for its sender: the request and its trail say why, the gauge counts it, and a resend completes it", async () => {
    const failing = await failingReplica();
    const { ws, requestId } = await signAll(failing);
    const request = await parked(ws, requestId);
    expect(request.status).toBe("in_progress");
    expect(request.completionFailure).toMatchObject({
      reason: "drawing the completed PDF took longer than 0.001 s",
      attempts: 2,
    });
    const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId });
    expect(entries.filter((e) => e.action === "completion_failed").map((e) => JSON.parse(e.details))).toEqual(
      [{ reason: "drawing the completed PDF took longer than 0.001 s", attempts: 2 }],
    );
    const parkedJobs = (await backgroundJobs.get()).values.find(
      (v) => v.labels.queue === "completion" && v.labels.state === "parked",
    );
    expect(parkedJobs?.value).toBe(1);
    // Each attempt was announced; the last one with no next attempt.
    const announced = await waitFor(async () => {
      const found = attemptFailures.filter((e) => e.signatureRequestId === requestId);
      return found.length === 2 ? found : undefined;
    });
    expect(announced.map((e) => [e.attempt, e.maxAttempts, e.reason, e.retryTime !== undefined])).toEqual([
      [1, 2, "drawing the completed PDF took longer than 0.001 s", true],
      [2, 2, "drawing the completed PDF took longer than 0.001 s", false],
    ]);
    // Parked means parked: no further attempt however long the replica runs.
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await h.requests.getAuditTrail({ workspaceId: ws, requestId })).entries.filter(
        (e) => e.action === "completion_failed",
      ),
    ).toHaveLength(1);
    await failing.stop();

    const healthy = await h.buildModule({ completionPollIntervalMs: 50 });
    await healthy.start();
    const client = serviceClient(RequestsService, h.transport(healthy));
    await client.resendSignatureRequest({ workspaceId: ws, requestId });
    await expectCompletedOnce(ws, requestId);
    const { signatureRequest } = await h.requests.getSignatureRequest({ workspaceId: ws, requestId });
    expect(signatureRequest?.completionFailure).toBeUndefined();
    await healthy.stop();
  });

  test("can be cancelled by its sender, and is then never tried again", async () => {
    const failing = await failingReplica();
    const { ws, requestId } = await signAll(failing);
    await parked(ws, requestId);
    const client = serviceClient(RequestsService, h.transport(failing));
    const { signatureRequest } = await client.cancelSignatureRequest({
      workspaceId: ws,
      requestId,
      reason: "redo",
    });
    expect(signatureRequest?.status).toBe("cancelled");
    const state = await h.db.query<{ done: boolean }>(
      "SELECT done_at IS NOT NULL AS done FROM completions WHERE request_id = $1",
      [requestId],
    );
    expect(state.rows).toEqual([{ done: true }]);
    await failing.stop();
  });
});
