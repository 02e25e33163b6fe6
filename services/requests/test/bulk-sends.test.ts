/**
 * Bulk sends in the requests service: a list is checked row by row before anything is sent, each
 * unsound row named by its line; a sound one makes one sent request a row, its merge values filled
 * into the template's fields; a retried start makes no second batch; a row whose request was made
 * by a worker that died before recording it is not made twice; a cancelled batch sends no more.
 *
 * The module under test polls once an hour: a batch started through a replica that is not started
 * waits until a test starts a worker, so each test decides when rows are sent.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  CreateSignatureRequestRequestSchema,
  RequestsService,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { fieldViolations, serviceClient, uuidv7 } from "@countersign/kit";
import { rowOperationKey } from "../src/bulk-send/bulk-sends.js";
import type { RequestsModule } from "../src/service.js";
import { type Harness, rejection, startHarness, until } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ bulkSend: { pollIntervalMs: 3_600_000 } });
});
afterAll(() => h.close());

const actor = {
  userId: uuidv7(),
  name: "Sam Sender",
  email: "sam@example.com",
  ip: "203.0.113.7",
  userAgent: "jest",
};

/** A template whose Client signs and has merge fields: Company (text), Amount (number, 0 to 10000), Start date. */
async function offerTemplate(workspaceId: string): Promise<string> {
  const documentId = await h.upload(workspaceId);
  const at = { page: 1, x: 50, width: 150, height: 30, role: "Client" };
  const { template } = await h.templates.createTemplate({
    template: {
      workspaceId,
      name: "Offer",
      documentId,
      roles: [{ name: "Client", order: 1 }],
      fields: [
        { ...at, type: "signature", y: 700, required: true },
        { ...at, type: "text", y: 600, label: "Company", required: true },
        { ...at, type: "number", y: 550, label: "Amount", rules: { minimum: 0, maximum: 10000 } },
        { ...at, type: "date", y: 500, label: "Start date" },
      ],
    },
  });
  return template?.id as string;
}

function row(line: number, mergeFields: Record<string, string> = { Company: `Firm ${line}` }) {
  return {
    line,
    recipients: [{ name: `Client ${line}`, email: `client${line}@example.com`, role: "Client" }],
    mergeFields,
  };
}

/** A replica on the harness's database that is not started: it stores batches and sends none. */
async function paused(): Promise<{ module: RequestsModule; client: typeof h.requests }> {
  const module = await h.buildModule();
  return { module, client: serviceClient(RequestsService, h.transport(module)) };
}

/** A batch of `rows` from a template of a workspace of its own, stored by a paused replica: none sent yet. */
async function waitingBatch(rows: ReturnType<typeof row>[], title = "Offer") {
  const ws = uuidv7();
  const templateId = await offerTemplate(ws);
  const stopped = await paused();
  const { bulkSend } = await stopped.client.startBulkSend({
    workspaceId: ws,
    templateId,
    title,
    rows,
    actor,
  });
  return { ws, batchId: bulkSend?.id as string, stopped };
}

async function requestsOf(workspaceId: string) {
  const { signatureRequests } = await h.requests.listSignatureRequests({ workspaceId, pageSize: 100 });
  return signatureRequests;
}

async function finished(workspaceId: string, id: string) {
  let batch = (await h.requests.getBulkSend({ workspaceId, bulkSendId: id })).bulkSend;
  await until(async () => {
    batch = (await h.requests.getBulkSend({ workspaceId, bulkSendId: id })).bulkSend;
    return batch?.status !== "running";
  }, 20_000);
  return batch;
}

test("a sound list makes one sent request a row, each field of a merge label filled with the row's value, and the batch counts them", async () => {
  const ws = uuidv7();
  const templateId = await offerTemplate(ws);
  const rows = Array.from({ length: 12 }, (_, i) =>
    row(i + 2, { Company: `Firm ${i + 2}`, Amount: `${(i + 1) * 100}`, "start DATE": "2027-01-15" }),
  );
  const { bulkSend } = await h.requests.startBulkSend({
    workspaceId: ws,
    templateId,
    title: "Offer letter",
    rows,
    actor,
  });
  expect(bulkSend).toMatchObject({
    status: "running",
    total: 12,
    createdBy: "sam@example.com",
    title: "Offer letter",
  });
  const worker = await paused();
  await worker.module.start();
  try {
    const done = await finished(ws, bulkSend?.id as string);
    expect(done).toMatchObject({
      status: "completed",
      total: 12,
      sent: 12,
      failed: 0,
      pending: 0,
      cancelled: 0,
    });
    expect(done?.endTime).toBeDefined();
  } finally {
    await worker.module.stop();
  }
  const made = await requestsOf(ws);
  expect(made).toHaveLength(12);
  expect(new Set(made.map((r) => r.status))).toEqual(new Set(["sent"]));
  const { rows: results } = await h.requests.listBulkSendRows({
    workspaceId: ws,
    bulkSendId: bulkSend?.id as string,
    pageSize: 100,
  });
  expect(results.map((r) => [r.line, r.status, r.recipients])).toEqual(
    rows.map((r) => [r.line, "sent", [`Client ${r.line} <client${r.line}@example.com>`]]),
  );
  const third = results[2];
  const { signatureRequest } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: third?.signatureRequestId as string,
  });
  expect(signatureRequest?.recipients.map((r) => r.email)).toEqual(["client4@example.com"]);
  const prefilled = Object.fromEntries(
    signatureRequest?.fields.map((f) => [f.label || f.type, f.prefilled]) ?? [],
  );
  expect(prefilled).toEqual({ signature: "", Company: "Firm 4", Amount: "300", "Start date": "2027-01-15" });
  const { entries } = await h.requests.getAuditTrail({
    workspaceId: ws,
    requestId: signatureRequest?.id as string,
  });
  expect(JSON.parse(entries[0]?.details ?? "{}").mergeFields).toEqual({
    Company: "Firm 4",
    Amount: "300",
    "start DATE": "2027-01-15",
  });
});

