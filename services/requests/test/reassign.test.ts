/**
 * A signer hands the request to someone else, where the sender allows it: the place gets the new
 * person with a link of their own, the old links and sessions end, the audit trail says who handed
 * it to whom and why; without the sender's leave, for an embedded signer, or to oneself it is refused.
 */
import { Code } from "@connectrpc/connect";
import { fieldViolations, uuidv7 } from "@countersign/kit";
import { type Harness, rejection, startHarness, tokenOf, until } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const actor = { ip: "203.0.113.9", userAgent: "Mozilla/5.0 (test)" };
const typed = (text: string) => ({ value: { case: "typed" as const, value: { text } } });

async function sent(ws: string, allowReassign: boolean, client: Record<string, unknown> = {}) {
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Supply contract",
    templateId: await h.template(ws),
    recipients: [
      { name: "Ada Lovelace", email: `ada.${ws}@example.com`, role: "Client", ...client },
      { name: "Bob Babbage", email: `bob.${ws}@example.com`, role: "Countersigner" },
    ],
    allowReassign,
    send: true,
  });
  return signatureRequest as NonNullable<typeof signatureRequest>;
}

async function linkOf(email: string): Promise<string> {
  await until(async () => (await h.mails()).some((m) => m.to === email && m.link));
  return (await h.mails()).filter((m) => m.to === email && m.link).at(-1)?.link as string;
}

const reassign = (sessionToken: string, to: { name: string; email: string }, reason = "I am on leave") =>
  h.requests.reassignSigner({ sessionToken, ...to, reason, actor });

test("the signer, having given the access code, hands the place to a colleague: a new invitation, the old link and session end, the colleague signs without the code", async () => {
  const ws = uuidv7();
  const request = await sent(ws, true, { accessCode: "harbour-9" });
  expect(request.allowReassign).toBe(true);
  const oldLink = await linkOf(`ada.${ws}@example.com`);
  const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(oldLink), actor });
  const colleague = { name: "Cleo Colleague", email: `cleo.${ws}@example.com` };

  expect((await rejection(reassign(sessionToken, colleague))).code).toBe(Code.PermissionDenied);
  await h.requests.verifySigner({ sessionToken, accessCode: "harbour-9", emailCode: "", actor });
  await h.requests.recordSigningView({ sessionToken, actor });
  const own = await rejection(reassign(sessionToken, { name: "Ada", email: `ADA.${ws}@example.com` }));
  expect(fieldViolations(own)).toEqual([
    { path: "email", message: "is your own address: give the new signer's" },
  ]);
  const handed = await reassign(sessionToken, colleague);
  const place = handed.signatureRequest?.recipients[0];
  expect(place).toMatchObject({
    id: request.recipients[0]?.id,
    ...colleague,
    status: "sent",
    authentication: [],
  });
  // The colleague has seen nothing yet: the view was Ada's.
  expect(place?.viewTime).toBeUndefined();

  expect((await rejection(h.requests.getSigningSession({ sessionToken }))).code).toBe(Code.Unauthenticated);
  expect((await rejection(h.requests.openSigningLink({ token: tokenOf(oldLink), actor }))).code).toBe(
    Code.FailedPrecondition,
  );

  const newLink = await linkOf(colleague.email);
  const opened = await h.requests.openSigningLink({ token: tokenOf(newLink), actor });
  const view = await h.requests.getSigningSession({ sessionToken: opened.sessionToken });
  expect(view.authentication?.methods).toEqual([]);
  const field = view.signatureRequest?.fields[0]?.id as string;
  await h.requests.submitSignature({
    sessionToken: opened.sessionToken,
    consent: true,
    values: { [field]: typed("Cleo Colleague") },
    actor,
  });

  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  const entry = entries.find((e) => e.action === "reassigned");
  expect(entry).toMatchObject({ actorType: "recipient", actorEmail: `ada.${ws}@example.com`, ip: actor.ip });
  expect(JSON.parse(entry?.details ?? "{}")).toMatchObject({
    from: { name: "Ada Lovelace", email: `ada.${ws}@example.com` },
    to: colleague,
    reason: "I am on leave",
  });
});

test("refused without the sender's leave, for a signer in the sender's app, and without a reason", async () => {
  const ws = uuidv7();
  await sent(ws, false);
  const { sessionToken } = await h.requests.openSigningLink({
    token: tokenOf(await linkOf(`ada.${ws}@example.com`)),
    actor,
  });
  const to = { name: "Cleo", email: "cleo@example.com" };
  expect((await rejection(reassign(sessionToken, to))).code).toBe(Code.FailedPrecondition);
  expect(fieldViolations(await rejection(reassign(sessionToken, to, " ")))).toEqual([
    { path: "reason", message: "is required" },
  ]);

  const embeddedWs = uuidv7();
  const embedded = await sent(embeddedWs, true, { clientUserId: "ada-app" });
  const { url } = await h.requests.createEmbeddedSigningUrl({
    workspaceId: embeddedWs,
    requestId: embedded.id,
    recipientId: embedded.recipients[0]?.id as string,
    returnUrl: "https://app.example.com/done",
  });
  const inApp = await h.requests.openSigningLink({ token: tokenOf(url), actor });
  const refused = await rejection(reassign(inApp.sessionToken, to));
  expect([refused.code, refused.rawMessage]).toEqual([
    Code.FailedPrecondition,
    "you sign in the sender's app: ask the sender to send it to someone else",
  ]);
});

