/**
 * Signer authentication at the RPC level: a signer the sender gave an access code and asked for an
 * e-mailed code sees nothing of the document, and can neither sign nor decline, until both are
 * given; wrong codes count across sessions and lock the recipient out; every step is audited; the
 * certificate of completion says how the signer was identified.
 */
import { toJsonString } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { SignatureRequestSchema } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { fieldViolations, uuidv7 } from "@countersign/kit";
import { pdfText } from "../../../test/support/pdf-tools.js";
import { signerIdentity } from "../src/completion/signer-identity.js";
import { emailHint } from "../src/signing/authentication-status.js";
import { type Harness, rejection, startHarness, tokenOf, until } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const actor = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (test)" };
const typed = (text: string) => ({ value: { case: "typed" as const, value: { text } } });

async function guardedRequest(ws: string, checks: { accessCode?: string; emailCode?: boolean }) {
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Loan agreement",
    templateId: await h.template(ws),
    recipients: [
      { name: "Ada Lovelace", email: "ada@example.com", role: "Client", ...checks },
      { name: "Bob Babbage", email: "bob@example.com", role: "Countersigner" },
    ],
    send: true,
  });
  return signatureRequest as NonNullable<typeof signatureRequest>;
}

async function openAs(email: string, requestId: string) {
  const mail = (await h.mails()).filter((m) => m.to === email && m.link).at(-1);
  const opened = await h.requests.openSigningLink({ token: tokenOf(mail?.link as string), actor });
  expect(opened.signatureRequest?.id).toBe(requestId);
  return opened.sessionToken;
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

test("before its codes a session sees no document, field or value and cannot sign, decline or view; the access code and the e-mailed code open it", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { accessCode: "blue-falcon-42", emailCode: true });
  expect(request.recipients[0]?.authentication).toEqual(["access_code", "email_code"]);
  expect(request.recipients[1]?.authentication).toEqual([]);
  const sessionToken = await openAs("ada@example.com", request.id);

  const gated = await h.requests.getSigningSession({ sessionToken });
  expect({
    fields: gated.signatureRequest?.fields.length,
    documents: gated.signatureRequest?.documentIds.length,
    filled: gated.filled.length,
    title: gated.signatureRequest?.title,
    authentication: gated.authentication,
  }).toMatchObject({
    fields: 0,
    documents: 0,
    filled: 0,
    title: "Loan agreement",
    authentication: {
      methods: ["access_code", "email_code"],
      verified: [],
      attemptsLeft: 5,
      emailHint: "a•••@example.com",
    },
  });
  const refused = {
    sign: await rejection(h.requests.submitSignature({ sessionToken, consent: true, values: {}, actor })),
    decline: await rejection(h.requests.declineToSign({ sessionToken, reason: "not me", actor })),
    view: await rejection(h.requests.recordSigningView({ sessionToken, actor })),
  };
  expect(Object.values(refused).map((e) => e.code)).toEqual([
    Code.PermissionDenied,
    Code.PermissionDenied,
    Code.PermissionDenied,
  ]);

  const afterAccess = await h.requests.verifySigner({
    sessionToken,
    accessCode: " blue-falcon-42 ",
    emailCode: "",
    actor,
  });
  expect(afterAccess.authentication?.verified).toEqual(["access_code"]);
  expect((await h.requests.getSigningSession({ sessionToken })).signatureRequest?.fields).toHaveLength(0);

  const noCodeYet = await rejection(
    h.requests.verifySigner({ sessionToken, accessCode: "", emailCode: "123456", actor }),
  );
  expect(fieldViolations(noCodeYet)).toEqual([
    { path: "emailCode", message: "ask for a code first: none was sent in this session" },
  ]);
  const sent = await h.requests.sendSigningCode({ sessionToken, actor });
  expect(sent.authentication?.codeSentTime).toBeDefined();
  expect((await rejection(h.requests.sendSigningCode({ sessionToken, actor }))).code).toBe(
    Code.ResourceExhausted,
  );
  const mail = (await h.mails())
    .filter((m) => m.to === "ada@example.com" && /is your code/.test(m.subject))
    .at(-1);
  // The code and the title each set apart (FSI … PDI), as every value in a subject is.
  expect(mail?.subject).toMatch(/^\u2068\d{6}\u2069 is your code for \u2068Loan agreement\u2069$/);
  expect(mail?.link).toBeUndefined();
  const passed = await h.requests.verifySigner({
    sessionToken,
    accessCode: "",
    emailCode: codeIn(mail?.text ?? ""),
    actor,
  });
  expect(passed.authentication?.verified).toEqual(["access_code", "email_code"]);

  const open = await h.requests.getSigningSession({ sessionToken });
  expect(open.signatureRequest?.fields).toHaveLength(1);
  expect(open.signatureRequest?.documentIds).toHaveLength(1);
  await h.requests.recordSigningView({ sessionToken, actor });
  const fieldId = open.signatureRequest?.fields[0]?.id as string;
  await h.requests.submitSignature({
    sessionToken,
    consent: true,
    values: { [fieldId]: typed("Ada Lovelace") },
    actor,
  });

  // Another session of the same signer starts again: a link is not an identity.
  const again = await openAs("ada@example.com", request.id);
  expect((await h.requests.getSigningSession({ sessionToken: again })).authentication?.verified).toEqual([]);

  // The countersigner, asked for nothing, signs as before; the certificate says how each was identified.
  await until(async () => (await h.mails()).some((m) => m.to === "bob@example.com" && m.link));
  const bob = await openAs("bob@example.com", request.id);
  const bobField = (await h.requests.getSigningSession({ sessionToken: bob })).signatureRequest?.fields[0]
    ?.id as string;
  await h.requests.submitSignature({
    sessionToken: bob,
    consent: true,
    values: { [bobField]: typed("Bob Babbage") },
    actor,
  });
  await h.module.completionIdle();
  const { signatureRequest: done } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
  });
  expect(done?.status).toBe("completed");
  const chunks: Uint8Array[] = [];
  for await (const part of h.documents.downloadDocument({
    workspaceId: ws,
    documentId: done?.signedDocumentId as string,
  })) {
    if (part.part.case === "chunk") chunks.push(part.part.value);
  }
  const certificate = (await pdfText(Buffer.concat(chunks))).replace(/\s+/g, " ");
  expect(certificate).toMatch(
    /Identified through the signing link e-mailed to ada@example\.com, then the access code and a one-time code e-mailed to ada@example\.com, last at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
  );
  expect(certificate).toContain("Identified through the signing link e-mailed to bob@example.com Viewed");

  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(entries.map((e) => e.action).filter((a) => a.startsWith("authentic"))).toEqual([
    "authenticated",
    "authentication_code_sent",
    "authenticated",
  ]);
});

