/**
 * Retention and legal holds: an ended request's documents are deleted once the workspace's
 * retention has passed since it ended — the sealed PDF and the originals, unless a template still
 * uses them — and the deletion is the audit trail's next entry, with the certificate of completion
 * kept on its own; with the evidence deleted too, one entry starts a new chain and holds the last
 * hash of the one it replaces. A legal hold passes the request by until it is released. Time is moved
 * by dating the request's end back, not by waiting.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { Kind } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { fieldViolations, uuidv7 } from "@countersign/kit";
import { pdfText } from "../../../test/support/pdf-tools.js";
import { certificateIdOf } from "../src/retention/retention-sweep.js";
import { type Harness, rejection, startHarness, tokenOf } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const admin = {
  userId: uuidv7(),
  name: "Olga Admin",
  email: "olga@example.com",
  ip: "203.0.113.9",
  userAgent: "jest",
};

/** A request of two signers, both signed and sealed; its template still uses its document. */
async function completed(workspaceId: string) {
  const templateId = await h.template(workspaceId);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId,
    title: "Lease",
    templateId,
    recipients: [
      { name: "Ada", email: `ada.${workspaceId}@example.com`, role: "Client" },
      { name: "Bob", email: `bob.${workspaceId}@example.com`, role: "Countersigner" },
    ],
    send: true,
  });
  const request = signatureRequest as NonNullable<typeof signatureRequest>;
  for (const email of [`ada.${workspaceId}@example.com`, `bob.${workspaceId}@example.com`]) {
    const link = await eventually(async () => (await h.mails()).find((m) => m.to === email && m.link)?.link);
    const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(link) });
    const view = await h.requests.getSigningSession({ sessionToken });
    await h.requests.submitSignature({
      sessionToken,
      consent: true,
      values: {
        [view.signatureRequest?.fields[0]?.id as string]: {
          value: { case: "typed", value: { text: email } },
        },
      },
    });
  }
  return eventually(async () => {
    const { signatureRequest: now } = await h.requests.getSignatureRequest({
      workspaceId,
      requestId: request.id,
    });
    return now?.status === "completed" && now.signedDocumentId ? now : undefined;
  });
}

/** A draft made from documents of its own (no template; one unless `count`), then cancelled. */
async function cancelled(workspaceId: string, count = 1) {
  const documentIds: string[] = [];
  for (let i = 0; i < count; i++) documentIds.push(await h.upload(workspaceId));
  const documentId = documentIds[0] as string;
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId,
    title: "Offer",
    documentIds,
    recipients: [{ name: "Cy", email: "cy@example.com", role: "Candidate" }],
    fields: [
      {
        type: "signature",
        role: "Candidate",
        documentId,
        page: 1,
        x: 72,
        y: 600,
        width: 200,
        height: 40,
        required: true,
      },
    ],
  });
  const request = signatureRequest as NonNullable<typeof signatureRequest>;
  await h.requests.cancelSignatureRequest({ workspaceId, requestId: request.id, reason: "withdrawn" });
  return { request, documentId, documentIds };
}

/** Moves the request's end `days` back. */
async function endedDaysAgo(requestId: string, days: number): Promise<void> {
  await h.db.query(
    `UPDATE signature_requests SET completed_at = completed_at - make_interval(days => $2),
            cancelled_at = cancelled_at - make_interval(days => $2) WHERE id = $1`,
    [requestId, days],
  );
}

async function retain(
  workspaceId: string,
  retentionDays: number | undefined,
  retentionDeletesEvidence = false,
) {
  await h.requests.updateRequestSettings({
    workspaceId,
    settings: { reminderEveryDays: 0, expiryWarningDays: 2, retentionDays, retentionDeletesEvidence },
  });
}

async function download(workspaceId: string, documentId: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const part of h.documents.downloadDocument({ workspaceId, documentId }))
    if (part.part.case === "chunk") chunks.push(part.part.value);
  return Buffer.concat(chunks);
}

const exists = (workspaceId: string, documentId: string) =>
  h.documents.getDocument({ workspaceId, documentId }).then(
    () => true,
    (err: unknown) => (ConnectError.from(err).code === Code.NotFound ? false : Promise.reject(err)),
  );

test("the settings take a retention of 1 to 3650 days, or none, and say so of anything else", async () => {
  const ws = uuidv7();
  await retain(ws, 30, true);
  expect((await h.requests.getRequestSettings({ workspaceId: ws })).settings).toMatchObject({
    retentionDays: 30,
    retentionDeletesEvidence: true,
  });
  for (const days of [0, 3651]) {
    const err = await rejection(retain(ws, days));
    expect(fieldViolations(err)).toEqual([
      {
        path: "retentionDays",
        message: "must be a whole number of days from 1 to 3650, or absent to keep documents",
      },
    ]);
  }
  await retain(ws, undefined);
  expect((await h.requests.getRequestSettings({ workspaceId: ws })).settings?.retentionDays).toBeUndefined();
});

