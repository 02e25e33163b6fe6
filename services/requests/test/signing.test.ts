/**
 * Signing through a session, at the RPC level: the first view, field checks, routing to the next
 * group, decline, and completion into one sealed, certificate-bearing document.
 */
import { Code } from "@connectrpc/connect";
import { fieldViolations, uuidv7 } from "@countersign/kit";
import { PDFDocument } from "pdf-lib";
import { makeLargePdf } from "../../../test/support/pdfs.js";
import { ATTACHMENT_LIMIT_BYTES } from "../src/completion/completions.js";
import { type Harness, rejection, startHarness, tokenOf, until } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const actor = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (test)" };
const typed = (text: string) => ({ value: { case: "typed" as const, value: { text } } });

async function sentRequest(ws: string, pdf?: Uint8Array) {
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Mutual NDA",
    templateId: await h.template(ws, pdf),
    recipients: [
      { name: "Ada Lovelace", email: "ada@example.com", role: "Client" },
      { name: "Bob Babbage", email: "bob@example.com", role: "Countersigner" },
    ],
    send: true,
  });
  return signatureRequest as NonNullable<typeof signatureRequest>;
}

async function sessionFor(email: string) {
  const mail = (await h.mails()).filter((m) => m.to === email && m.link).at(-1);
  const opened = await h.requests.openSigningLink({ token: tokenOf(mail?.link as string), actor });
  return opened;
}

test("opening a link views nothing; the session's first recorded view marks the recipient viewed, the request in progress, and emits viewed once", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  // What a mail filter does: it fetches the link, and nothing more.
  const scanned = await sessionFor("ada@example.com");
  expect(scanned.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(scanned.signatureRequest?.status).toBe("sent");
  expect(scanned.signatureRequest?.recipients[0]?.status).toBe("sent");

  const first = await sessionFor("ada@example.com");
  expect(await h.requests.recordSigningView({ sessionToken: first.sessionToken, actor })).toMatchObject({
    first: true,
  });
  expect(await h.requests.recordSigningView({ sessionToken: first.sessionToken, actor })).toMatchObject({
    first: false,
  });
  const { signatureRequest } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect(signatureRequest?.status).toBe("in_progress");
  expect(signatureRequest?.recipients[0]?.status).toBe("viewed");
  const viewed = () => h.events.filter((e) => e.type === "viewed" && e.signatureRequest?.id === request.id);
  await until(() => viewed().length > 0);
  await new Promise((r) => setTimeout(r, 200));
  expect(viewed()).toHaveLength(1);
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(entries.map((e) => e.action).filter((a) => a === "link_opened" || a === "viewed")).toEqual([
    "link_opened",
    "link_opened",
    "viewed",
  ]);
});

test("a completed request's link opens its signed document for the days configured, then says to ask the sender for a copy", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  const session = await sessionFor("ada@example.com");
  await h.db.query(
    "UPDATE signature_requests SET status = 'completed', completed_at = now() - interval '29 days' WHERE id = $1",
    [request.id],
  );
  expect(
    (await h.requests.getSigningSession({ sessionToken: session.sessionToken })).recipientId,
  ).toBeTruthy();
  await sessionFor("ada@example.com");

  await h.db.query("UPDATE signature_requests SET completed_at = now() - interval '31 days' WHERE id = $1", [
    request.id,
  ]);
  const copyGone =
    /completed on \d{4}-\d{2}-\d{2}, and its link opens the signed document for 30 days only; ask the sender for a copy/;
  const opened = await rejection(sessionFor("ada@example.com"));
  expect([opened.code, opened.rawMessage]).toEqual([
    Code.FailedPrecondition,
    expect.stringMatching(copyGone),
  ]);
  const resumed = await rejection(h.requests.getSigningSession({ sessionToken: session.sessionToken }));
  expect([resumed.code, resumed.rawMessage]).toEqual([
    Code.FailedPrecondition,
    expect.stringMatching(copyGone),
  ]);
});

test("a later signer's session shows what earlier signers filled in, where it lies, by whom; never its own fields", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  const ada = await sessionFor("ada@example.com");
  const adaView = await h.requests.getSigningSession({ sessionToken: ada.sessionToken });
  expect(adaView.filled).toEqual([]);
  const [adaField] = adaView.signatureRequest?.fields ?? [];
  await h.requests.submitSignature({
    sessionToken: ada.sessionToken,
    consent: true,
    values: { [adaField?.id as string]: typed("Ada Lovelace") },
    actor,
  });
  const bob = await sessionFor("bob@example.com");
  const bobView = await h.requests.getSigningSession({ sessionToken: bob.sessionToken });
  expect(bobView.filled.map((f) => [f.field?.id, f.field?.recipientId, f.filledBy, f.value?.value])).toEqual([
    [
      adaField?.id,
      request.recipients[0]?.id,
      "Ada Lovelace",
      { case: "typed", value: expect.objectContaining({ text: "Ada Lovelace" }) },
    ],
  ]);
  expect(bobView.signatureRequest?.fields.map((f) => f.recipientId)).toEqual([request.recipients[1]?.id]);
});

