import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { RetryAfterSchema, SigningReturnSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  type NewRecipientSchema,
  RequestsService,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { fieldViolations, problemOf, serviceClient, uuidv7 } from "@countersign/kit";
import { withMetadata } from "../../../test/support/jpegs.js";
import { makeJpeg } from "../../../test/support/office-documents.js";
import { makePng } from "../../../test/support/pngs.js";
import { type Harness, PUBLIC_URL, rejection, startHarness, tokenOf, until } from "./harness.js";

type NewRecipient = MessageInitShape<typeof NewRecipientSchema>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const actor = { apiKeyId: "key-1", ip: "203.0.113.7", userAgent: "jest" };

function people(): NewRecipient[] {
  return [
    { name: "Ada Client", email: "ada@example.com", role: "Client" },
    { name: "Bob Boss", email: "bob@example.com", role: "countersigner" },
    { name: "Carol Copy", email: "carol@example.com", kind: "cc" },
  ];
}

async function draft(
  workspaceId: string,
  overrides: { recipients?: NewRecipient[]; send?: boolean; title?: string } = {},
) {
  const templateId = await h.template(workspaceId);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId,
    title: overrides.title ?? "Mutual NDA",
    message: "Please sign by Friday.",
    templateId,
    recipients: overrides.recipients ?? people(),
    send: overrides.send ?? false,
    actor,
  });
  if (!signatureRequest) throw new Error("no request");
  return signatureRequest;
}

test("a request made from a template binds each role to its signer and copies the fields to them", async () => {
  const ws = uuidv7();
  const request = await draft(ws);
  expect(request.status).toBe("draft");
  const [ada, bob, carol] = request.recipients;
  expect([ada?.role, ada?.routingOrder, ada?.status]).toEqual(["Client", 1, "pending"]);
  // The role is matched as people read it and stored with the template's spelling.
  expect([bob?.role, bob?.routingOrder]).toEqual(["Countersigner", 2]);
  expect([carol?.kind, carol?.routingOrder]).toEqual(["cc", 1]);
  expect(request.fields.map((f) => f.recipientId)).toEqual([ada?.id, bob?.id]);
  expect(request.documentIds).toHaveLength(1);
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(entries.map((e) => e.action)).toEqual(["created"]);
});

test("a request created and sent at once is stored as a draft sent afterwards is: statuses, links, e-mails, trail and event", async () => {
  const ws = uuidv7();
  const shapeOf = async (id: string) => {
    const { signatureRequest: r } = await h.requests.getSignatureRequest({ workspaceId: ws, requestId: id });
    const trail = await h.requests.getAuditTrail({ workspaceId: ws, requestId: id });
    const position = (recipientId: string) => r?.recipients.findIndex((p) => p.id === recipientId);
    const links = await h.db.query<{ recipient_id: string; kind: string }>(
      "SELECT recipient_id, kind FROM signing_links WHERE request_id = $1",
      [id],
    );
    const queued = await h.db.query<{ recipient_id: string; kind: string; link_id: string | null }>(
      "SELECT recipient_id, kind, link_id FROM notifications WHERE request_id = $1",
      [id],
    );
    const sent = h.events.find((e) => e.type === "sent" && e.signatureRequest?.id === id);
    const sentDetails = JSON.parse(trail.entries[1]?.details ?? "{}") as {
      routingOrder: number;
      notified: string[];
    };
    return {
      status: r?.status,
      sent: r?.sendTime !== undefined && r.sendTime.seconds >= (r.createTime?.seconds ?? 0n),
      recipients: r?.recipients.map((p) => [p.status, p.routingOrder]),
      links: links.rows.map((l) => [position(l.recipient_id), l.kind]),
      queued: queued.rows.map((n) => [position(n.recipient_id), n.kind, n.link_id !== null]),
      trail: trail.entries.map((e) => [e.sequence, e.action, e.actorType, e.actorId]),
      verified: trail.verified,
      sentDetails: { routingOrder: sentDetails.routingOrder, notified: sentDetails.notified.map(position) },
      event: sent?.signatureRequest?.recipients.map((p) => [p.status, p.routingOrder]),
      eventStatus: sent?.signatureRequest?.status,
    };
  };
  const later = await draft(ws);
  await h.requests.sendSignatureRequest({ workspaceId: ws, requestId: later.id, actor });
  const atOnce = await draft(ws, { send: true });
  await until(
    () => h.events.filter((e) => e.type === "sent" && e.signatureRequest?.workspaceId === ws).length === 2,
  );

  const expected = await shapeOf(later.id);
  expect(expected).toMatchObject({
    status: "sent",
    sent: true,
    recipients: [
      ["sent", 1],
      ["pending", 2],
      ["pending", 1],
    ],
    links: [[0, "email"]],
    queued: [[0, "invitation", true]],
    trail: [
      [1, "created", "api_key", "key-1"],
      [2, "sent", "api_key", "key-1"],
    ],
    verified: true,
    sentDetails: { routingOrder: 1, notified: [0] },
  });
  expect(await shapeOf(atOnce.id)).toEqual(expected);
});

test("every broken rule of a new request is reported with its path", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const err = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: " ",
      templateId,
      recipients: [
        { name: "", email: "not-an-address", role: "Client" },
        { name: "X", email: "x@example.com", role: "Client", kind: "witness" },
      ],
      expireTime: timestampFromDate(new Date(Date.now() - 1000)),
    }),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(err).map((v) => v.path)).toEqual([
    "title",
    "expiresAt",
    "recipients[0].name",
    "recipients[0].email",
    "recipients[1].kind",
  ]);
});

test("every template role must be filled by exactly one signer who names it", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const err = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "NDA",
      templateId,
      recipients: [
        { name: "A", email: "a@example.com", role: "Client" },
        { name: "B", email: "b@example.com", role: "client" },
        { name: "C", email: "c@example.com", role: "Lawyer" },
      ],
    }),
  );
  expect(fieldViolations(err)).toEqual([
    { path: "recipients[1].role", message: '"Client" is already filled by recipients[0]' },
    { path: "recipients[2].role", message: "must name one of the template's roles (Client, Countersigner)" },
    { path: "recipients", message: 'no signer fills the role "Countersigner"' },
  ]);
});

test("another workspace's template cannot be used", async () => {
  const templateId = await h.template(uuidv7());
  const err = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: uuidv7(),
      title: "NDA",
      templateId,
      recipients: people(),
    }),
  );
  expect(fieldViolations(err)).toEqual([
    { path: "templateId", message: "there is no such template in this workspace" },
  ]);
});

