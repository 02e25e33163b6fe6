/**
 * Reminders on a schedule and the warning before expiry: a recipient whose turn it is is reminded
 * once their last e-mail is the schedule's days old, and not again until the next is; the waiting
 * recipients and the sender are warned once, the window's days before expiry; the workspace's
 * defaults apply to requests made after they change; each notice is in the audit trail as the
 * service's own act. Time is moved by dating the stored e-mails and sending back, not by waiting.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { fieldViolations, uuidv7 } from "@countersign/kit";
import { type Harness, rejection, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const DAY = 86_400_000;
const sender = {
  userId: uuidv7(),
  name: "Sam Sender",
  email: "sam@example.com",
  ip: "203.0.113.7",
  userAgent: "jest",
};

async function sent(
  workspaceId: string,
  options: { reminderEveryDays?: number; expiryWarningDays?: number; expiresInDays?: number } = {},
) {
  const templateId = await h.template(workspaceId);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId,
    title: "Lease",
    message: "",
    templateId,
    recipients: [
      { name: "Ada Client", email: "ada@example.com", role: "Client" },
      { name: "Bob Boss", email: "bob@example.com", role: "Countersigner" },
    ],
    send: true,
    reminderEveryDays: options.reminderEveryDays,
    expiryWarningDays: options.expiryWarningDays,
    expireTime:
      options.expiresInDays === undefined
        ? undefined
        : timestampFromDate(new Date(Date.now() + options.expiresInDays * DAY)),
    actor: sender,
  });
  if (!signatureRequest) throw new Error("no request");
  return signatureRequest;
}

/** Moves the request's past back by `days`: when it was sent, and when each e-mail was written. */
async function ageBy(requestId: string, days: number): Promise<void> {
  await h.db.query(
    "UPDATE notifications SET created_at = created_at - make_interval(days => $2) WHERE request_id = $1",
    [requestId, days],
  );
  await h.db.query(
    "UPDATE signature_requests SET sent_at = sent_at - make_interval(days => $2) WHERE id = $1",
    [requestId, days],
  );
}

async function auditOf(workspaceId: string, requestId: string) {
  const { entries } = await h.requests.getAuditTrail({ workspaceId, requestId });
  return entries.map((e) => ({ action: e.action, actorType: e.actorType, details: JSON.parse(e.details) }));
}

test("a recipient whose turn it is is reminded once their last e-mail is the schedule's days old, by the service, and not again until the next is", async () => {
  const ws = uuidv7();
  const request = await sent(ws, { reminderEveryDays: 3 });
  expect(request.reminderEveryDays).toBe(3);
  const [ada, bob] = request.recipients;
  await ageBy(request.id, 2);
  expect(await h.module.sweepSchedules()).toEqual({ reminded: 0, warned: 0 });

  await ageBy(request.id, 1);
  const before = (await h.mails()).length;
  expect(await h.module.sweepSchedules()).toMatchObject({ reminded: 1 });
  const mails = (await h.mails()).slice(before);
  // Only Ada: Bob's turn has not come.
  expect(mails.map((m) => [m.to, m.subject])).toEqual([
    ["ada@example.com", "Reminder: please sign \u2068Lease\u2069"],
  ]);
  expect(mails[0]?.link).toBeDefined();
  const audit = await auditOf(ws, request.id);
  expect(audit.at(-1)).toEqual({
    action: "reminded",
    actorType: "system",
    details: { recipientId: ada?.id, scheduled: true, everyDays: 3 },
  });
  expect(audit.some((e) => e.details.recipientId === bob?.id && e.action === "reminded")).toBe(false);

  // The reminder is now the last e-mail: nothing is due until it is three days old.
  expect(await h.module.sweepSchedules()).toMatchObject({ reminded: 0 });
  await ageBy(request.id, 3);
  expect(await h.module.sweepSchedules()).toMatchObject({ reminded: 1 });
});

