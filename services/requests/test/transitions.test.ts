/**
 * The transition table of DESIGN §5, operation by state: an allowed operation succeeds, any other
 * answers FAILED_PRECONDITION naming the current state. States the API cannot reach yet (signing
 * arrives with its own issue) are set in the database directly.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { uuidv7 } from "@countersign/kit";
import { type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ reminderIntervalMs: 0 });
});
afterAll(() => h.close());

const STATES = ["draft", "sent", "in_progress", "completed", "declined", "cancelled", "expired"] as const;
type State = (typeof STATES)[number];

/** DESIGN §5, written out rather than read from the code it checks. */
const ALLOWED: Record<string, State[]> = {
  send: ["draft"],
  resend: ["sent", "in_progress"],
  cancel: ["draft", "sent", "in_progress"],
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
    send: state !== "draft",
  });
  const request = signatureRequest as NonNullable<typeof signatureRequest>;
  if (state !== "draft" && state !== "sent")
    await h.db.query("UPDATE signature_requests SET status = $2 WHERE id = $1", [request.id, state]);
  return request;
}

const operations: Record<string, (ws: string, id: string, ada: string) => Promise<unknown>> = {
  send: (ws, id) => h.requests.sendSignatureRequest({ workspaceId: ws, requestId: id }),
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