test("sending notifies the first routing group only, by e-mail with a personal link, and announces 'sent'", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws);
  const { signatureRequest: sent } = await h.requests.sendSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
    actor,
  });
  expect(sent?.status).toBe("sent");
  expect(sent?.recipients.map((r) => r.status)).toEqual(["sent", "pending", "pending"]);
  const mails = (await h.mails()).slice(before);
  expect(mails.map((m) => m.to)).toEqual(["ada@example.com"]);
  expect(mails[0]?.subject).toContain("Mutual NDA");
  expect(mails[0]?.text).toContain("Please sign by Friday.");
  expect(mails[0]?.link?.startsWith(`${PUBLIC_URL}/sign/`)).toBe(true);
  await until(() => h.events.some((e) => e.type === "sent" && e.signatureRequest?.id === request.id));
  const opened = await h.requests.openSigningLink({ token: tokenOf(mails[0]?.link as string) });
  expect(opened.recipientId).toBe(request.recipients[0]?.id);
});

test("signers who share a routing order are sent at once, each an e-mail whose link opens as them", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws, {
    send: true,
    recipients: [
      { name: "Ada Client", email: "ada@example.com", role: "Client" },
      { name: "Bob Boss", email: "bob@example.com", role: "Countersigner", routingOrder: 1 },
    ],
  });
  expect(request.recipients.map((r) => r.status)).toEqual(["sent", "sent"]);
  const mails = (await h.mails()).slice(before);
  expect(mails.map((m) => m.to).sort()).toEqual(["ada@example.com", "bob@example.com"]);
  for (const mail of mails) {
    const opened = await h.requests.openSigningLink({ token: tokenOf(mail.link as string) });
    const addressee = request.recipients.find((r) => r.email === mail.to);
    expect(opened.recipientId).toBe(addressee?.id);
  }
});

test("a link token is stored only as its hash", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  await draft(ws, { send: true });
  const token = tokenOf((await h.mails())[before]?.link as string);
  const dump = await h.db.query<{ row: string }>("SELECT signing_links::text AS row FROM signing_links");
  expect(dump.rows.some((r) => r.row.includes(token))).toBe(false);
});

test("signers who sign embedded (clientUserId) get no e-mail, and cannot be reminded", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws, {
    send: true,
    recipients: [
      { name: "Ada", email: "ada@example.com", role: "Client", clientUserId: "user-42" },
      { name: "Bob", email: "bob@example.com", role: "Countersigner" },
    ],
  });
  expect(request.status).toBe("sent");
  expect((await h.mails()).length).toBe(before);
  const err = await rejection(
    h.requests.remindRecipient({ workspaceId: ws, recipientId: request.recipients[0]?.id as string }),
  );
  expect(err.code).toBe(Code.FailedPrecondition);
});

test("a second reminder within the interval is refused with the seconds to wait", async () => {
  const ws = uuidv7();
  const request = await draft(ws, { send: true });
  const ada = request.recipients[0]?.id as string;
  const before = (await h.mails()).length;
  await h.requests.remindRecipient({ workspaceId: ws, recipientId: ada, message: "Gentle nudge", actor });
  const mails = (await h.mails()).slice(before);
  expect(mails.map((m) => [m.to, m.text.includes("Gentle nudge")])).toEqual([["ada@example.com", true]]);
  const err = await rejection(h.requests.remindRecipient({ workspaceId: ws, recipientId: ada }));
  expect(err.code).toBe(Code.ResourceExhausted);
  const seconds = err.findDetails(RetryAfterSchema)[0]?.seconds ?? 0;
  expect(seconds).toBeGreaterThan(590);
  expect(seconds).toBeLessThanOrEqual(600);
  // Bob's turn has not come.
  const notYet = await rejection(
    h.requests.remindRecipient({ workspaceId: ws, recipientId: request.recipients[1]?.id as string }),
  );
  expect(notYet.code).toBe(Code.FailedPrecondition);
});

test("changing a recipient retires their old link (gone) and sends the new address a new one", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws, { send: true });
  const oldLink = (await h.mails())[before]?.link as string;
  const { signatureRequest } = await h.requests.updateRecipients({
    workspaceId: ws,
    requestId: request.id,
    changes: [{ id: request.recipients[0]?.id as string, email: "ada@new.example.com" }],
    actor,
  });
  expect(signatureRequest?.recipients[0]?.email).toBe("ada@new.example.com");
  const gone = await rejection(h.requests.openSigningLink({ token: tokenOf(oldLink) }));
  expect(problemOf(gone)).toBe("gone");
  const latest = (await h.mails()).at(-1);
  expect(latest?.to).toBe("ada@new.example.com");
  await h.requests.openSigningLink({ token: tokenOf(latest?.link as string) });
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  const change = entries.find((e) => e.action === "recipient_updated");
  expect(JSON.parse(change?.details ?? "{}")).toMatchObject({
    before: { email: "ada@example.com" },
    after: { email: "ada@new.example.com" },
  });
});

test("the signing links listed for an operator are those of each signer's latest e-mail, for signers whose turn it is", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws, { send: true });
  const [ada] = request.recipients;
  const first = await h.requests.listSigningLinks({ workspaceId: ws, requestId: request.id });
  // Bob's turn has not come and Carol signs nothing: only Ada's link, as her e-mail carries it.
  expect(first.links.map((l) => [l.recipientId, l.url])).toEqual([
    [ada?.id, (await h.mails())[before]?.link],
  ]);
  await h.requests.updateRecipients({
    workspaceId: ws,
    requestId: request.id,
    changes: [{ id: ada?.id as string, email: "ada@new.example.com" }],
    actor,
  });
  const replaced = await h.requests.listSigningLinks({ workspaceId: ws, requestId: request.id });
  expect(replaced.links.map((l) => l.url)).toEqual([(await h.mails()).at(-1)?.link]);
  const opened = await h.requests.openSigningLink({ token: tokenOf(replaced.links[0]?.url as string) });
  expect(opened.recipientId).toBe(ada?.id);
  const elsewhere = await rejection(
    h.requests.listSigningLinks({ workspaceId: uuidv7(), requestId: request.id }),
  );
  expect(elsewhere.code).toBe(Code.NotFound);
});

test("a recipient change naming someone not on the request is refused with its path", async () => {
  const ws = uuidv7();
  const request = await draft(ws);
  const err = await rejection(
    h.requests.updateRecipients({
      workspaceId: ws,
      requestId: request.id,
      changes: [{ id: uuidv7(), name: "Z" }],
    }),
  );
  expect(fieldViolations(err)).toEqual([
    { path: "recipients[0].id", message: "is not a recipient of this request" },
  ]);
});