test("a sender who changes a viewed signer's address puts another person in the place, who has seen nothing; a corrected name keeps the view", async () => {
  const ws = uuidv7();
  const request = await sent(ws, false);
  const { sessionToken } = await h.requests.openSigningLink({
    token: tokenOf(await linkOf(`ada.${ws}@example.com`)),
    actor,
  });
  await h.requests.recordSigningView({ sessionToken, actor });
  const id = request.recipients[0]?.id as string;
  const renamed = await h.requests.updateRecipients({
    workspaceId: ws,
    requestId: request.id,
    changes: [{ id, name: "Ada King" }],
  });
  expect(renamed.signatureRequest?.recipients[0]).toMatchObject({
    status: "viewed",
    viewTime: expect.anything(),
  });
  const moved = await h.requests.updateRecipients({
    workspaceId: ws,
    requestId: request.id,
    changes: [{ id, email: `ada.king.${ws}@example.com` }],
  });
  expect(moved.signatureRequest?.recipients[0]?.status).toBe("sent");
  expect(moved.signatureRequest?.recipients[0]?.viewTime).toBeUndefined();
});

test("a signer cannot hand their place to anyone already on the request, in any letter case or Unicode form, nor to its sender: one person would sign two places", async () => {
  const ws = uuidv7();
  const zoe = `zo\u00eb.${ws}@example.com`;
  const { signatureRequest: request } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Supply contract",
    templateId: await h.template(ws),
    recipients: [
      { name: "Ada Lovelace", email: `ada.${ws}@example.com`, role: "Client" },
      { name: "Bob Babbage", email: `bob.${ws}@example.com`, role: "Countersigner" },
      { name: "Zoë Copy", email: zoe, kind: "cc" },
    ],
    allowReassign: true,
    send: true,
    actor: { email: `sam.${ws}@example.com` },
  });
  const { sessionToken } = await h.requests.openSigningLink({
    token: tokenOf(await linkOf(`ada.${ws}@example.com`)),
    actor,
  });
  const refusal = async (email: string) =>
    fieldViolations(await rejection(reassign(sessionToken, { name: "Someone", email })));

  expect(await refusal(` BOB.${ws}@Example.COM `)).toEqual([
    {
      path: "email",
      message: "belongs to someone already on this request: give the address of someone who is not",
    },
  ]);
  // The copy recipient's address written with a combining diaeresis is still theirs.
  expect(await refusal(`ZOE\u0308.${ws}@example.com`)).toEqual([
    {
      path: "email",
      message: "belongs to someone already on this request: give the address of someone who is not",
    },
  ]);
  expect(await refusal(`Sam.${ws}@example.com`)).toEqual([
    {
      path: "email",
      message: "is the sender's address: give the address of the person who signs instead of you",
    },
  ]);
  const { signatureRequest: after } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request?.id as string,
  });
  expect(after?.recipients.map((r) => r.email)).toEqual([
    `ada.${ws}@example.com`,
    `bob.${ws}@example.com`,
    zoe,
  ]);
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request?.id as string });
  expect(entries.some((e) => e.action === "reassigned")).toBe(false);

  // Someone new takes the place.
  const handed = await reassign(sessionToken, { name: "Cleo Colleague", email: `cleo.${ws}@example.com` });
  expect(handed.signatureRequest?.recipients[0]?.email).toBe(`cleo.${ws}@example.com`);
});

test("a sender may put one person in two places, and an address that differs only in case or Unicode form keeps the place's view", async () => {
  const ws = uuidv7();
  const ada = `ad\u00e4.${ws}@example.com`;
  const { signatureRequest: request } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Supply contract",
    templateId: await h.template(ws),
    recipients: [
      { name: "Adä Lovelace", email: ada, role: "Client" },
      { name: "Bob Babbage", email: `bob.${ws}@example.com`, role: "Countersigner" },
    ],
    send: true,
  });
  const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(await linkOf(ada)), actor });
  await h.requests.recordSigningView({ sessionToken, actor });
  const [first, second] = request?.recipients.map((r) => r.id) ?? [];
  // The same address with a combining umlaut, in capitals: the same person, whose view stands.
  const updated = await h.requests.updateRecipients({
    workspaceId: ws,
    requestId: request?.id as string,
    changes: [
      { id: first as string, email: ` ADA\u0308.${ws}@Example.com ` },
      { id: second as string, email: ada },
    ],
  });
  expect(updated.signatureRequest?.recipients.map((r) => [r.email, r.status])).toEqual([
    [`ADA\u0308.${ws}@Example.com`, "viewed"],
    [ada, "pending"],
  ]);
});
