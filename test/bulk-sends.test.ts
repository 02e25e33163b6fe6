/**
 * Bulk send over HTTP, as a sender's integration and the console use it: a CSV file's rows become
 * sent requests with their merge values in place; a file or list with problems is refused naming
 * each line; a retried start (same Idempotency-Key) starts nothing more; progress, rows and cancel
 * in both route families; a signer sees the sender's value, signs without touching it, and the
 * sealed PDF carries it. Every answer is checked against the OpenAPI document.
 */
import { type Deployment, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { expectDocumented } from "./support/openapi.js";
import { pdfText } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { SignerBrowser } from "./support/signer-browser.js";

let deployment: Deployment;
let gateway: string;
let api: string;
let key: { secret: string; accountId: string };
let templateId: string;

interface Batch {
  id: string;
  status: string;
  total: number;
  sent: number;
  failed: number;
  pending: number;
  cancelled: number;
}
interface Problem {
  errors: { path: string; message: string }[];
}

beforeAll(async () => {
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  api = `${gateway}/api/v1`;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "bulk")).stdout) as typeof key;
  const upload = await call(api, "/documents/upload?filename=offer.pdf", {
    key: key.secret,
    method: "POST",
    body: await makePdf(1),
    headers: { "content-type": "application/pdf" },
  });
  const at = { page: 1, x: 60, width: 220, height: 28, role: "Client" };
  const template = await call(api, "/templates", {
    key: key.secret,
    method: "POST",
    json: {
      name: "Offer",
      documentId: (upload.body as { id: string }).id,
      roles: [{ name: "Client" }],
      fields: [
        { ...at, type: "signature", y: 620, height: 40 },
        { ...at, type: "text", y: 560, label: "Company", required: true },
        { ...at, type: "number", y: 520, label: "Amount", required: false },
      ],
    },
  });
  templateId = (template.body as { id: string }).id;
});
afterAll(() => deployment?.destroy());

const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  call(api, path, { key: key.secret, method: "POST", json, headers });

async function finished(id: string): Promise<Batch> {
  return eventually(async () => {
    const got = await call(api, `/bulk-sends/${id}`, { key: key.secret });
    const batch = got.body as Batch;
    return batch.status === "running" ? undefined : batch;
  }, 30_000);
}

test("a CSV file's lines become sent requests, each with its row's values in its fields; rows and batches are listed", async () => {
  const csv = [
    "Client Name,client email,Company,Amount",
    "Ada Lovelace,ada@example.com,Analytical Engines,1200",
    'Bob Babbage,bob@example.com,"Difference, Ltd",',
    "",
    'Cy Clerk,cy@example.com,"Two',
    'Lines Inc",7',
  ].join("\r\n");
  const started = await post("/bulk-sends", { templateId, title: "Offer letter", csv });
  expect(started.status).toBe(202);
  expectDocumented("post", "/api/v1/bulk-sends", 202, started.body);
  const batch = await finished((started.body as Batch).id);
  expect(batch).toMatchObject({ status: "completed", total: 3, sent: 3, failed: 0, pending: 0 });
  expectDocumented("get", "/api/v1/bulk-sends/{bulkSendId}", 200, batch);

  const rows = await call(gateway, `/v1/accounts/${key.accountId}/bulk-sends/${batch.id}/rows`, {
    key: key.secret,
  });
  expectDocumented("get", "/v1/accounts/{accountId}/bulk-sends/{bulkSendId}/rows", 200, rows.body);
  const items = (rows.body as { items: { line: number; signatureRequestId: string; recipients: string[] }[] })
    .items;
  expect(items.map((r) => [r.line, r.recipients])).toEqual([
    [2, ["Ada Lovelace <ada@example.com>"]],
    [3, ["Bob Babbage <bob@example.com>"]],
    [5, ["Cy Clerk <cy@example.com>"]],
  ]);
  const third = await call(api, `/signature-requests/${items[2]?.signatureRequestId}`, { key: key.secret });
  expectDocumented("get", "/api/v1/signature-requests/{requestId}", 200, third.body);
  const fields = (third.body as { status: string; fields: { label: string; prefilled?: string }[] }).fields;
  expect(fields.map((f) => [f.label, f.prefilled])).toEqual([
    ["", undefined],
    ["Company", "Two\r\nLines Inc"],
    ["Amount", "7"],
  ]);
  const second = await call(api, `/signature-requests/${items[1]?.signatureRequestId}`, { key: key.secret });
  expect((second.body as { fields: { prefilled?: string }[] }).fields.map((f) => f.prefilled)).toEqual([
    undefined,
    "Difference, Ltd",
    undefined,
  ]);
  const listed = await call(api, "/bulk-sends?pageSize=5", { key: key.secret });
  expectDocumented("get", "/api/v1/bulk-sends", 200, listed.body);
  expect((listed.body as { items: { id: string }[] }).items.map((b) => b.id)).toContain(batch.id);
});