test("cancelling retires every link and announces 'cancelled' with the reason", async () => {
  const ws = uuidv7();
  const before = (await h.mails()).length;
  const request = await draft(ws, { send: true });
  const link = (await h.mails())[before]?.link as string;
  const { signatureRequest } = await h.requests.cancelSignatureRequest({
    workspaceId: ws,
    requestId: request.id,
    reason: "wrong counterparty",
    actor,
  });
  expect([signatureRequest?.status, signatureRequest?.cancelReason]).toEqual([
    "cancelled",
    "wrong counterparty",
  ]);
  expect(problemOf(await rejection(h.requests.openSigningLink({ token: tokenOf(link) })))).toBe("gone");
  await until(() => h.events.some((e) => e.type === "cancelled" && e.signatureRequest?.id === request.id));
  const event = h.events.find((e) => e.type === "cancelled" && e.signatureRequest?.id === request.id);
  expect(event?.signatureRequest?.cancelReason).toBe("wrong counterparty");
});

describe("an open signing session ends at once", () => {
  /** A sent request (expiring soon when asked) and two sessions its first signer opened from the e-mail. */
  async function openSessions(expireInMs?: number) {
    const ws = uuidv7();
    const before = (await h.mails()).length;
    const { signatureRequest } = await h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Lease",
      templateId: await h.template(ws),
      recipients: people(),
      send: true,
      ...(expireInMs ? { expireTime: timestampFromDate(new Date(Date.now() + expireInMs)) } : {}),
    });
    const request = signatureRequest as NonNullable<typeof signatureRequest>;
    await until(async () => (await h.mails()).slice(before).some((m) => m.link));
    const link = (await h.mails()).slice(before).find((m) => m.link)?.link as string;
    const open = async () => (await h.requests.openSigningLink({ token: tokenOf(link) })).sessionToken;
    const sessions = [await open(), await open()];
    for (const sessionToken of sessions) await h.requests.getSigningSession({ sessionToken });
    return { ws, request, sessions };
  }

  const gone = async (sessionToken: string) => {
    const err = await rejection(h.requests.getSigningSession({ sessionToken }));
    return { problem: problemOf(err), message: err.rawMessage };
  };

  test("when the sender cancels: every session of the request answers gone, saying so", async () => {
    const { ws, request, sessions } = await openSessions();
    await h.requests.cancelSignatureRequest({ workspaceId: ws, requestId: request.id, reason: "", actor });
    for (const session of sessions) {
      expect(await gone(session)).toEqual({
        problem: "gone",
        message: "the sender cancelled this request; there is nothing left to sign",
      });
    }
  });

  test("when a signer declines: the other sessions answer gone", async () => {
    const { sessions } = await openSessions();
    const [declining = "", other = ""] = sessions;
    await h.requests.declineToSign({ sessionToken: declining, reason: "No", actor });
    expect(await gone(other)).toEqual({
      problem: "gone",
      message: "a signer declined this request; there is nothing left to sign",
    });
  });

  test("when the request expires: every session answers gone", async () => {
    const { sessions } = await openSessions(800);
    await new Promise((r) => setTimeout(r, 900));
    await h.module.sweepExpired();
    expect((await gone(sessions[0] ?? "")).problem).toBe("gone");
  });

  test("when the recipient's address changes: their sessions end, as their links did", async () => {
    const { ws, request, sessions } = await openSessions();
    await h.requests.updateRecipients({
      workspaceId: ws,
      requestId: request.id,
      changes: [{ id: request.recipients[0]?.id as string, email: "ada@new.example.com" }],
    });
    const err = await rejection(h.requests.getSigningSession({ sessionToken: sessions[0] ?? "" }));
    expect(err.code).toBe(Code.Unauthenticated);
  });
});

test("an embedded signing URL opens once, for a signer whose turn it is", async () => {
  const ws = uuidv7();
  const request = await draft(ws, { send: true });
  const [ada, bob] = request.recipients;
  const made = await h.requests.createEmbeddedSigningUrl({
    workspaceId: ws,
    requestId: request.id,
    recipientId: ada?.id as string,
    returnUrl: "https://app.example.com/done",
    actor,
  });
  expect(made.url.startsWith(`${PUBLIC_URL}/sign/`)).toBe(true);
  const ttl = Number(made.expireTime?.seconds) * 1000 - Date.now();
  expect(ttl).toBeGreaterThan(290_000);
  expect(ttl).toBeLessThanOrEqual(300_000);
  const opened = await h.requests.openSigningLink({ token: tokenOf(made.url), actor });
  expect([opened.recipientId, opened.returnUrl]).toEqual([ada?.id, "https://app.example.com/done"]);
  const used = await rejection(h.requests.openSigningLink({ token: tokenOf(made.url) }));
  expect(problemOf(used)).toBe("gone");
  // It names where the sender's app wants the signer back.
  expect(used.findDetails(SigningReturnSchema).map((d) => d.returnUrl)).toEqual([
    "https://app.example.com/done",
  ]);

  const notYet = await rejection(
    h.requests.createEmbeddedSigningUrl({
      workspaceId: ws,
      requestId: request.id,
      recipientId: bob?.id as string,
    }),
  );
  expect(notYet.rawMessage).toContain("earlier routing group");
  const badUrl = await rejection(
    h.requests.createEmbeddedSigningUrl({
      workspaceId: ws,
      requestId: request.id,
      recipientId: ada?.id as string,
      returnUrl: "javascript:alert(1)",
    }),
  );
  expect(fieldViolations(badUrl).map((v) => v.path)).toEqual(["returnUrl"]);
  const trail = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  // Opening the link is recorded with whose link it was; it is not yet a view (the page records that).
  expect(trail.entries.map((e) => [e.action, e.actorName, e.actorEmail])).toEqual([
    ["created", "", ""],
    ["sent", "", ""],
    ["embedded_signing_url_created", "", ""],
    ["link_opened", "Ada Client", "ada@example.com"],
  ]);
  expect(trail.verified).toBe(true);
});