test("five wrong codes in a row lock the recipient out for 15 minutes whatever session they open; each is audited; a right one afterwards resets the count", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { accessCode: "1234" });
  const first = await openAs("ada@example.com", request.id);
  const wrong = async (sessionToken: string) =>
    rejection(h.requests.verifySigner({ sessionToken, accessCode: "9999", emailCode: "", actor }));

  const firstWrong = await wrong(first);
  expect(fieldViolations(firstWrong)).toEqual([
    {
      path: "accessCode",
      message: "is not the access code the sender gave you; 4 attempts left before a 15-minute lock",
    },
  ]);
  for (let i = 0; i < 3; i++) await wrong(first);
  // A new session does not start the count again.
  const second = await openAs("ada@example.com", request.id);
  const fifth = await wrong(second);
  expect(fifth.code).toBe(Code.ResourceExhausted);
  expect(fifth.rawMessage).toMatch(
    /^too many wrong codes: try again after \d\d:\d\d UTC, or ask the sender$/,
  );
  const evenRight = await rejection(
    h.requests.verifySigner({ sessionToken: second, accessCode: "1234", emailCode: "", actor }),
  );
  expect(evenRight.code).toBe(Code.ResourceExhausted);
  expect(
    (await h.requests.getSigningSession({ sessionToken: second })).authentication?.lockedUntil,
  ).toBeDefined();

  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  const actions = entries.map((e) => e.action);
  expect(actions.filter((a) => a === "authentication_failed")).toHaveLength(5);
  expect(actions.filter((a) => a === "authentication_locked")).toHaveLength(1);

  // Once the lock has run out, the right code opens it and the count starts again.
  await h.db.query(
    "UPDATE recipients SET auth_locked_until = now() - interval '1 second' WHERE email = 'ada@example.com' AND request_id = $1",
    [request.id],
  );
  const passed = await h.requests.verifySigner({
    sessionToken: second,
    accessCode: "1234",
    emailCode: "",
    actor,
  });
  expect(passed.authentication).toMatchObject({ verified: ["access_code"], attemptsLeft: 5 });
});

