/**
 * The transition table of docs/design.md §5, operation by state: an allowed operation succeeds, any other
 * answers FAILED_PRECONDITION naming the current state; the same for a signer's operations by the
 * recipient's state. Each state is set in the database directly, which is quicker than reaching it.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { uuidv7 } from "@countersign/kit";
import { type Harness, startHarness, tokenOf } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ reminderIntervalMs: 0 });
});
afterAll(() => h.close());

const STATES = [
  "draft",
  "awaiting_approval",
  "sent",
  "in_progress",
  "completed",
  "declined",
  "cancelled",
  "expired",
] as const;
type State = (typeof STATES)[number];

/** docs/design.md §5, written out rather than read from the code it checks. */
const ALLOWED: Record<string, State[]> = {
  send: ["draft"],
  propose: ["draft"],
  approve: ["awaiting_approval"],
  reject: ["awaiting_approval"],
  resend: ["sent", "in_progress"],
  cancel: ["draft", "awaiting_approval", "sent", "in_progress"],
  remind: ["sent", "in_progress"],
  updateRecipients: ["draft", "sent", "in_progress"],
  embeddedSigningUrl: ["sent", "in_progress"],
};

async function requestIn(ws: string, templateId: string, state: State) {
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: `In ${state}`,
    templateId,
    recipients: [
      { name: "Ada", email: "ada@example.com", role: "Client" },
      { name: "Bob", email: "bob@example.com", role: "Countersigner" },
    ],
    send: state !== "draft" && state !== "awaiting_approval",
  });
  const request = signatureRequest as NonNullable<typeof signatureRequest>;
  if (state !== "draft" && state !== "sent")
    await h.db.query("UPDATE signature_requests SET status = $2 WHERE id = $1", [request.id, state]);
  return request;
}

const operations: Record<string, (ws: string, id: string, ada: string) => Promise<unknown>> = {
  send: (ws, id) => h.requests.sendSignatureRequest({ workspaceId: ws, requestId: id }),
  propose: (ws, id) => h.requests.sendSignatureRequest({ workspaceId: ws, requestId: id, propose: true }),
  approve: (ws, id) => h.requests.approveSignatureRequest({ workspaceId: ws, requestId: id }),
  reject: (ws, id) => h.requests.rejectSignatureRequest({ workspaceId: ws, requestId: id, reason: "no" }),
  resend: (ws, id) => h.requests.resendSignatureRequest({ workspaceId: ws, requestId: id }),
  cancel: (ws, id) => h.requests.cancelSignatureRequest({ workspaceId: ws, requestId: id }),
  remind: (ws, _id, ada) => h.requests.remindRecipient({ workspaceId: ws, recipientId: ada }),
  updateRecipients: (ws, id, ada) =>
    h.requests.updateRecipients({ workspaceId: ws, requestId: id, changes: [{ id: ada, name: "Ada L." }] }),
  embeddedSigningUrl: (ws, id, ada) =>
    h.requests.createEmbeddedSigningUrl({ workspaceId: ws, requestId: id, recipientId: ada }),
};

test("every operation in every state is allowed exactly as the table says", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const outcomes: string[] = [];
  const expected: string[] = [];
  for (const [name, run] of Object.entries(operations)) {
    for (const state of STATES) {
      const request = await requestIn(ws, templateId, state);
      const result = await run(ws, request.id, request.recipients[0]?.id as string).then(
        () => "ok",
        (err: unknown) =>
          err instanceof ConnectError &&
          err.code === Code.FailedPrecondition &&
          err.rawMessage.includes(state)
            ? "refused"
            : `unexpected: ${String(err)}`,
      );
      outcomes.push(`${name} in ${state}: ${result}`);
      expected.push(`${name} in ${state}: ${ALLOWED[name]?.includes(state) ? "ok" : "refused"}`);
    }
  }
  expect(outcomes).toEqual(expected);
});

test("concurrent operations on one request leave only states the table allows", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const request = await requestIn(ws, templateId, "draft");
  const results = await Promise.allSettled([
    h.requests.sendSignatureRequest({ workspaceId: ws, requestId: request.id }),
    h.requests.sendSignatureRequest({ workspaceId: ws, requestId: request.id }),
    h.requests.cancelSignatureRequest({ workspaceId: ws, requestId: request.id }),
    h.requests.sendSignatureRequest({ workspaceId: ws, requestId: request.id }),
  ]);
  const { signatureRequest } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  const sends = results.filter((r, i) => i !== 2 && r.status === "fulfilled").length;
  // Sent at most once; and if cancel won first, never sent after it.
  expect(sends).toBeLessThanOrEqual(1);
  expect(["sent", "cancelled"]).toContain(signatureRequest?.status);
  const trail = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(trail.entries.filter((e) => e.action === "sent").length).toBe(sends);
  expect(trail.verified).toBe(true);
});