test("an embedded URL opens in a frame only of an origin the workspace lists, and says so when gone", async () => {
  const ws = uuidv7();
  const request = await draft(ws, { send: true });
  const ada = request.recipients[0]?.id as string;
  const urlFor = (frameOrigin: string) =>
    h.requests.createEmbeddedSigningUrl({
      workspaceId: ws,
      requestId: request.id,
      recipientId: ada,
      frameOrigin,
    });
  // None by default: no page of another site may frame a signer until the workspace names it.
  expect((await h.requests.getEmbeddingSettings({ workspaceId: ws })).settings?.frameOrigins).toEqual([]);
  const unlisted = await rejection(urlFor("https://app.example.com"));
  expect(fieldViolations(unlisted)).toEqual([
    expect.objectContaining({ path: "frameOrigin", message: expect.stringContaining("not among") }),
  ]);

  const refused = await rejection(
    h.requests.updateEmbeddingSettings({
      workspaceId: ws,
      settings: {
        frameOrigins: [
          "https://APP.example.com/",
          "https://app.example.com",
          "http://app.example.com",
          "https://app.example.com/path",
          "https://user@app.example.com",
          "https://app.example.com;frame-ancestors *",
          // A host the URL parser keeps as it is, which would end the CSP directive it is written into.
          "https://app.example.com;script-src",
          "https://app.example.com:443",
          "http://localhost:5173",
        ],
      },
    }),
  );
  expect(fieldViolations(refused).map((v) => v.path)).toEqual([
    "frameOrigins[1]",
    "frameOrigins[2]",
    "frameOrigins[3]",
    "frameOrigins[4]",
    "frameOrigins[5]",
    "frameOrigins[6]",
    // The same origin as the first, its default port written out.
    "frameOrigins[7]",
  ]);
  const tooMany = await rejection(
    h.requests.updateEmbeddingSettings({
      workspaceId: ws,
      settings: { frameOrigins: Array.from({ length: 21 }, (_, i) => `https://app${i}.example.com`) },
    }),
  );
  expect(fieldViolations(tooMany).map((v) => v.path)).toEqual(["frameOrigins"]);

  const kept = await h.requests.updateEmbeddingSettings({
    workspaceId: ws,
    settings: {
      frameOrigins: ["https://APP.example.com/", "http://localhost:5173", "https://x.example.com:443"],
    },
  });
  expect(kept.settings?.frameOrigins).toEqual([
    "https://app.example.com",
    "http://localhost:5173",
    "https://x.example.com",
  ]);
  // Another workspace's list is its own.
  expect((await h.requests.getEmbeddingSettings({ workspaceId: uuidv7() })).settings?.frameOrigins).toEqual(
    [],
  );

  const made = await urlFor("https://app.example.com");
  const opened = await h.requests.openSigningLink({ token: tokenOf(made.url), actor });
  expect(opened.frameOrigin).toBe("https://app.example.com");
  // Used, it still names the frame it was made for, where the page saying so is shown.
  const used = await rejection(h.requests.openSigningLink({ token: tokenOf(made.url) }));
  expect(used.findDetails(SigningReturnSchema).map((d) => [d.returnUrl, d.frameOrigin])).toEqual([
    ["", "https://app.example.com"],
  ]);
  // A URL made without one opens as a page of its own.
  const plain = await h.requests.createEmbeddedSigningUrl({
    workspaceId: ws,
    requestId: request.id,
    recipientId: ada,
  });
  expect((await h.requests.openSigningLink({ token: tokenOf(plain.url) })).frameOrigin).toBe("");
  const { entries } = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(entries.filter((e) => e.action === "embedded_signing_url_created").map((e) => e.details)).toEqual([
    expect.stringContaining('"frameOrigin":"https://app.example.com"'),
    expect.not.stringContaining("frameOrigin"),
  ]);
});

test("a workspace's branding: ours by default, a readable colour and a PNG or JPEG logo kept, everything else refused by field", async () => {
  const ws = uuidv7();
  const ours = { accentColor: "", hideProductName: false, logoSha256: "" };
  expect((await h.requests.getBranding({ workspaceId: ws })).branding).toMatchObject(ours);

  const light = await rejection(
    h.requests.updateBranding({ workspaceId: ws, branding: { accentColor: "#ffe066" } }),
  );
  expect(fieldViolations(light)).toEqual([
    expect.objectContaining({ path: "accentColor", message: expect.stringContaining("too light") }),
  ]);
  // A sender name is one line that no reader could take for an address; every problem is named at once.
  const names = await rejection(
    h.requests.updateBranding({
      workspaceId: ws,
      branding: { accentColor: "#ffe066", emailSenderName: "Acme\r\nBcc: everyone@example.com" },
    }),
  );
  expect(fieldViolations(names).map((v) => [v.path, v.message])).toEqual([
    ["accentColor", expect.stringContaining("too light")],
    ["emailSenderName", "must be one line of text"],
  ]);
  for (const [emailSenderName, message] of [
    ["billing@bank.example", "must be a name, not an address"],
    ["billing\uFF20bank.example", "must be a name, not an address"],
    ["Acme\u202EgnisaeL", "must not hold invisible formatting characters"],
    ["x".repeat(71), "must be at most 70 characters"],
  ]) {
    const refused = await rejection(
      h.requests.updateBranding({ workspaceId: ws, branding: { emailSenderName } }),
    );
    expect(fieldViolations(refused)).toEqual([
      expect.objectContaining({
        path: "emailSenderName",
        message: expect.stringContaining(message as string),
      }),
    ]);
  }
  // Without our name, e-mails need the workspace's own.
  const nameless = await rejection(
    h.requests.updateBranding({ workspaceId: ws, branding: { hideProductName: true } }),
  );
  expect(fieldViolations(nameless)).toEqual([
    expect.objectContaining({ path: "emailSenderName", message: expect.stringContaining("is needed") }),
  ]);
  const kept = await h.requests.updateBranding({
    workspaceId: ws,
    branding: {
      accentColor: "#0B6E4F",
      hideProductName: true,
      logoSha256: "not read",
      emailSenderName: " Acme Leasing ",
    },
  });
  expect(kept.branding).toMatchObject({
    accentColor: "#0b6e4f",
    hideProductName: true,
    logoSha256: "",
    emailSenderName: "Acme Leasing",
  });

  const refusedLogo = async (content: Uint8Array) =>
    fieldViolations(
      await rejection(
        h.requests.setBrandingLogo({ workspaceId: ws, logo: { content, contentType: "image/png" } }),
      ),
    );
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><script>alert(1)</script></svg>',
  );
  expect(await refusedLogo(svg)).toEqual([
    expect.objectContaining({ path: "logo", message: "must be a PNG or JPEG image, not svg" }),
  ]);
  expect(await refusedLogo(Buffer.from("%PDF-1.7 not an image"))).toEqual([
    expect.objectContaining({ message: "must be a PNG or JPEG image" }),
  ]);
  expect(await refusedLogo(makePng({ width: 2000, height: 100 }))).toEqual([
    expect.objectContaining({ message: expect.stringContaining("is 2000×100 pixels") }),
  ]);
  expect(await refusedLogo(Buffer.alloc(100 * 1024 + 1, 0xff))).toEqual([
    expect.objectContaining({ message: "must be at most 100 KiB" }),
  ]);

  // A PNG keeps what draws it, not its author's notes.
  const notes = makePng({
    width: 200,
    height: 50,
    before: [["tEXt", Buffer.from("Author\0WHO-MADE-THE-LOGO")]],
  });
  await h.requests.setBrandingLogo({ workspaceId: ws, logo: { content: notes } });
  const png = await h.requests.getBrandingLogo({ workspaceId: ws });
  expect(png.logo?.contentType).toBe("image/png");
  expect(Buffer.from(png.logo?.content ?? []).includes("WHO-MADE-THE-LOGO")).toBe(false);
  // A JPEG keeps what draws it, not where the photo was taken.
  const photo = withMetadata(await makeJpeg(), "WHERE-THE-LOGO-WAS-TAKEN");
  const withLogo = await h.requests.setBrandingLogo({
    workspaceId: ws,
    logo: { content: photo, contentType: "image/png" },
  });
  // The colour stays as it was set.
  expect(withLogo.branding).toMatchObject({
    accentColor: "#0b6e4f",
    logoSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  const stored = await h.requests.getBrandingLogo({ workspaceId: ws });
  expect(stored.logo?.contentType).toBe("image/jpeg");
  expect(stored.sha256).toBe(withLogo.branding?.logoSha256);
  expect(Buffer.from(stored.logo?.content ?? []).includes("WHERE-THE-LOGO-WAS-TAKEN")).toBe(false);
  // The signing page is shown with it, from the first screen.
  const request = await draft(ws, { send: true });
  const link = await h.requests.createEmbeddedSigningUrl({
    workspaceId: ws,
    requestId: request.id,
    recipientId: request.recipients[0]?.id as string,
  });
  const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(link.url) });
  expect((await h.requests.getSigningSession({ sessionToken })).branding).toMatchObject({
    accentColor: "#0b6e4f",
    hideProductName: true,
    logoSha256: withLogo.branding?.logoSha256,
  });
  // Removed, the logo is gone; another workspace never had one.
  await h.requests.setBrandingLogo({ workspaceId: ws });
  expect((await rejection(h.requests.getBrandingLogo({ workspaceId: ws }))).code).toBe(Code.NotFound);
  expect((await rejection(h.requests.getBrandingLogo({ workspaceId: uuidv7() }))).code).toBe(Code.NotFound);
  expect((await rejection(h.requests.getBrandingLogo({ workspaceId: "not-a-uuid" }))).code).toBe(
    Code.NotFound,
  );
});