test("codes are for signers, within bounds, and never answered back", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const refused = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Loan agreement",
      templateId,
      recipients: [
        { name: "Ada Lovelace", email: "ada@example.com", role: "Client", accessCode: "abc" },
        { name: "Bob Babbage", email: "bob@example.com", role: "Countersigner", accessCode: "x".repeat(51) },
        { name: "Cy Copy", email: "cy@example.com", kind: "cc", accessCode: "1234", emailCode: true },
      ],
    }),
  );
  expect(fieldViolations(refused)).toEqual([
    { path: "recipients[0].accessCode", message: "must be 4 to 50 characters" },
    { path: "recipients[1].accessCode", message: "must be 4 to 50 characters" },
    { path: "recipients[2].accessCode", message: "a copy recipient signs nothing: give codes to signers" },
    { path: "recipients[2].emailCode", message: "a copy recipient signs nothing: give codes to signers" },
  ]);
  const request = await guardedRequest(ws, { accessCode: "secret-code" });
  const { rows } = await h.db.query<{ access_code_hash: Buffer }>(
    "SELECT access_code_hash FROM recipients WHERE request_id = $1 AND email = 'ada@example.com'",
    [request.id],
  );
  expect(rows[0]?.access_code_hash.includes(Buffer.from("secret-code"))).toBe(false);
  expect(toJsonString(SignatureRequestSchema, request)).not.toContain("secret-code");
});

test("the certificate names how each signer was identified, from the audit trail", () => {
  const at = new Date("2026-11-27T10:00:00Z");
  const recipient = {
    id: "r1",
    email: "ada@example.com",
    client_user_id: "",
    access_code_required: true,
    email_code_required: true,
  } as Parameters<typeof signerIdentity>[0];
  const entry = (action: string, id: string) =>
    ({ action, at, actor: { type: "recipient", id } }) as Parameters<typeof signerIdentity>[1][number];
  expect(signerIdentity(recipient, [entry("authenticated", "r2"), entry("authenticated", "r1")])).toBe(
    "through the signing link e-mailed to ada@example.com, then the access code and a one-time code e-mailed to ada@example.com, last at 2026-11-27 10:00:00 UTC",
  );
  expect(
    signerIdentity(
      { ...recipient, access_code_required: false, email_code_required: false, client_user_id: "c-1" },
      [],
    ),
  ).toBe("through the sender's app (embedded signing)");
  expect(emailHint("ada@example.com")).toBe("a•••@example.com");
});

test("a wrong code's count is kept although the call is refused", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { accessCode: "1234" });
  const sessionToken = await openAs("ada@example.com", request.id);
  const refused = await rejection(
    h.requests.verifySigner({ sessionToken, accessCode: "0000", emailCode: "", actor }),
  );
  expect(refused).toBeInstanceOf(ConnectError);
  const { rows } = await h.db.query<{ auth_failures: number }>(
    "SELECT auth_failures FROM recipients WHERE request_id = $1 AND email = 'ada@example.com'",
    [request.id],
  );
  expect(rows[0]?.auth_failures).toBe(1);
});

/** Ada's e-mailed code, once its e-mail has gone out. */
async function mailedCode(after: number): Promise<string> {
  await until(async () => (await codeMails()).length > after);
  return codeIn((await codeMails()).at(-1)?.text ?? "");
}
const codeMails = async () =>
  (await h.mails()).filter((m) => m.to === "ada@example.com" && /is your code/.test(m.subject));
const retryAfter = (error: ConnectError) => error.findDetails(RetryAfterSchema)[0]?.seconds ?? 0;

test("a right e-mailed code clears no wrong access code: every wrong code of either kind counts toward one lock-out, and asking for codes in new sessions resets nothing", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { accessCode: "4821", emailCode: true });
  const wrongAccess = (sessionToken: string) =>
    rejection(h.requests.verifySigner({ sessionToken, accessCode: "0000", emailCode: "", actor }));

  const first = await openAs("ada@example.com", request.id);
  for (let i = 0; i < 3; i++) await wrongAccess(first);
  const sent = (await codeMails()).length;
  await h.requests.sendSigningCode({ sessionToken: first, actor });
  const passed = await h.requests.verifySigner({
    sessionToken: first,
    accessCode: "",
    emailCode: await mailedCode(sent),
    actor,
  });
  // The e-mailed code is passed for this session, and the three wrong access codes still stand.
  expect(passed.authentication).toMatchObject({ verified: ["email_code"], attemptsLeft: 2 });

  // A wrong e-mailed code counts toward the same lock-out, from another session too.
  const second = await openAs("ada@example.com", request.id);
  const resent = await h.requests.sendSigningCode({ sessionToken: second, actor });
  expect(resent.authentication?.attemptsLeft).toBe(2);
  const wrongEmail = await rejection(
    h.requests.verifySigner({ sessionToken: first, accessCode: "", emailCode: "000000", actor }),
  );
  expect(fieldViolations(wrongEmail)).toEqual([
    { path: "emailCode", message: "is not the code we e-mailed you; 1 attempt left before a 15-minute lock" },
  ]);
  const locked = await wrongAccess(second);
  expect(locked.code).toBe(Code.ResourceExhausted);
  expect(retryAfter(locked)).toBeGreaterThan(14 * 60);
  // Locked, neither a code nor the right access code is given out or taken.
  expect((await rejection(h.requests.sendSigningCode({ sessionToken: second, actor }))).code).toBe(
    Code.ResourceExhausted,
  );
  expect(
    (
      await rejection(
        h.requests.verifySigner({ sessionToken: second, accessCode: "4821", emailCode: "", actor }),
      )
    ).code,
  ).toBe(Code.ResourceExhausted);
});