/** A request whose first signer holds a session, then set into `state` with the signer `recipientState`. */
async function sessionIn(ws: string, templateId: string, state: State, recipientState = "viewed") {
  const request = await requestIn(ws, templateId, "sent");
  const ada = request.recipients[0]?.id as string;
  const link = (await h.mails()).filter((m) => m.link).at(-1)?.link as string;
  const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(link) });
  await h.db.query("UPDATE signature_requests SET status = $2 WHERE id = $1", [request.id, state]);
  await h.db.query("UPDATE recipients SET status = $2 WHERE id = $1", [ada, recipientState]);
  return { request, sessionToken };
}

const signerOperations: Record<string, (sessionToken: string, fieldId: string) => Promise<unknown>> = {
  sign: (sessionToken, fieldId) =>
    h.requests.submitSignature({
      sessionToken,
      consent: true,
      values: { [fieldId]: { value: { case: "typed", value: { text: "Ada" } } } },
    }),
  decline: (sessionToken) => h.requests.declineToSign({ sessionToken, reason: "No" }),
};

/** docs/design.md §5 for the signer's operations and the recipient's states, written out. */
const SIGNER_ALLOWED: Record<string, { requests: State[]; recipients: string[] }> = {
  sign: { requests: ["sent", "in_progress"], recipients: ["sent", "viewed"] },
  decline: { requests: ["sent", "in_progress"], recipients: ["sent", "viewed"] },
};

const refusedOrOk = (err: unknown) =>
  err instanceof ConnectError && err.code === Code.FailedPrecondition
    ? "refused"
    : `unexpected: ${String(err)}`;

test("signing and declining are allowed in exactly the request states the table says", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const outcomes: string[] = [];
  const expected: string[] = [];
  for (const [name, run] of Object.entries(signerOperations)) {
    for (const state of STATES) {
      const { request, sessionToken } = await sessionIn(ws, templateId, state);
      const field = request.fields.find((f) => f.recipientId === request.recipients[0]?.id)?.id as string;
      const result = await run(sessionToken, field).then(() => "ok", refusedOrOk);
      outcomes.push(`${name} in ${state}: ${result}`);
      expected.push(
        `${name} in ${state}: ${SIGNER_ALLOWED[name]?.requests.includes(state) ? "ok" : "refused"}`,
      );
    }
  }
  expect(outcomes).toEqual(expected);
});

test("signing and declining are allowed in exactly the recipient states the table says", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const outcomes: string[] = [];
  const expected: string[] = [];
  for (const [name, run] of Object.entries(signerOperations)) {
    for (const recipientState of ["pending", "sent", "viewed", "signed", "declined"]) {
      const { request, sessionToken } = await sessionIn(ws, templateId, "in_progress", recipientState);
      const field = request.fields.find((f) => f.recipientId === request.recipients[0]?.id)?.id as string;
      const result = await run(sessionToken, field).then(() => "ok", refusedOrOk);
      outcomes.push(`${name} when ${recipientState}: ${result}`);
      expected.push(
        `${name} when ${recipientState}: ${SIGNER_ALLOWED[name]?.recipients.includes(recipientState) ? "ok" : "refused"}`,
      );
    }
  }
  expect(outcomes).toEqual(expected);
});

test("a recorded view moves only a recipient who was sent the request to viewed", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const viewedFrom: string[] = [];
  for (const recipientState of ["pending", "sent", "viewed", "signed"]) {
    const request = await requestIn(ws, templateId, "sent");
    const ada = request.recipients[0]?.id as string;
    const link = (await h.mails()).filter((m) => m.link).at(-1)?.link as string;
    const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(link) });
    await h.db.query("UPDATE recipients SET status = $2 WHERE id = $1", [ada, recipientState]);
    const { first } = await h.requests.recordSigningView({ sessionToken });
    const { signatureRequest } = await h.requests.getSignatureRequest({
      workspaceId: ws,
      requestId: request.id,
    });
    const after = signatureRequest?.recipients[0]?.status;
    if (first && after === "viewed") viewedFrom.push(recipientState);
    else expect(after).toBe(recipientState);
  }
  expect(viewedFrom).toEqual(["sent"]);
});