test("the sender's own ids come back as given, on the request and its recipients, in its events and as a list filter", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const make = (externalId: string, recipients = people()) =>
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Order",
      templateId,
      recipients,
      externalId,
      send: true,
      // Locked, no signer may hand it on, whatever allowReassign says.
      allowReassign: true,
      lockSignerIdentity: true,
      actor,
    });
  const withIds = people().map((p, i) => ({ ...p, externalId: `user-${i}` }));
  const { signatureRequest: first } = await make("order-1234", withIds);
  await make("order-1234");
  await make("order-5678");
  expect([first?.externalId, first?.lockSignerIdentity, first?.allowReassign]).toEqual([
    "order-1234",
    true,
    false,
  ]);
  expect(first?.recipients.map((r) => r.externalId)).toEqual(["user-0", "user-1", "user-2"]);
  const listed = await h.requests.listSignatureRequests({
    workspaceId: ws,
    externalId: "order-1234",
    pageSize: 10,
  });
  expect(listed.signatureRequests.map((r) => r.externalId)).toEqual(["order-1234", "order-1234"]);
  expect(listed.totalCount).toBe(2);
  await until(() => h.events.some((e) => e.type === "sent" && e.signatureRequest?.id === first?.id));
  const sent = h.events.find((e) => e.type === "sent" && e.signatureRequest?.id === first?.id);
  expect(sent?.signatureRequest?.externalId).toBe("order-1234");
  expect(sent?.signatureRequest?.recipients.map((r) => r.externalId)).toEqual(["user-0", "user-1", "user-2"]);
  const tooLong = await rejection(make("x".repeat(201)));
  expect(fieldViolations(tooLong).map((v) => v.path)).toEqual(["externalId"]);
});

test("an unknown or malformed link token is not found", async () => {
  expect((await rejection(h.requests.openSigningLink({ token: "x".repeat(43) }))).code).toBe(Code.NotFound);
  expect((await rejection(h.requests.openSigningLink({ token: "../../etc" }))).code).toBe(Code.NotFound);
});

test("the audit trail chains its entries and detects an entry changed afterwards", async () => {
  const ws = uuidv7();
  const request = await draft(ws, { send: true });
  await h.requests.cancelSignatureRequest({ workspaceId: ws, requestId: request.id, reason: "test", actor });
  const trail = await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id });
  expect(trail.entries.map((e) => e.action)).toEqual(["created", "sent", "cancelled"]);
  expect(trail.verified).toBe(true);
  expect(trail.entries[1]?.previousHash).toBe(trail.entries[0]?.hash);
  expect([trail.entries[2]?.actorId, trail.entries[2]?.ip]).toEqual(["key-1", "203.0.113.7"]);

  await h.db.query(
    `UPDATE audit_entries SET details = jsonb_set(details, '{reason}', '"edited"') WHERE request_id = $1 AND sequence = 3`,
    [request.id],
  );
  expect((await h.requests.getAuditTrail({ workspaceId: ws, requestId: request.id })).verified).toBe(false);
});

test("expiry turns due requests into expired once, retires their links and announces 'expired'", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Short-lived",
    templateId,
    recipients: people(),
    expireTime: timestampFromDate(new Date(Date.now() + 300)),
    send: true,
  });
  const id = signatureRequest?.id as string;
  await new Promise((r) => setTimeout(r, 400));
  const [first, second] = await Promise.all([h.module.sweepExpired(), h.module.sweepExpired()]);
  expect(first + second).toBeGreaterThanOrEqual(1);
  const { signatureRequest: after } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: id,
  });
  expect(after?.status).toBe("expired");
  await until(() => h.events.some((e) => e.type === "expired" && e.signatureRequest?.id === id));
  await new Promise((r) => setTimeout(r, 100));
  expect(h.events.filter((e) => e.type === "expired" && e.signatureRequest?.id === id)).toHaveLength(1);
  const trail = await h.requests.getAuditTrail({ workspaceId: ws, requestId: id });
  expect(trail.entries.at(-1)).toMatchObject({ action: "expired", actorType: "system" });
  expect(trail.verified).toBe(true);
});

