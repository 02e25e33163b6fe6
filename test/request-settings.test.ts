/**
 * A workspace's defaults for new requests over HTTP, as a platform team sets them with a key: read
 * and replaced in both route families, out-of-range values refused naming the field, a new request
 * taking the default unless it names its own schedule — each answer as the OpenAPI document says.
 */
import { type Deployment, startStandalone } from "./support/deployments.js";
import { embeddedSigningLink } from "./support/embedded-signer.js";
import { call } from "./support/http.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

let deployment: Deployment;
let gateway: string;
let key: { secret: string; accountId: string };

beforeAll(async () => {
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "settings")).stdout) as typeof key;
});
afterAll(() => deployment?.destroy());

test("the defaults are read and replaced in both route families, and refused out of range naming the field", async () => {
  const first = await call(gateway, "/api/v1/request-settings", { key: key.secret });
  expect(first.body).toEqual({
    reminderEveryDays: 0,
    expiryWarningDays: 2,
    retentionDays: null,
    retentionDeletesEvidence: false,
    approverUserId: null,
  });
  expectDocumented("get", "/api/v1/request-settings", 200, first.body);

  const put = await call(gateway, `/v1/accounts/${key.accountId}/request-settings`, {
    key: key.secret,
    method: "PUT",
    json: { reminderEveryDays: 7, expiryWarningDays: 3 },
  });
  expect(put.status).toBe(200);
  expectDocumented("put", "/v1/accounts/{accountId}/request-settings", 200, put.body);
  expect((await call(gateway, "/api/v1/request-settings", { key: key.secret })).body).toEqual({
    reminderEveryDays: 7,
    expiryWarningDays: 3,
    retentionDays: null,
    retentionDeletesEvidence: false,
    approverUserId: null,
  });

  const refused = await call(gateway, "/api/v1/request-settings", {
    key: key.secret,
    method: "PUT",
    json: { reminderEveryDays: 31, expiryWarningDays: 3 },
  });
  expect(refused.status).toBe(422);
  expectDocumented("put", "/api/v1/request-settings", 422, refused.body);
  expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
    "reminderEveryDays",
  ]);
  const missing = await call(gateway, "/api/v1/request-settings", {
    key: key.secret,
    method: "PUT",
    json: { reminderEveryDays: 2 },
  });
  expect(missing.status).toBe(422);
});

test("a new request takes the workspace's schedule unless it names its own, and says so", async () => {
  await call(gateway, "/api/v1/request-settings", {
    key: key.secret,
    method: "PUT",
    json: { reminderEveryDays: 4, expiryWarningDays: 2 },
  });
  const { request } = await embeddedSigningLink(gateway, key.secret);
  const got = await call(gateway, `/api/v1/signature-requests/${request.id}`, { key: key.secret });
  expect(got.body).toMatchObject({ reminderEveryDays: 4, expiryWarningSentAt: null });
  expectDocumented("get", "/api/v1/signature-requests/{requestId}", 200, got.body);

  const upload = await call(gateway, "/api/v1/documents/upload?filename=own.pdf", {
    key: key.secret,
    method: "POST",
    body: await makePdf(1),
    headers: { "content-type": "application/pdf" },
  });
  const own = (schedule: number) =>
    call(gateway, "/api/v1/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: "Own schedule",
        documentIds: [(upload.body as { id: string }).id],
        fields: [{ type: "signature", role: "Client", page: 1, x: 60, y: 600, width: 180, height: 40 }],
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Client" }],
        reminderEveryDays: schedule,
      },
    });
  expect(((await own(1)).body as { reminderEveryDays: number }).reminderEveryDays).toBe(1);
  const tooOften = await own(45);
  expect(tooOften.status).toBe(422);
  expect((tooOften.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
    "reminderEveryDays",
  ]);
});
