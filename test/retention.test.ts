/**
 * Retention and legal holds over HTTP: the workspace's retention read and replaced with the other
 * settings (out of range refused naming the field), a legal hold placed and released in both route
 * families and audited with who and why — each answer as the OpenAPI document says — and, where the
 * test can date a request's end back in its database (distributed mode), the documents of a request
 * ended longer ago than the retention deleted by the service's own sweep, on hold not.
 */
import { unzipSync } from "fflate";
import pg from "pg";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const ENV = { COUNTERSIGN_RETENTION_SWEEP_SECONDS: "0.5" };
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: ENV })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: ENV })]);
afterAll(() => infra?.close());

interface RequestBody {
  id: string;
  documentIds: string[];
  legalHold: { reason: string; placedBy: string; placedAt: string } | null;
  documentsDeletedAt: string | null;
}

describe.each(modes)("%s mode: retention", (mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string; accountId: string };

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "retention")).stdout) as typeof key;
  }, 180_000);
  afterAll(() => deployment?.destroy());

  const api = (path: string, init: Parameters<typeof call>[2] = {}) =>
    call(gateway, `/api/v1${path}`, { key: key.secret, ...init });

  /** A request of an uploaded PDF, cancelled: ended, its document its own. */
  async function cancelledRequest(): Promise<RequestBody> {
    const uploaded = await api("/documents/upload?filename=offer.pdf", {
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf" },
    });
    const documentId = (uploaded.body as { id: string }).id;
    const created = await api("/signature-requests", {
      method: "POST",
      json: {
        title: "Offer",
        documentIds: [documentId],
        recipients: [{ name: "Cy", email: "cy@example.com", role: "Candidate" }],
        fields: [{ type: "signature", role: "Candidate", page: 1, x: 72, y: 600, width: 200, height: 40 }],
      },
    });
    expect(created.status).toBe(201);
    const cancelled = await api(`/signature-requests/${(created.body as RequestBody).id}/cancel`, {
      method: "POST",
      json: { reason: "withdrawn" },
    });
    return cancelled.body as RequestBody;
  }

  test("the retention is read and replaced with the other settings, and refused out of range naming the field", async () => {
    const put = await call(gateway, `/v1/accounts/${key.accountId}/request-settings`, {
      key: key.secret,
      method: "PUT",
      json: { reminderEveryDays: 0, expiryWarningDays: 2, retentionDays: 90, retentionDeletesEvidence: true },
    });
    expect(put.status).toBe(200);
    expectDocumented("put", "/v1/accounts/{accountId}/request-settings", 200, put.body);
    expect((await api("/request-settings")).body).toEqual({
      reminderEveryDays: 0,
      expiryWarningDays: 2,
      retentionDays: 90,
      retentionDeletesEvidence: true,
      approverUserId: null,
    });
    for (const retentionDays of [0, 3651]) {
      const refused = await api("/request-settings", {
        method: "PUT",
        json: { reminderEveryDays: 0, expiryWarningDays: 2, retentionDays },
      });
      expect(refused.status).toBe(422);
      expectDocumented("put", "/api/v1/request-settings", 422, refused.body);
      expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
        "retentionDays",
      ]);
    }
    // Without a retention, documents are kept for good.
    await api("/request-settings", { method: "PUT", json: { reminderEveryDays: 0, expiryWarningDays: 2 } });
    expect((await api("/request-settings")).body).toMatchObject({
      retentionDays: null,
      retentionDeletesEvidence: false,
      approverUserId: null,
    });
  });

  test("a legal hold is placed and released in both route families, audited with who and why", async () => {
    const request = await cancelledRequest();
    const placed = await call(
      gateway,
      `/v1/accounts/${key.accountId}/signature-requests/${request.id}/legal-hold`,
      {
        key: key.secret,
        method: "POST",
        json: { reason: "Dispute 2026-114" },
      },
    );
    expect(placed.status).toBe(200);
    expectDocumented(
      "post",
      "/v1/accounts/{accountId}/signature-requests/{requestId}/legal-hold",
      200,
      placed.body,
    );
    expect((placed.body as RequestBody).legalHold).toMatchObject({
      reason: "Dispute 2026-114",
      placedBy: "retention",
    });
    const empty = await api(`/signature-requests/${request.id}/legal-hold`, {
      method: "POST",
      json: { reason: "" },
    });
    expect(empty.status).toBe(422);
    const released = await api(`/signature-requests/${request.id}/legal-hold`, { method: "DELETE" });
    expect(released.status).toBe(200);
    expectDocumented("delete", "/api/v1/signature-requests/{requestId}/legal-hold", 200, released.body);
    expect((released.body as RequestBody).legalHold).toBeNull();
    const trail = (await api(`/signature-requests/${request.id}/audit-trail`)).body as {
      items: { action: string; actor: { name?: string }; details: { reason?: string } }[];
    };
    expect(trail.items.slice(-2).map((e) => [e.action, e.actor.name, e.details.reason])).toEqual([
      ["legal_hold_placed", "retention", "Dispute 2026-114"],
      ["legal_hold_released", "retention", "Dispute 2026-114"],
    ]);
    const unknown = await api("/signature-requests/00000000-0000-7000-8000-000000000000/legal-hold", {
      method: "POST",
      json: { reason: "x" },
    });
    expect(unknown.status).toBe(404);
  });

  if (mode !== "distributed") return;

  test("a request ended longer ago than the retention has its documents deleted by the sweep; one on hold keeps them", async () => {
    await api("/request-settings", {
      method: "PUT",
      json: { reminderEveryDays: 0, expiryWarningDays: 2, retentionDays: 7 },
    });
    const [due, held] = [await cancelledRequest(), await cancelledRequest()];
    await api(`/signature-requests/${held.id}/legal-hold`, { method: "POST", json: { reason: "Audit" } });
    const url = new URL(infra?.postgresUrl as string);
    url.pathname = `/${deployment.databasePrefix}requests`;
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      await db.query(
        "UPDATE signature_requests SET cancelled_at = now() - interval '8 days' WHERE id = ANY($1::uuid[])",
        [[due.id, held.id]],
      );
    } finally {
      await db.end();
    }
    const deleted = await eventually(async () => {
      const now = (await api(`/signature-requests/${due.id}`)).body as RequestBody;
      return now.documentsDeletedAt ? now : undefined;
    }, 30_000);
    expectDocumented("get", "/api/v1/signature-requests/{requestId}", 200, deleted);
    expect((await api(`/documents/${due.documentIds[0]}`)).status).toBe(404);
    const trail = (await api(`/signature-requests/${due.id}/audit-trail`)).body as {
      items: { action: string; details: { retentionDays?: number } }[];
    };
    expect(trail.items.at(-1)).toMatchObject({
      action: "documents_deleted",
      details: { retentionDays: 7 },
    });
    // The evidence package holds what is left, and says why the documents are not in it.
    const zip = await fetch(`${gateway}/api/v1/signature-requests/${due.id}/evidence-package`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files).some((name) => name.startsWith("originals/"))).toBe(false);
    expect(Buffer.from(files["README.txt"] as Uint8Array).toString("utf8")).toContain(
      "No documents: the workspace's retention deleted them",
    );
    // The held request, ended as long ago, keeps its documents.
    expect(((await api(`/signature-requests/${held.id}`)).body as RequestBody).documentsDeletedAt).toBeNull();
    expect((await api(`/documents/${held.documentIds[0]}`)).status).toBe(200);
  });
});