test("a session shows only its recipient's fields, and an unknown session is unauthenticated", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  const { sessionToken } = await sessionFor("ada@example.com");
  const view = await h.requests.getSigningSession({ sessionToken });
  expect(view.signatureRequest?.fields.map((f) => f.recipientId)).toEqual([request.recipients[0]?.id]);
  const err = await rejection(h.requests.getSigningSession({ sessionToken: "x".repeat(43) }));
  expect(err.code).toBe(Code.Unauthenticated);
});

test("a submit without consent, with an unknown field or a missing value is refused with every path", async () => {
  const ws = uuidv7();
  await sentRequest(ws);
  const { sessionToken } = await sessionFor("ada@example.com");
  const field = (await h.requests.getSigningSession({ sessionToken })).signatureRequest?.fields[0]?.id;
  const err = await rejection(
    h.requests.submitSignature({
      sessionToken,
      consent: false,
      values: { "no-such-field": typed("A") },
      actor,
    }),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(err)).toEqual([
    { path: "consent", message: "must be true: the signer agrees to sign electronically" },
    { path: "values.no-such-field", message: "is not one of your fields" },
    { path: `values.${field}`, message: "is required" },
  ]);
  const view = await h.requests.getSigningSession({ sessionToken });
  expect(view.signatureRequest?.recipients[0]?.status).toBe("sent");
});

/** Opens the latest link e-mailed to `email` and signs its one field with the name typed. */
async function signAs(email: string, name: string) {
  const { sessionToken } = await sessionFor(email);
  const field = (await h.requests.getSigningSession({ sessionToken })).signatureRequest?.fields[0]
    ?.id as string;
  const signed = await h.requests.submitSignature({
    sessionToken,
    consent: true,
    values: { [field]: typed(name) },
    actor,
  });
  return { sessionToken, signed };
}

test("signing routes to the next group, and the last signature completes the request with one sealed PDF", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  const { sessionToken: adaSession, signed } = await signAs("ada@example.com", "Ada Lovelace");
  expect(signed.signatureRequest?.recipients.map((r) => r.status)).toEqual(["signed", "sent"]);
  const again = await rejection(
    h.requests.submitSignature({ sessionToken: adaSession, consent: true, values: {}, actor }),
  );
  expect(again.code).toBe(Code.FailedPrecondition);
  expect(again.rawMessage).toContain("signed this request already");

  await signAs("bob@example.com", "Bob Babbage");
  await h.module.completionIdle();
  const { signatureRequest: done } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect(done?.status).toBe("completed");
  expect(done?.signedDocumentId).toBeTruthy();

  const chunks: Uint8Array[] = [];
  for await (const part of h.documents.downloadDocument({
    workspaceId: ws,
    documentId: done?.signedDocumentId as string,
  })) {
    if (part.part.case === "chunk") chunks.push(part.part.value);
  }
  const pdf = await PDFDocument.load(Buffer.concat(chunks));
  expect(pdf.getPageCount()).toBe(2);
  const completed = (await h.mails()).filter((m) => m.subject === "Completed: \u2068Mutual NDA\u2069");
  expect(completed.map((m) => m.to).sort()).toEqual(["ada@example.com", "bob@example.com"]);
  const { entries, verified } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(verified).toBe(true);
  expect(entries.map((e) => e.action)).toContain("completed");
});

test("a sealed PDF too large to attach is e-mailed to every recipient as a link of their own", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await sentRequest(ws, await makeLargePdf(ATTACHMENT_LIMIT_BYTES + 1024 * 1024));
  await signAs("ada@example.com", "Ada Lovelace");
  await signAs("bob@example.com", "Bob Babbage");
  await h.module.completionIdle();
  const completed = (await h.mails())
    .slice(before)
    .filter((m) => m.subject === "Completed: \u2068Mutual NDA\u2069");
  expect(completed.map((m) => m.to).sort()).toEqual(["ada@example.com", "bob@example.com"]);
  for (const mail of completed) {
    expect(mail.attachments).toBe(0);
    const opened = await h.requests.openSigningLink({ token: tokenOf(mail.link as string), actor });
    expect(opened.signatureRequest?.status).toBe("completed");
    expect(opened.recipientId).toBe(request.recipients.find((r) => r.email === mail.to)?.id);
  }
});

test("a decline ends the request, records the reason and kills every link", async () => {
  const ws = uuidv7();
  const request = await sentRequest(ws);
  const ada = await sessionFor("ada@example.com");
  const empty = await rejection(
    h.requests.declineToSign({ sessionToken: ada.sessionToken, reason: " ", actor }),
  );
  expect(empty.code).toBe(Code.InvalidArgument);
  const declined = await h.requests.declineToSign({
    sessionToken: ada.sessionToken,
    reason: "Wrong amount",
    actor,
  });
  expect(declined.signatureRequest?.status).toBe("declined");
  expect(declined.signatureRequest?.recipients[0]?.declineReason).toBe("Wrong amount");
  const link = (await h.mails()).filter((m) => m.to === "ada@example.com" && m.link).at(-1)?.link as string;
  const gone = await rejection(h.requests.openSigningLink({ token: tokenOf(link), actor }));
  expect(gone.rawMessage).toContain("declined");
  const events = h.events.filter((e) => e.signatureRequest?.id === request.id).map((e) => e.type);
  expect(events).toContain("declined");
});