test("a request past its expiry, or ended, is not reminded", async () => {
  const ws = uuidv7();
  const cancelled = await sent(ws, { reminderEveryDays: 1 });
  await h.requests.cancelSignatureRequest({
    workspaceId: ws,
    requestId: cancelled.id,
    reason: "",
    actor: sender,
  });
  await ageBy(cancelled.id, 5);
  const expiring = await sent(ws, { reminderEveryDays: 1, expiresInDays: 1 });
  await ageBy(expiring.id, 5);
  await h.db.query("UPDATE signature_requests SET expires_at = now() - interval '1 minute' WHERE id = $1", [
    expiring.id,
  ]);
  expect(await h.module.sweepSchedules()).toMatchObject({ reminded: 0 });
});

test("the waiting recipients and the sender are warned once before expiry, and the trail says whom", async () => {
  const ws = uuidv7();
  const request = await sent(ws, { expiresInDays: 1.5 });
  const [ada] = request.recipients;
  // Sent a moment ago, already inside the two days' window: no warning for a request sent so late.
  expect(await h.module.sweepSchedules()).toMatchObject({ warned: 0 });

  await ageBy(request.id, 3);
  const before = (await h.mails()).length;
  expect(await h.module.sweepSchedules()).toMatchObject({ warned: 1 });
  const mails = (await h.mails()).slice(before);
  expect(mails.map((m) => [m.to, m.subject]).sort()).toEqual([
    ["ada@example.com", "Expiring soon: \u2068Lease\u2069"],
    ["sam@example.com", "Expiring soon: \u2068Lease\u2069"],
  ]);
  const toSender = mails.find((m) => m.to === "sam@example.com");
  expect(toSender?.text).toContain("is still waiting for: Ada Client <ada@example.com>");
  expect(toSender?.text).toContain(`/console/w/${ws}/requests/${request.id}`);
  expect(mails.find((m) => m.to === "ada@example.com")?.link).toBeDefined();
  expect((await auditOf(ws, request.id)).at(-1)).toEqual({
    action: "expiry_warning_sent",
    actorType: "system",
    details: { expiresAt: expect.any(String), recipientIds: [ada?.id], sender: "sam@example.com" },
  });
  const got = await h.requests.getSignatureRequest({ workspaceId: ws, requestId: request.id });
  expect(got.signatureRequest?.expiryWarningTime).toBeDefined();
  // The warning is written to the recipient's e-mail history as theirs; the sender's is not.
  expect(got.signatureRequest?.recipients[0]?.emailDelivery?.kind).toBe("expiry_warning");

  expect(await h.module.sweepSchedules()).toMatchObject({ warned: 0 });
});

test("the workspace's defaults apply to requests made after they change, and bad values are refused naming the field", async () => {
  const ws = uuidv7();
  expect((await h.requests.getRequestSettings({ workspaceId: ws })).settings).toMatchObject({
    reminderEveryDays: 0,
    expiryWarningDays: 2,
  });
  const earlier = await sent(ws);
  await h.requests.updateRequestSettings({
    workspaceId: ws,
    settings: { reminderEveryDays: 5, expiryWarningDays: 0 },
  });
  const later = await sent(ws);
  expect([earlier.reminderEveryDays, later.reminderEveryDays]).toEqual([0, 5]);
  // Its own schedule wins over the default.
  const own = await sent(ws, { reminderEveryDays: 0, expiryWarningDays: 4 });
  expect([own.reminderEveryDays, own.expiryWarningDays, later.expiryWarningDays]).toEqual([0, 4, 0]);
  // No warning for a request made while warnings were off.
  const quiet = await sent(ws, { expiresInDays: 1 });
  await ageBy(quiet.id, 3);
  expect(await h.module.sweepSchedules()).toMatchObject({ warned: 0 });

  const refused = await rejection(
    h.requests.updateRequestSettings({
      workspaceId: ws,
      settings: { reminderEveryDays: 31, expiryWarningDays: -1 },
    }),
  );
  expect(refused.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(refused).map((v) => v.path)).toEqual(["reminderEveryDays", "expiryWarningDays"]);
  const badRequest = await rejection(sent(ws, { reminderEveryDays: 45 }));
  expect(fieldViolations(badRequest).map((v) => v.path)).toEqual(["reminderEveryDays"]);
});