test("a proposal no one decided on expires when it is due, as a sent request does", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Proposed, then forgotten",
    templateId,
    recipients: people(),
    expireTime: timestampFromDate(new Date(Date.now() + 300)),
    send: true,
    propose: true,
  });
  expect(signatureRequest?.status).toBe("awaiting_approval");
  const id = signatureRequest?.id as string;
  await new Promise((r) => setTimeout(r, 400));
  expect(await h.module.sweepExpired()).toBeGreaterThanOrEqual(1);
  const { signatureRequest: after } = await h.requests.getSignatureRequest({
    workspaceId: ws,
    requestId: id,
  });
  expect(after?.status).toBe("expired");
  expect(after?.proposal?.decision).toBe("");
});

test("a request that cannot be expired is skipped, and the other due requests expire in the same sweep", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const due = async () =>
    (
      await h.requests.createSignatureRequest({
        workspaceId: ws,
        title: "Due",
        templateId,
        recipients: people(),
        expireTime: timestampFromDate(new Date(Date.now() + 200)),
        send: true,
      })
    ).signatureRequest?.id as string;
  const [broken, healthy] = [await due(), await due()];
  // A fault in one request's row: its update fails, as a corrupt row or a bug would make it.
  await h.db.query(
    `CREATE FUNCTION refuse_expiry() RETURNS trigger AS $$ BEGIN
       IF NEW.status = 'expired' AND NEW.id = '${broken}' THEN RAISE EXCEPTION 'injected fault'; END IF;
       RETURN NEW; END $$ LANGUAGE plpgsql`,
  );
  await h.db.query(
    "CREATE TRIGGER refuse_expiry BEFORE UPDATE ON signature_requests FOR EACH ROW EXECUTE FUNCTION refuse_expiry()",
  );
  try {
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.module.sweepExpired()).toBeGreaterThanOrEqual(1);
    const status = async (requestId: string) =>
      (await h.requests.getSignatureRequest({ workspaceId: ws, requestId })).signatureRequest?.status;
    expect([await status(broken), await status(healthy)]).toEqual(["sent", "expired"]);
  } finally {
    await h.db.query("DROP TRIGGER refuse_expiry ON signature_requests");
    await h.db.query("DROP FUNCTION refuse_expiry()");
  }
  expect(await h.module.sweepExpired()).toBeGreaterThanOrEqual(1);
});

test("claims left by a process that died before committing are released; claims in use are kept", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId: ws,
    title: "Kept",
    templateId,
    recipients: people(),
  });
  const orphan = await h.upload(ws);
  // What a crash between claiming and committing leaves: claims whose holder never came to be.
  for (const holder of [`request:${uuidv7()}`, `template:${uuidv7()}`]) {
    await h.documents.claimDocument({ workspaceId: ws, documentId: orphan, holder });
  }
  const refused = await rejection(h.documents.deleteDocument({ workspaceId: ws, documentId: orphan }));
  expect(refused.code).toBe(Code.FailedPrecondition);
  // Young claims may belong to work in flight: left alone.
  expect(await h.module.sweepClaims()).toBe(0);
  expect(await h.module.sweepClaims(0)).toBe(1);
  expect(await h.templatesModule.sweepClaims(0)).toBe(1);
  await h.documents.deleteDocument({ workspaceId: ws, documentId: orphan });
  // The request's and the template's own claims still hold their document.
  const used = signatureRequest?.documentIds[0] as string;
  const stillUsed = await rejection(h.documents.deleteDocument({ workspaceId: ws, documentId: used }));
  expect(stillUsed.code).toBe(Code.FailedPrecondition);
});