test("after a lock-out the count runs on: the next five wrong codes lock for 30 minutes, and passing every code asked clears it", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { accessCode: "4821" });
  const sessionToken = await openAs("ada@example.com", request.id);
  const wrong = () =>
    rejection(h.requests.verifySigner({ sessionToken, accessCode: "0000", emailCode: "", actor }));
  const unlock = () =>
    h.db.query(
      "UPDATE recipients SET auth_locked_until = now() - interval '1 second' WHERE email = 'ada@example.com' AND request_id = $1",
      [request.id],
    );

  for (let i = 0; i < 4; i++) await wrong();
  expect(retryAfter(await wrong())).toBeLessThanOrEqual(15 * 60);
  await unlock();
  expect((await h.requests.getSigningSession({ sessionToken })).authentication?.attemptsLeft).toBe(5);
  expect(fieldViolations(await wrong())).toEqual([
    {
      path: "accessCode",
      message: "is not the access code the sender gave you; 4 attempts left before a 30-minute lock",
    },
  ]);
  for (let i = 0; i < 3; i++) await wrong();
  expect(retryAfter(await wrong())).toBeGreaterThan(29 * 60);

  await unlock();
  const passed = await h.requests.verifySigner({ sessionToken, accessCode: "4821", emailCode: "", actor });
  expect(passed.authentication).toMatchObject({ verified: ["access_code"], attemptsLeft: 5 });
  const { rows } = await h.db.query<{ auth_failures: number }>(
    "SELECT auth_failures FROM recipients WHERE request_id = $1 AND email = 'ada@example.com'",
    [request.id],
  );
  expect(rows[0]?.auth_failures).toBe(0);
});

test("e-mailed codes are bounded per recipient, not per session: past ten in an hour, from any session, the answer says when the next may be asked", async () => {
  const ws = uuidv7();
  const request = await guardedRequest(ws, { emailCode: true });
  const first = await openAs("ada@example.com", request.id);
  await h.requests.sendSigningCode({ sessionToken: first, actor });
  const soon = await rejection(h.requests.sendSigningCode({ sessionToken: first, actor }));
  expect(soon.rawMessage).toMatch(/^a code was sent moments ago; ask again in \d+ s$/);
  expect(retryAfter(soon)).toBeGreaterThan(0);
  expect(retryAfter(soon)).toBeLessThanOrEqual(30);

  // Another session — the signer on another device — may ask at once.
  const second = await openAs("ada@example.com", request.id);
  await h.requests.sendSigningCode({ sessionToken: second, actor });
  // Those two codes 50 minutes ago and eight more since: the eleventh waits the 10 minutes until the first are an hour old.
  const recipientId = request.recipients[0]?.id as string;
  await h.db.query(
    `UPDATE notifications SET created_at = now() - interval '50 minutes'
      WHERE recipient_id = $1 AND kind = 'signing_code'`,
    [recipientId],
  );
  for (let i = 1; i <= 8; i++) {
    await h.db.query(
      `INSERT INTO notifications (id, request_id, workspace_id, recipient_id, kind, created_at, done_at)
       SELECT $1, id, workspace_id, $3, 'signing_code', now() - make_interval(mins => $4), now()
         FROM signature_requests WHERE id = $2`,
      [uuidv7(), request.id, recipientId, 50 - i * 5],
    );
  }
  const capped = await rejection(h.requests.sendSigningCode({ sessionToken: second, actor }));
  expect(capped.rawMessage).toMatch(/^10 codes were sent in the last hour; ask again in \d+ s$/);
  expect(retryAfter(capped)).toBeGreaterThan(9 * 60);
  expect(retryAfter(capped)).toBeLessThanOrEqual(10 * 60);
});