test("a list with unsound rows is refused whole, each problem under its row and naming its line, the batch's own problems once; nothing is stored", async () => {
  const ws = uuidv7();
  const templateId = await offerTemplate(ws);
  const err = await rejection(
    h.requests.startBulkSend({
      workspaceId: ws,
      templateId,
      title: "",
      rows: [
        row(2),
        { ...row(3), recipients: [{ name: "No Mail", email: "not-an-address", role: "Client" }] },
        row(4, { Company: "Acme", Salary: "1" }),
        row(5, { Amount: "lots" }),
        { ...row(6), recipients: [{ name: "Wrong Role", email: "w@example.com", role: "Witness" }] },
        {
          ...row(7),
          recipients: [{ name: "Coded", email: "c@example.com", role: "Client", accessCode: "1234" }],
        },
      ],
      actor,
    }),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  const violations = fieldViolations(err);
  // The listed problem (access codes) is found before the rows are checked against the template.
  expect(violations).toEqual([
    {
      path: "rows[5].recipients[0].accessCode",
      message: "line 7: a bulk send takes no access codes; use emailCode",
    },
  ]);
  const again = fieldViolations(
    await rejection(
      h.requests.startBulkSend({
        workspaceId: ws,
        templateId,
        title: "",
        rows: [
          row(2),
          { ...row(3), recipients: [{ name: "No Mail", email: "not-an-address", role: "Client" }] },
          row(4, { Company: "Acme", Salary: "1" }),
          row(5, { Amount: "lots" }),
          { ...row(6), recipients: [{ name: "Wrong Role", email: "w@example.com", role: "Witness" }] },
        ],
        actor,
      }),
    ),
  );
  expect(again.filter((v) => v.path === "title")).toHaveLength(1);
  const byRow = again.filter((v) => v.path.startsWith("rows"));
  expect(byRow.map((v) => v.path.replace(/\..*/, ""))).toEqual(
    expect.arrayContaining(["rows[1]", "rows[2]", "rows[3]", "rows[4]"]),
  );
  expect(byRow.some((v) => v.path.startsWith("rows[0]"))).toBe(false);
  expect(byRow.find((v) => v.path === "rows[2].mergeFields.Salary")?.message).toMatch(
    /^line 4: no text, number or date field is labelled so; the template's are "Company", "Amount", "Start date"$/,
  );
  expect(byRow.find((v) => v.path === "rows[3].mergeFields.Amount")?.message).toBe(
    "line 5: must be a number, such as 42 or 3.5",
  );
  expect(byRow.find((v) => v.path.startsWith("rows[1].recipients[0].email"))?.message).toMatch(/^line 3: /);
  expect(byRow.find((v) => v.path.startsWith("rows[4]"))?.message).toMatch(/^line 6: .*Client/);
  const { bulkSends } = await h.requests.listBulkSends({ workspaceId: ws, pageSize: 10 });
  expect(bulkSends).toEqual([]);
});

test("a list over 1000 rows, or with a line given twice, is refused before the template is read", async () => {
  const ws = uuidv7();
  const rows = Array.from({ length: 1001 }, (_, i) => row(i + 2));
  const tooMany = fieldViolations(
    await rejection(
      h.requests.startBulkSend({ workspaceId: ws, templateId: uuidv7(), title: "T", rows, actor }),
    ),
  );
  expect(tooMany).toEqual([{ path: "rows", message: "holds 1001 rows; a bulk send takes at most 1000" }]);
  const twice = fieldViolations(
    await rejection(
      h.requests.startBulkSend({
        workspaceId: ws,
        templateId: uuidv7(),
        title: "T",
        rows: [row(2), row(2)],
        actor,
      }),
    ),
  );
  expect(twice).toEqual([{ path: "rows[1].line", message: "line 2 is given twice" }]);
});

test("a start retried with its operation key answers the first batch and makes no second request", async () => {
  const ws = uuidv7();
  const templateId = await offerTemplate(ws);
  const input = {
    workspaceId: ws,
    templateId,
    title: "Offer",
    rows: [row(2), row(3)],
    actor,
    operationKey: "retry-1",
  };
  const first = (await h.requests.startBulkSend(input)).bulkSend;
  const second = (await h.requests.startBulkSend(input)).bulkSend;
  expect(second?.id).toBe(first?.id);
  const worker = await paused();
  await worker.module.start();
  try {
    await finished(ws, first?.id as string);
  } finally {
    await worker.module.stop();
  }
  expect(await requestsOf(ws)).toHaveLength(2);
  expect((await h.requests.listBulkSends({ workspaceId: ws, pageSize: 10 })).total).toBe(1);
});

test("after a crash, a row whose request was made but not recorded records that request, and a row a dead replica held is sent once its lease is let go", async () => {
  const { ws, batchId } = await waitingBatch([row(2), row(3), row(4)], "Offer after a crash");
  // What a worker that died leaves: line 2's request made, the row still pending and leased (expired);
  // line 3 leased for an hour by a replica that is gone.
  const { rows } = await h.db.query<{ input: Uint8Array }>(
    "SELECT input FROM bulk_send_rows WHERE bulk_send_id = $1 AND line = 2",
    [batchId],
  );
  const input = fromBinary(CreateSignatureRequestRequestSchema, rows[0]?.input as Uint8Array);
  expect(input.operationKey).toBe(rowOperationKey(batchId, 2));
  const { signatureRequest: madeBeforeCrash } = await h.requests.createSignatureRequest(input);
  await h.db.query(
    "UPDATE bulk_send_rows SET attempts = 1, claimed_until = now() - interval '1 second' WHERE bulk_send_id = $1 AND line = 2",
    [batchId],
  );
  await h.db.query(
    "UPDATE bulk_send_rows SET attempts = 1, claimed_until = now() + interval '1 hour' WHERE bulk_send_id = $1 AND line = 3",
    [batchId],
  );
  // The only replica on its database (standalone) knows no one else holds a lease.
  const restarted = await h.buildModule({ onlyReplica: true });
  await restarted.start();
  try {
    expect(await finished(ws, batchId)).toMatchObject({ status: "completed", sent: 3 });
    // Its e-mails are its own sender's to hand over.
    await restarted.mailIdle();
  } finally {
    await restarted.stop();
  }
  const { rows: results } = await h.requests.listBulkSendRows({
    workspaceId: ws,
    bulkSendId: batchId,
    pageSize: 10,
  });
  expect(results[0]?.signatureRequestId).toBe(madeBeforeCrash?.id);
  expect(await requestsOf(ws)).toHaveLength(3);
  // Mails of this batch only: other tests write to the same addresses.
  const invited = (await h.mails()).filter(
    (m) => m.subject === "Please sign: \u2068Offer after a crash\u2069",
  );
  expect(invited.map((m) => m.to).sort()).toEqual([
    "client2@example.com",
    "client3@example.com",
    "client4@example.com",
  ]);
});

test("a cancelled batch sends none of its rows still waiting, lists them cancelled, and cancelling it again changes nothing", async () => {
  const { ws, batchId, stopped } = await waitingBatch([row(2), row(3), row(4)]);
  const cancelled = (await h.requests.cancelBulkSend({ workspaceId: ws, bulkSendId: batchId, actor }))
    .bulkSend;
  expect(cancelled).toMatchObject({ status: "cancelled", cancelled: 3, pending: 0, sent: 0 });
  expect(
    (await h.requests.cancelBulkSend({ workspaceId: ws, bulkSendId: batchId, actor })).bulkSend,
  ).toMatchObject({ status: "cancelled", cancelled: 3 });
  await stopped.module.start();
  await stopped.module.bulkSendIdle();
  await stopped.module.stop();
  expect(await requestsOf(ws)).toHaveLength(0);
  const { rows, total } = await h.requests.listBulkSendRows({
    workspaceId: ws,
    bulkSendId: batchId,
    status: "cancelled",
    pageSize: 2,
  });
  expect([rows.map((r) => r.line), total]).toEqual([[2, 3], 3]);
});

test("a row the service refuses when its turn comes fails with the reason, and the others are sent", async () => {
  const { ws, batchId, stopped } = await waitingBatch([row(2), row(3)]);
  // A row stored with a request the service refuses, as one would be after the rules tightened.
  const { rows } = await h.db.query<{ input: Uint8Array }>(
    "SELECT input FROM bulk_send_rows WHERE bulk_send_id = $1 AND line = 3",
    [batchId],
  );
  const input = fromBinary(CreateSignatureRequestRequestSchema, rows[0]?.input as Uint8Array);
  input.mergeFields = { Amount: "99999" };
  const { toBinary } = await import("@bufbuild/protobuf");
  await h.db.query("UPDATE bulk_send_rows SET input = $2 WHERE bulk_send_id = $1 AND line = 3", [
    batchId,
    Buffer.from(toBinary(CreateSignatureRequestRequestSchema, input)),
  ]);
  await stopped.module.start();
  try {
    expect(await finished(ws, batchId)).toMatchObject({ status: "completed", sent: 1, failed: 1 });
  } finally {
    await stopped.module.stop();
  }
  const { rows: failed } = await h.requests.listBulkSendRows({
    workspaceId: ws,
    bulkSendId: batchId,
    status: "failed",
    pageSize: 10,
  });
  expect(failed.map((r) => [r.line, r.error])).toEqual([
    [3, "the merge fields do not fit the fields; mergeFields.Amount: must be at most 10000"],
  ]);
});

test("another workspace's batch is not found, and a listing of rows takes only the statuses rows have", async () => {
  const { ws, batchId } = await waitingBatch([row(2)]);
  await h.requests.cancelBulkSend({ workspaceId: ws, bulkSendId: batchId, actor });
  expect((await rejection(h.requests.getBulkSend({ workspaceId: uuidv7(), bulkSendId: batchId }))).code).toBe(
    Code.NotFound,
  );
  expect((await rejection(h.requests.getBulkSend({ workspaceId: ws, bulkSendId: "nope" }))).code).toBe(
    Code.NotFound,
  );
  const bad = await rejection(
    h.requests.listBulkSendRows({
      workspaceId: ws,
      bulkSendId: batchId,
      status: "done",
      pageSize: 10,
    }),
  );
  expect([bad.code, bad.rawMessage]).toEqual([
    Code.InvalidArgument,
    "status must be one of pending, sent, failed, cancelled",
  ]);
});

test("two workspaces' bulk sends take turns: a one-row batch started after another workspace's long one is sent after its first row, not its last", async () => {
  const long = await waitingBatch([row(2), row(3), row(4), row(5)], "Long batch");
  const short = await waitingBatch([row(2)], "Short batch");
  const worker = await h.buildModule({ bulkSend: { concurrency: 1, pollIntervalMs: 3_600_000 } });
  await worker.start();
  try {
    await finished(long.ws, long.batchId);
    await finished(short.ws, short.batchId);
  } finally {
    await worker.stop();
  }
  const { rows } = await h.db.query<{ bulk_send_id: string; line: number }>(
    "SELECT bulk_send_id, line FROM bulk_send_rows WHERE bulk_send_id = ANY($1::uuid[]) ORDER BY done_at",
    [[long.batchId, short.batchId]],
  );
  expect(rows.map((r) => `${r.bulk_send_id === long.batchId ? "long" : "short"} ${r.line}`)).toEqual([
    "long 2",
    "short 2",
    "long 3",
    "long 4",
    "long 5",
  ]);
});

test("a row that meets a service that does not answer is tried again after a wait, then fails saying so without the fault's own words", async () => {
  const { ws, batchId } = await waitingBatch([row(2)]);
  let claims = 0;
  const unreachable = {
    ...h.documents,
    claimDocument: async () => {
      claims += 1;
      throw new ConnectError("connect ECONNREFUSED 10.1.2.3:8443", Code.Unavailable);
    },
  } as typeof h.documents;
  const faulty = await h.buildModule({
    documents: unreachable,
    bulkSend: { maxAttempts: 3, retryBaseMs: 20, pollIntervalMs: 20 },
  });
  await faulty.start();
  try {
    expect(await finished(ws, batchId)).toMatchObject({ status: "completed", failed: 1 });
  } finally {
    await faulty.stop();
  }
  expect(claims).toBe(3);
  const { rows } = await h.requests.listBulkSendRows({ workspaceId: ws, bulkSendId: batchId, pageSize: 10 });
  expect(rows[0]?.error).toBe("the request could not be made: a service did not answer (tried 3 times)");
});

test("one merge label given twice with two values, differing only in case, is refused rather than one kept", async () => {
  const ws = uuidv7();
  const templateId = await offerTemplate(ws);
  const violations = fieldViolations(
    await rejection(
      h.requests.startBulkSend({
        workspaceId: ws,
        templateId,
        title: "Offer",
        rows: [row(2, { Company: "Acme", company: "Acme GmbH" })],
        actor,
      }),
    ),
  );
  expect(violations).toEqual([
    {
      path: "rows[0].mergeFields.company",
      message:
        "line 2: is given twice, with another value, under a label that differs only in case or spaces",
    },
  ]);
});