test("an event written while the bus is down arrives once it is back, exactly once", async () => {
  const ws = uuidv7();
  h.bus.down = true;
  let request: Awaited<ReturnType<typeof draft>>;
  try {
    request = await draft(ws, { send: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(h.events.some((e) => e.signatureRequest?.id === request.id)).toBe(false);
  } finally {
    h.bus.down = false;
  }
  await until(() => h.events.some((e) => e.type === "sent" && e.signatureRequest?.id === request.id), 10_000);
  await new Promise((r) => setTimeout(r, 1500));
  const sent = h.events.filter((e) => e.type === "sent" && e.signatureRequest?.id === request.id);
  expect(sent).toHaveLength(1);
});

test("lists filter by status, page newest first and count every match", async () => {
  const ws = uuidv7();
  const a = await draft(ws);
  const b = await draft(ws, { send: true });
  const c = await draft(ws, { send: true });
  const sent = await h.requests.listSignatureRequests({
    workspaceId: ws,
    status: "sent",
    pageIndex: 0,
    pageSize: 1,
  });
  expect([sent.signatureRequests.map((r) => r.id), sent.totalCount]).toEqual([[c.id], 2]);
  const all = await h.requests.listSignatureRequests({ workspaceId: ws, pageIndex: 0, pageSize: 10 });
  expect(all.signatureRequests.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
  expect(all.signatureRequests[0]?.recipients).toHaveLength(3);
  const bad = await rejection(
    h.requests.listSignatureRequests({ workspaceId: ws, status: "done", pageSize: 5 }),
  );
  expect(bad.code).toBe(Code.InvalidArgument);
});

test("lists keep only requests changed since a time, or named by id, and every condition at once", async () => {
  const ws = uuidv7();
  const old = await draft(ws);
  await new Promise((r) => setTimeout(r, 20));
  const since = new Date();
  const fresh = await draft(ws);
  const list = (filter: {
    changedSince?: Date;
    requestIds?: string[];
    status?: string;
    statuses?: string[];
  }) =>
    h.requests
      .listSignatureRequests({
        workspaceId: ws,
        pageSize: 10,
        status: filter.status,
        statuses: filter.statuses,
        requestIds: filter.requestIds,
        changedSince: filter.changedSince ? timestampFromDate(filter.changedSince) : undefined,
      })
      .then((page) => page.signatureRequests.map((r) => r.id));
  expect(await list({ changedSince: since })).toEqual([fresh.id]);
  // A change moves an old request into the window.
  await h.requests.sendSignatureRequest({ workspaceId: ws, requestId: old.id, actor });
  expect(await list({ changedSince: since })).toEqual([fresh.id, old.id]);
  expect(await list({ requestIds: [old.id, "not-a-uuid", uuidv7()] })).toEqual([old.id]);
  expect(await list({ requestIds: ["not-a-uuid"] })).toEqual([]);
  expect(await list({ requestIds: [old.id, fresh.id], status: "draft" })).toEqual([fresh.id]);
  expect(await list({ statuses: ["sent", "in_progress"] })).toEqual([old.id]);
  expect(await list({ statuses: ["draft", "sent"] })).toEqual([fresh.id, old.id]);
  // Another workspace's request is not listed by its id.
  expect(
    (await h.requests.listSignatureRequests({ workspaceId: uuidv7(), requestIds: [old.id], pageSize: 10 }))
      .signatureRequests,
  ).toEqual([]);
  const tooMany = await rejection(
    h.requests.listSignatureRequests({ workspaceId: ws, requestIds: Array.from({ length: 101 }, uuidv7) }),
  );
  expect(tooMany.code).toBe(Code.InvalidArgument);
});

test("lists search titles and recipients as typed, keep a creation window and sort as asked", async () => {
  const ws = uuidv7();
  const lease = await draft(ws, { title: "Lease: 50%_off" });
  await new Promise((r) => setTimeout(r, 20));
  const between = new Date();
  const renamed = people().map((p, i) =>
    i === 0 ? { ...p, name: "Zoë Quist", email: "zoe@quist.test" } : p,
  );
  const nda = await draft(ws, { title: "Alpha NDA", recipients: renamed });
  const list = (filter: { search?: string; createdAfter?: Date; createdBefore?: Date; order?: string }) =>
    h.requests
      .listSignatureRequests({
        workspaceId: ws,
        pageSize: 10,
        search: filter.search,
        order: filter.order,
        createdAfter: filter.createdAfter ? timestampFromDate(filter.createdAfter) : undefined,
        createdBefore: filter.createdBefore ? timestampFromDate(filter.createdBefore) : undefined,
      })
      .then((page) => page.signatureRequests.map((r) => r.id));
  expect(await list({ search: "lease" })).toEqual([lease.id]);
  // % and _ are found as typed, not read as wildcards.
  expect(await list({ search: "50%_" })).toEqual([lease.id]);
  expect(await list({ search: "5%0" })).toEqual([]);
  // A recipient's name or address finds the request too.
  expect(await list({ search: "zoë" })).toEqual([nda.id]);
  expect(await list({ search: "QUIST.TEST" })).toEqual([nda.id]);
  expect(await list({ search: "ada@example.com" })).toEqual([lease.id]);
  expect(await list({ createdAfter: between })).toEqual([nda.id]);
  expect(await list({ createdBefore: between })).toEqual([lease.id]);
  expect(await list({})).toEqual([nda.id, lease.id]);
  expect(await list({ order: "oldest" })).toEqual([lease.id, nda.id]);
  expect(await list({ order: "title" })).toEqual([nda.id, lease.id]);
  await h.requests.sendSignatureRequest({ workspaceId: ws, requestId: lease.id, actor });
  expect(await list({ order: "changed" })).toEqual([lease.id, nda.id]);
  for (const bad of [{ order: "cheapest" }, { search: "x".repeat(201) }, { search: "a\u0000b" }]) {
    const refused = await rejection(h.requests.listSignatureRequests({ workspaceId: ws, ...bad }));
    expect(refused.code).toBe(Code.InvalidArgument);
  }
});

test("the sender's own ids for recipients and documents are kept, and must be unique in a request", async () => {
  const ws = uuidv7();
  const recipients = people().map((r, i) => ({ ...r, externalId: String(i + 1) }));
  const request = await draft(ws, { recipients });
  expect(request.recipients.map((r) => r.externalId)).toEqual(["1", "2", "3"]);
  const read = await h.requests.getSignatureRequest({ workspaceId: ws, requestId: request.id });
  expect(read.signatureRequest?.recipients.map((r) => r.externalId)).toEqual(["1", "2", "3"]);

  const twice = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Twice",
      templateId: await h.template(ws),
      recipients: people().map((r) => ({ ...r, externalId: "7" })),
      actor,
    }),
  );
  expect(fieldViolations(twice)).toEqual([
    { path: "recipients[1].externalId", message: '"7" is given twice' },
    { path: "recipients[2].externalId", message: '"7" is given twice' },
  ]);
  const unpaired = await rejection(
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Unpaired",
      documentIds: [uuidv7()],
      documentExternalIds: ["1", "2"],
      recipients: people(),
      actor,
    }),
  );
  expect(fieldViolations(unpaired).map((v) => v.path)).toContain("documentExternalIds");
});

test("a request's document cannot be deleted while the request uses it", async () => {
  const ws = uuidv7();
  const request = await draft(ws);
  const err = await rejection(
    h.documents.deleteDocument({ workspaceId: ws, documentId: request.documentIds[0] as string }),
  );
  expect(err.code).toBe(Code.FailedPrecondition);
  expect(err.rawMessage).toContain(`request:${request.id}`);
});

test("agreement sets derive their status from their requests and take each request once", async () => {
  const ws = uuidv7();
  const a = await draft(ws, { send: true });
  const b = await draft(ws);
  const { agreementSet } = await h.requests.createAgreementSet({
    workspaceId: ws,
    name: "Onboarding",
    requestIds: [a.id, b.id],
    actor,
  });
  expect(agreementSet?.requests.map((r) => [r.requestId, r.status])).toEqual([
    [a.id, "sent"],
    [b.id, "draft"],
  ]);
  expect(agreementSet?.status).toBe("in_progress");
  for (const id of [a.id, b.id]) await h.requests.cancelSignatureRequest({ workspaceId: ws, requestId: id });
  const { agreementSet: done } = await h.requests.getAgreementSet({
    workspaceId: ws,
    agreementSetId: agreementSet?.id as string,
  });
  expect(done?.status).toBe("incomplete");

  const other = await draft(uuidv7());
  const err = await rejection(
    h.requests.createAgreementSet({ workspaceId: ws, name: "Again", requestIds: [a.id, other.id] }),
  );
  expect(fieldViolations(err)).toEqual([
    { path: "requestIds[0]", message: `belongs to agreement set ${agreementSet?.id} already` },
    { path: "requestIds[1]", message: "there is no such signature request in this workspace" },
  ]);
});