test("once its retention has passed, a completed request's sealed PDF goes, its template's document stays, and the trail records it with the certificate kept", async () => {
  const ws = uuidv7();
  const request = await completed(ws);
  const sealed = await download(ws, request.signedDocumentId);
  await retain(ws, 30);
  await endedDaysAgo(request.id, 29);
  expect(await h.module.sweepRetention()).toBe(0);
  await endedDaysAgo(request.id, 2);
  expect(await h.module.sweepRetention()).toBe(1);

  const { signatureRequest: after } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect(after?.documentsDeleteTime).toBeDefined();
  expect(after?.certificateDocumentId).toBe(certificateIdOf(request.id));
  expect(await exists(ws, request.signedDocumentId)).toBe(false);
  // The template made from the document still uses it.
  expect(await exists(ws, request.documentIds[0] as string)).toBe(true);
  const certificate = await h.documents.getDocument({
    workspaceId: ws,
    documentId: after?.certificateDocumentId as string,
  });
  // The sealed PDF's last pages, on their own: the certificate of completion.
  expect(certificate.document?.kind).toBe(Kind.CERTIFICATE);
  expect(await pdfText(await download(ws, after?.certificateDocumentId as string))).toMatch(
    /Certificate of completion/i,
  );

  const { entries, verified } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(verified).toBe(true);
  const last = entries.at(-1);
  expect([last?.action, last?.actorType]).toEqual(["documents_deleted", "system"]);
  expect(JSON.parse(last?.details ?? "{}")).toMatchObject({
    retentionDays: 30,
    auditTrail: "kept",
    certificateDocumentId: certificateIdOf(request.id),
    documents: [
      {
        documentId: request.signedDocumentId,
        role: "sealed",
        outcome: "deleted",
        filename: expect.any(String),
      },
      { documentId: request.documentIds[0], role: "original", outcome: "in_use" },
    ],
  });
  // A copy kept by a signer is still compared with the sealed PDF the service made, by its recorded hash.
  const { report } = await h.requests.verifyDocument({ pdf: sealed });
  expect(report?.stored).toMatchObject({ requestId: request.id, identical: true });
  // Done once: the next sweep passes it by.
  expect(await h.module.sweepRetention()).toBe(0);
  // The request stands behind the certificate it kept: the claims sweep leaves its claim.
  await h.module.sweepClaims(0);
  const refused = await rejection(
    h.documents.deleteDocument({ workspaceId: ws, documentId: certificateIdOf(request.id) }),
  );
  expect(refused.code).toBe(Code.FailedPrecondition);
});

test("with the evidence deleted too, the trail is one entry holding the last hash of the chain it replaces, and names nobody's files", async () => {
  const ws = uuidv7();
  const { request, documentId } = await cancelled(ws);
  const before = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  await retain(ws, 1, true);
  await endedDaysAgo(request.id, 2);
  expect(await h.module.sweepRetention()).toBe(1);
  expect(await exists(ws, documentId)).toBe(false);
  const { entries, verified } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(verified).toBe(true);
  expect(entries).toHaveLength(1);
  expect(entries[0]?.previousHash).toBe("");
  const details = JSON.parse(entries[0]?.details ?? "{}");
  expect(details).toMatchObject({
    auditTrail: "deleted",
    deletedTrail: { entries: before.entries.length, lastHash: before.entries.at(-1)?.hash },
    documents: [{ documentId, role: "original", outcome: "deleted", sha256: expect.any(String) }],
  });
  expect(details.documents[0].filename).toBeUndefined();
  const { signatureRequest } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect(signatureRequest?.certificateDocumentId).toBe("");
});

test("a legal hold passes the request by until it is released; both are audited with who and why", async () => {
  const ws = uuidv7();
  const { request, documentId } = await cancelled(ws);
  await retain(ws, 1);
  await endedDaysAgo(request.id, 5);
  const empty = await rejection(
    h.requests.placeLegalHold({ workspaceId: ws, requestId: request.id, reason: " ", actor: admin }),
  );
  expect(fieldViolations(empty)).toEqual([{ path: "reason", message: "must be 1 to 500 characters" }]);
  const { signatureRequest: held } = await h.requests.placeLegalHold({
    workspaceId: ws,
    requestId: request.id,
    reason: "Dispute 2026-114",
    actor: admin,
  });
  expect(held?.legalHold).toMatchObject({ reason: "Dispute 2026-114", placedBy: "olga@example.com" });
  expect(await h.module.sweepRetention()).toBe(0);
  expect(await exists(ws, documentId)).toBe(true);
  // While a replica holds a lease to delete a request's documents, a hold cannot keep them.
  const other = await cancelled(ws);
  await endedDaysAgo(other.request.id, 5);
  await leasedElsewhere(other.request.id, "5 minutes");
  const busy = await rejection(
    h.requests.placeLegalHold({ workspaceId: ws, requestId: other.request.id, reason: "late", actor: admin }),
  );
  expect([busy.code, busy.rawMessage]).toEqual([
    Code.FailedPrecondition,
    "the workspace's retention is deleting this request's documents at this moment: a hold can no longer keep them",
  ]);

  const { signatureRequest: released } = await h.requests.releaseLegalHold({
    workspaceId: ws,
    requestId: request.id,
    actor: admin,
  });
  expect(released?.legalHold).toBeUndefined();
  expect(await h.module.sweepRetention()).toBe(1);
  expect(await exists(ws, documentId)).toBe(false);

  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  const actions = entries.map((e) => [e.action, e.actorEmail]);
  expect(actions.slice(-3)).toEqual([
    ["legal_hold_placed", "olga@example.com"],
    ["legal_hold_released", "olga@example.com"],
    ["documents_deleted", ""],
  ]);
  // Nothing is left to hold.
  const late = await rejection(
    h.requests.placeLegalHold({ workspaceId: ws, requestId: request.id, reason: "too late", actor: admin }),
  );
  expect(late.code).toBe(Code.FailedPrecondition);
});