test("a CSV file with an unknown column, a missing one, or a row of the wrong width is refused naming the line; nothing is sent", async () => {
  const before = (await call(api, "/bulk-sends", { key: key.secret })).body as { totalCount: number };
  const header = await post("/bulk-sends", { templateId, title: "T", csv: "Client name,Salary\nAda,1\n" });
  expect(header.status).toBe(422);
  expectDocumented("post", "/api/v1/bulk-sends", 422, header.body);
  expect((header.body as Problem).errors.map((e) => e.message)).toEqual([
    'line 1, column 2: "Salary" is neither a role\'s name or email ("Client name", "Client email") nor the label of a text, number or date field ("Company", "Amount")',
    'line 1: the column "Client email" is missing',
  ]);
  const width = await post("/bulk-sends", {
    templateId,
    title: "T",
    csv: "Client name,Client email,Company\nAda,ada@example.com,Acme\nBob,bob@example.com\n",
  });
  expect((width.body as Problem).errors).toEqual([
    { path: "csv", message: "line 3: has 2 cells; the header has 3" },
  ]);
  const quote = await post("/bulk-sends", {
    templateId,
    title: "T",
    csv: 'Client name,Client email\n"Ada,ada@example.com\n',
  });
  expect(quote.status).toBe(422);
  expect((quote.body as Problem).errors[0]?.message).toMatch(/^line \d+: /);
  const rows = await post("/bulk-sends", {
    templateId,
    title: "T",
    csv: "Client name,Client email,Company,Amount\nAda,ada@example.com,Acme,12\nBob,not-an-address,Bee,12\nCy,cy@example.com,,many\n",
  });
  expect(rows.status).toBe(422);
  expect((rows.body as Problem).errors).toEqual([
    { path: "rows[1].recipients[0].email", message: expect.stringMatching(/^line 3: /) },
    { path: "rows[2].mergeFields.Amount", message: "line 4: must be a number, such as 42 or 3.5" },
  ]);
  expect(
    ((await call(api, "/bulk-sends", { key: key.secret })).body as { totalCount: number }).totalCount,
  ).toBe(before.totalCount);
});

test("a JSON list retried with its Idempotency-Key starts one batch; a batch is cancelled in either family", async () => {
  const body = {
    templateId,
    title: "Retried offer",
    rows: [
      {
        recipients: [{ name: "Dee", email: "dee@example.com", role: "client" }],
        mergeFields: { company: "Dee Co" },
      },
      {
        recipients: [{ name: "Eve", email: "eve@example.com", role: "Client" }],
        mergeFields: { Company: "Eve Co" },
      },
    ],
  };
  const first = await post("/bulk-sends", body, { "idempotency-key": "bulk-retry-1" });
  const again = await post("/bulk-sends", body, { "idempotency-key": "bulk-retry-1" });
  expect(again.status).toBe(202);
  expect((again.body as Batch).id).toBe((first.body as Batch).id);
  await finished((first.body as Batch).id);
  const requests = await call(api, "/signature-requests?q=dee%40example.com", { key: key.secret });
  expect((requests.body as { totalCount: number }).totalCount).toBe(1);

  const cancelled = await call(
    gateway,
    `/v1/accounts/${key.accountId}/bulk-sends/${(first.body as Batch).id}/cancel`,
    {
      key: key.secret,
      method: "POST",
    },
  );
  expect(cancelled.status).toBe(200);
  expectDocumented("post", "/v1/accounts/{accountId}/bulk-sends/{bulkSendId}/cancel", 200, cancelled.body);
  expect(cancelled.body).toMatchObject({ status: "completed", sent: 2 });
  const neither = await post("/bulk-sends", { templateId, title: "T" });
  expect((neither.body as Problem).errors).toEqual([
    { path: "rows", message: "give `rows` or `csv`, one of the two" },
  ]);
  const missing = await call(api, `/bulk-sends/${crypto.randomUUID()}`, { key: key.secret });
  expect(missing.status).toBe(404);
});

test("a signer sees the sender's value in place, signs without changing it, and the sealed PDF carries it", async () => {
  const started = await post("/bulk-sends", {
    templateId,
    title: "Embedded offer",
    rows: [
      {
        recipients: [{ name: "Fay Signer", email: "fay@example.com", role: "Client", clientUserId: "fay" }],
        mergeFields: { Company: "Fay & Daughters", Amount: "950" },
      },
    ],
  });
  const batch = await finished((started.body as Batch).id);
  const rows = await call(api, `/bulk-sends/${batch.id}/rows?status=sent`, { key: key.secret });
  const requestId = (rows.body as { items: { signatureRequestId: string }[] }).items[0]?.signatureRequestId;
  const request = (await call(api, `/signature-requests/${requestId}`, { key: key.secret })).body as {
    recipients: { id: string }[];
  };
  const link = await post("/embedded-signing-url", { requestId, recipientId: request.recipients[0]?.id });
  const signer = new SignerBrowser(gateway);
  await signer.open((link.body as { url: string }).url);
  const session = (await signer.show()).body as {
    fields: { id: string; type: string; prefilled?: string }[];
  };
  expect(session.fields.map((f) => [f.type, f.prefilled])).toEqual([
    ["signature", undefined],
    ["text", "Fay & Daughters"],
    ["number", "950"],
  ]);
  const signature = session.fields[0]?.id as string;
  const signed = await signer.call("/sign/api/submit", {
    consent: true,
    values: { [signature]: { kind: "typed", text: "Fay Signer" } },
  });
  expect(signed.status).toBe(200);
  const done = await eventually(async () => {
    const got = (await call(api, `/signature-requests/${requestId}`, { key: key.secret })).body as {
      status: string;
      signedDocumentId: string | null;
    };
    return got.status === "completed" ? got : undefined;
  }, 30_000);
  const sealed = await fetch(`${api}/documents/${done.signedDocumentId}/download`, {
    headers: { authorization: `Bearer ${key.secret}` },
  });
  const words = (await pdfText(new Uint8Array(await sealed.arrayBuffer()))).replace(/\s+/g, " ");
  expect(words).toContain("Fay & Daughters");
  expect(words).toContain("950");
});