describe("made from documents, with fields given in the request", () => {
  const signature = { type: "signature", page: 1, x: 50, y: 600, width: 150, height: 40, required: true };

  test("each field is bound to the signer whose role it names, on the document it names", async () => {
    const ws = uuidv7();
    const [first, second] = [await h.upload(ws), await h.upload(ws, 2)];
    const { signatureRequest } = await h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Lease",
      documentIds: [first, second],
      documentExternalIds: ["lease", "annex"],
      fields: [
        { ...signature, role: "Tenant" },
        { ...signature, role: "landlord", documentId: second, page: 2 },
      ],
      recipients: [
        { name: "Ada", email: "ada@example.com", role: "Tenant" },
        { name: "Bob", email: "bob@example.com", role: "Landlord", routingOrder: 2 },
      ],
      send: true,
    });
    const [ada, bob] = signatureRequest?.recipients ?? [];
    expect(signatureRequest?.templateId).toBe("");
    expect(signatureRequest?.documentIds).toEqual([first, second]);
    expect(signatureRequest?.documentExternalIds).toEqual(["lease", "annex"]);
    expect(signatureRequest?.fields.map((f) => [f.recipientId, f.documentId, f.page])).toEqual([
      [ada?.id, first, 1],
      [bob?.id, second, 2],
    ]);
    expect(signatureRequest?.recipients.map((r) => r.status)).toEqual(["sent", "pending"]);
    for (const documentId of [first, second]) {
      const err = await rejection(h.documents.deleteDocument({ workspaceId: ws, documentId }));
      expect(err.code).toBe(Code.FailedPrecondition);
    }
  });

  test("every broken layout rule is reported with its path, and nothing stays claimed", async () => {
    const ws = uuidv7();
    const document = await h.upload(ws);
    const err = await rejection(
      h.requests.createSignatureRequest({
        workspaceId: ws,
        title: "Lease",
        documentIds: [document],
        fields: [
          { ...signature, role: "Tenant", page: 3 },
          { ...signature, role: "Tenant", x: 500 },
          { ...signature, role: "Tenant", documentId: uuidv7() },
          { ...signature, role: "Tenant", type: "stamp" },
        ],
        recipients: [
          { name: "Ada", email: "ada@example.com", role: "Tenant" },
          { name: "Bob", email: "bob@example.com", role: "Landlord" },
          { name: "Cy", email: "cy@example.com" },
        ],
      }),
    );
    expect(fieldViolations(err).map((v) => v.path)).toEqual([
      "recipients[2].role",
      "fields[2].documentId",
      "fields[3].type",
      "recipients[1]",
    ]);
    const placed = await rejection(
      h.requests.createSignatureRequest({
        workspaceId: ws,
        title: "Lease",
        documentIds: [document],
        fields: [
          { ...signature, role: "Tenant", page: 3 },
          { ...signature, role: "Tenant", x: 500 },
        ],
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Tenant" }],
      }),
    );
    expect(fieldViolations(placed)).toEqual([
      { path: "fields[0].page", message: "page 3 does not exist: the document has 1 page" },
      { path: "fields[1].x", message: expect.stringContaining("lies outside the page") },
    ]);
    await h.documents.deleteDocument({ workspaceId: ws, documentId: document });
  });

  test("documents with more pages together than a request may have are refused, saying the limit, and nothing stays claimed", async () => {
    const ws = uuidv7();
    const limited = await h.buildModule({ maxRequestPages: 5 });
    const requests = serviceClient(RequestsService, h.transport(limited));
    const [three, other] = [await h.upload(ws, 3), await h.upload(ws, 3)];
    const request = (documentIds: string[]) =>
      requests.createSignatureRequest({
        workspaceId: ws,
        title: "Lease",
        documentIds,
        fields: [{ ...signature, role: "Tenant" }],
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Tenant" }],
      });
    const err = await rejection(request([three, other]));
    expect(fieldViolations(err)).toEqual([
      { path: "documentIds", message: "the documents have 6 pages together; a request has at most 5" },
    ]);
    await h.documents.deleteDocument({ workspaceId: ws, documentId: other });
    expect((await request([three])).signatureRequest?.documentIds).toEqual([three]);
  });

  test("a template and documents together, or neither, are refused; so is another workspace's document", async () => {
    const ws = uuidv7();
    const templateId = await h.template(ws);
    const both = await rejection(
      h.requests.createSignatureRequest({
        workspaceId: ws,
        title: "X",
        templateId,
        documentIds: [await h.upload(ws)],
        recipients: people(),
      }),
    );
    expect(fieldViolations(both).map((v) => v.path)).toEqual(["documentIds"]);
    const neither = await rejection(
      h.requests.createSignatureRequest({ workspaceId: ws, title: "X", recipients: people() }),
    );
    expect(fieldViolations(neither).map((v) => v.path)).toContain("templateId");
    const foreign = await rejection(
      h.requests.createSignatureRequest({
        workspaceId: ws,
        title: "X",
        documentIds: [await h.upload(uuidv7())],
        fields: [{ ...signature, role: "Tenant" }],
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Tenant" }],
      }),
    );
    expect(fieldViolations(foreign)).toEqual([
      { path: "documentIds[0]", message: "there is no such document in this workspace" },
    ]);
  });
});

test("a creation retried under the same operation key makes one request, even when run at once", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  const create = (operationKey: string) =>
    h.requests.createSignatureRequest({
      workspaceId: ws,
      title: "Once",
      templateId,
      recipients: people(),
      send: true,
      actor,
      operationKey,
    });
  const [first, second] = await Promise.all([create("op-1"), create("op-1")]);
  const again = await create("op-1");
  expect(second.signatureRequest?.id).toBe(first.signatureRequest?.id);
  expect(again.signatureRequest?.id).toBe(first.signatureRequest?.id);
  expect(again.signatureRequest?.status).toBe("sent");
  // As many invitations as one creation sends, not one set per call.
  const invitations = async () => (await h.mails()).filter((m) => m.subject.includes("Once")).length;
  await until(async () => (await invitations()) > 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const once = await invitations();
  expect(await invitations()).toBe(once);
  const other = await create("op-2");
  expect(other.signatureRequest?.id).not.toBe(first.signatureRequest?.id);
  await until(async () => (await invitations()) === 2 * once);
  const listed = await h.requests.listSignatureRequests({ workspaceId: ws, pageSize: 10 });
  expect(listed.signatureRequests).toHaveLength(2);

  // Another workspace's operation keys are its own.
  const elsewhere = uuidv7();
  const theirs = await h.requests.createSignatureRequest({
    workspaceId: elsewhere,
    title: "Theirs",
    templateId: await h.template(elsewhere),
    recipients: people(),
    actor,
    operationKey: "op-1",
  });
  expect(theirs.signatureRequest?.id).not.toBe(first.signatureRequest?.id);
  const tooLong = await rejection(create("k".repeat(129)));
  expect(tooLong.code).toBe(Code.InvalidArgument);
});