/** Another replica's lease on the request, lasting `left` more ("5 minutes", or "-1 minute": run out). */
async function leasedElsewhere(requestId: string, left: string): Promise<void> {
  await h.db.query(
    `UPDATE signature_requests SET retention_lease = $2, retention_lease_until = now() + $3::interval WHERE id = $1`,
    [requestId, uuidv7(), left],
  );
}

function documentsWith(
  deleteDocument: (req: { workspaceId: string; documentId: string }, n: number) => Promise<unknown>,
) {
  let deletions = 0;
  return new Proxy(h.documents, {
    get(target, name, receiver) {
      if (name !== "deleteDocument") return Reflect.get(target, name, receiver);
      return (req: { workspaceId: string; documentId: string }) => deleteDocument(req, ++deletions);
    },
  });
}

test("a request another replica holds a lease on is passed by until the lease runs out", async () => {
  const ws = uuidv7();
  const { request } = await cancelled(ws);
  await retain(ws, 1);
  await endedDaysAgo(request.id, 3);
  await leasedElsewhere(request.id, "5 minutes");
  expect(await h.module.sweepRetention()).toBe(0);
  await leasedElsewhere(request.id, "-1 minute");
  expect(await h.module.sweepRetention()).toBe(1);
});

test("a hold that lands while documents are being deleted stops the deletion before the next document, and nothing is recorded", async () => {
  const ws = uuidv7();
  const { request, documentIds } = await cancelled(ws, 2);
  await retain(ws, 1);
  await endedDaysAgo(request.id, 3);
  // The first deletion is slow enough for a hold to land (written as it would be, past the lease check).
  const replica = await h.buildModule({
    documents: documentsWith(async (req, n) => {
      const done = await h.documents.deleteDocument(req);
      if (n === 1)
        await h.db.query(
          "UPDATE signature_requests SET legal_hold_reason = 'Subpoena', legal_hold_by = 'olga@example.com', legal_hold_at = now() WHERE id = $1",
          [request.id],
        );
      return done;
    }),
  });
  expect(await replica.sweepRetention()).toBe(0);
  const { signatureRequest } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect([signatureRequest?.legalHold?.reason, signatureRequest?.documentsDeleteTime]).toEqual([
    "Subpoena",
    undefined,
  ]);
  // The first document was gone before the hold; the second is kept.
  expect([await exists(ws, documentIds[0] as string), await exists(ws, documentIds[1] as string)]).toEqual([
    false,
    true,
  ]);
});

test("a deletion cut short is finished by the next sweep: the certificate made once, what went before counted as gone", async () => {
  const ws = uuidv7();
  const request = await completed(ws);
  await retain(ws, 1);
  await endedDaysAgo(request.id, 3);
  // A replica whose documents service fails the second deletion, as an outage between the two would.
  const replica = await h.buildModule({
    documents: documentsWith((req, n) =>
      n === 2
        ? Promise.reject(new ConnectError("the documents service went away", Code.Unavailable))
        : h.documents.deleteDocument(req),
    ),
  });
  expect(await replica.sweepRetention()).toBe(0);
  expect(await exists(ws, request.signedDocumentId)).toBe(false);
  // It let the request go: the next sweep takes it, and the certificate, made by the first, is kept.
  expect(await h.module.sweepRetention()).toBe(1);
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(JSON.parse(entries.at(-1)?.details ?? "{}")).toMatchObject({
    certificateDocumentId: certificateIdOf(request.id),
    documents: [
      { documentId: request.signedDocumentId, role: "sealed", outcome: "already_deleted" },
      { documentId: request.documentIds[0], role: "original", outcome: "in_use" },
    ],
  });
  expect(await exists(ws, certificateIdOf(request.id))).toBe(true);
});

test("a request that has not ended, or a workspace that keeps its documents, is left alone", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Open",
    templateId,
    recipients: [
      { name: "Ada", email: "ada@example.com", role: "Client" },
      { name: "Bob", email: "bob@example.com", role: "Countersigner" },
    ],
    send: true,
  });
  await retain(ws, 1);
  await h.db.query("UPDATE signature_requests SET sent_at = sent_at - interval '30 days' WHERE id = $1", [
    signatureRequest?.id,
  ]);
  const other = uuidv7();
  const { request } = await cancelled(other);
  await endedDaysAgo(request.id, 4000);
  expect(await h.module.sweepRetention()).toBe(0);
});
