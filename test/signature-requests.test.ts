/**
 * Signature requests through the public API in both modes: the lifecycle of the spec (create from a
 * template, send, remind, update recipients, resend, cancel, agreement set, embedded signing URL)
 * with e-mails received by a real SMTP server, every response checked against the OpenAPI
 * document, and the tenant-isolation matrix over every new route.
 */
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, eventually, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";
import { type ReceivedMail, startSmtpPeer } from "./support/smtp-peer.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const infra = await distributedInfra();
const smtp = await startSmtpPeer();
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: { SMTP_URL: smtp.url } })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: { SMTP_URL: smtp.url } })]);
afterAll(async () => {
  await infra?.close();
  await smtp.close();
});

const RANDOM_ID = "0192f5d8-0000-7000-8000-000000000000";

interface RequestBody {
  id: string;
  status: string;
  recipients: { id: string; email: string; status: string; role: string | null; locale: string | null }[];
}

describe.each(modes)("%s mode: signature requests", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string; accountId: string };
  let stranger: { secret: string; accountId: string };
  const api = () => `${gateway}/api/v1`;
  const account = () => `${gateway}/v1/accounts/${key.accountId}`;
  /** A mailbox per test run, so the two modes do not read each other's mail. */
  let domain: string;

  const templateId = () => createTwoRoleTemplate(api(), key.secret);

  function recipients(tag: string) {
    return [
      { name: "Ada Client", email: `ada.${tag}@${domain}`, role: "Client" },
      { name: "Cy Company", email: `cy.${tag}@${domain}`, role: "Company" },
    ];
  }

  async function create(body: Record<string, unknown>, base = api()): Promise<Reply> {
    return call(base, "/signature-requests", { key: key.secret, method: "POST", json: body });
  }

  const mailTo = (address: string, count = 1): Promise<ReceivedMail[]> =>
    eventually(async () => {
      const mails = smtp.mails.filter((m) => m.to === address);
      return mails.length >= count ? mails : undefined;
    });

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    domain = `${deployment.mode}.example.com`;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "requests")).stdout);
    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Stranger")).stdout) as {
      id: string;
    };
    stranger = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "stranger", "--workspace", other.id)).stdout,
    );
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("the lifecycle of the spec, end to end, in both families", async () => {
    const template = await templateId();
    const created = await create({
      title: "Mutual NDA",
      message: "Please sign by Friday.",
      templateId: template,
      recipients: recipients("life"),
    });
    expect(created.status).toBe(201);
    expectDocumented("POST", "/api/v1/signature-requests", 201, created.body);
    const draft = created.body as RequestBody;
    expect(draft.status).toBe("draft");
    const [ada, cy] = draft.recipients as [RequestBody["recipients"][0], RequestBody["recipients"][0]];

    const sent = await call(account(), `/signature-requests/${draft.id}/send`, {
      key: key.secret,
      method: "POST",
    });
    expectDocumented("POST", "/v1/accounts/{accountId}/signature-requests/{requestId}/send", 200, sent.body);
    expect((sent.body as RequestBody).recipients.map((r) => r.status)).toEqual(["sent", "pending"]);
    const [invitation] = await mailTo(ada.email);
    expect(invitation?.subject).toContain("Mutual NDA");
    expect(invitation?.text).toContain("Please sign by Friday.");
    expect(invitation?.link?.startsWith(`${gateway.replace("127.0.0.1", "localhost")}/sign/`)).toBe(true);
    expect(smtp.mails.some((m) => m.to === cy.email)).toBe(false);

    const reminded = await call(api(), `/recipients/${ada.id}/reminders`, {
      key: key.secret,
      method: "POST",
      json: { message: "A gentle nudge" },
    });
    expect(reminded.status).toBe(202);
    expectDocumented("POST", "/api/v1/recipients/{recipientId}/reminders", 202, reminded.body);
    expect((await mailTo(ada.email, 2))[1]?.text).toContain("A gentle nudge");
    const again = await call(api(), `/recipients/${ada.id}/reminders`, { key: key.secret, method: "POST" });
    expectDocumented("POST", "/api/v1/recipients/{recipientId}/reminders", 429, again.body);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(500);

    const moved = `ada.moved@${domain}`;
    const updated = await call(api(), `/signature-requests/${draft.id}/recipients`, {
      key: key.secret,
      method: "PATCH",
      json: { recipients: [{ id: ada.id, email: moved }] },
    });
    expectDocumented("PATCH", "/api/v1/signature-requests/{requestId}/recipients", 200, updated.body);
    expect((updated.body as RequestBody).recipients[0]?.email).toBe(moved);
    await mailTo(moved);

    const resent = await call(api(), `/signature-requests/${draft.id}/resend`, {
      key: key.secret,
      method: "POST",
    });
    expectDocumented("POST", "/api/v1/signature-requests/{requestId}/resend", 200, resent.body);
    await mailTo(moved, 2);

    const embedded = await call(api(), "/embedded-signing-url", {
      key: key.secret,
      method: "POST",
      json: { requestId: draft.id, recipientId: ada.id, returnUrl: "https://app.example.com/done" },
    });
    expect(embedded.status).toBe(201);
    expectDocumented("POST", "/api/v1/embedded-signing-url", 201, embedded.body);
    const notYet = await call(api(), "/embedded-signing-url", {
      key: key.secret,
      method: "POST",
      json: { requestId: draft.id, recipientId: cy.id },
    });
    expectDocumented("POST", "/api/v1/embedded-signing-url", 409, notYet.body);

    const other = await create({
      title: "Side letter",
      templateId: template,
      recipients: recipients("side"),
    });
    const set = await call(api(), "/agreement-sets", {
      key: key.secret,
      method: "POST",
      json: { name: "Onboarding", requestIds: [draft.id, (other.body as RequestBody).id] },
    });
    expect(set.status).toBe(201);
    expectDocumented("POST", "/api/v1/agreement-sets", 201, set.body);
    const setId = (set.body as { id: string }).id;
    const fetchedSet = await call(account(), `/agreement-sets/${setId}`, { key: key.secret });
    expectDocumented("GET", "/v1/accounts/{accountId}/agreement-sets/{agreementSetId}", 200, fetchedSet.body);
    expect(fetchedSet.body).toMatchObject({
      status: "in_progress",
      requestIds: [draft.id, (other.body as RequestBody).id],
    });

    const cancelled = await call(api(), `/signature-requests/${draft.id}/cancel`, {
      key: key.secret,
      method: "POST",
      json: { reason: "superseded" },
    });
    expectDocumented("POST", "/api/v1/signature-requests/{requestId}/cancel", 200, cancelled.body);
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelReason: "superseded" });
    const twice = await call(api(), `/signature-requests/${draft.id}/cancel`, {
      key: key.secret,
      method: "POST",
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: "invalid_state" });
    expect((twice.body as { detail: string }).detail).toContain("cancelled");

    const trail = await call(account(), `/signature-requests/${draft.id}/audit-trail`, { key: key.secret });
    expectDocumented(
      "GET",
      "/v1/accounts/{accountId}/signature-requests/{requestId}/audit-trail",
      200,
      trail.body,
    );
    const { items, verified } = trail.body as {
      items: { action: string; actor: { id: string } }[];
      verified: boolean;
    };
    expect(verified).toBe(true);
    expect(items.map((e) => e.action)).toEqual([
      "created",
      "sent",
      "reminded",
      "recipient_updated",
      "resent",
      "embedded_signing_url_created",
      "added_to_agreement_set",
      "cancelled",
    ]);

    const listed = await call(account(), "/signature-requests?status=cancelled&pageSize=5", {
      key: key.secret,
    });
    expectDocumented("GET", "/v1/accounts/{accountId}/signature-requests", 200, listed.body);
    expect((listed.body as { items: RequestBody[] }).items.map((r) => r.id)).toEqual([draft.id]);
  });

  test("a request says who sent it: the workspace through a key, the person through the console; the trail names them", async () => {
    const made = await create({
      title: "From the API",
      templateId: await templateId(),
      recipients: recipients("api"),
      send: true,
    });
    expect(made.body).toMatchObject({ sender: { name: "Default workspace", email: null } });
    const [invitation] = await mailTo(`ada.api@${domain}`);
    expect(invitation).toMatchObject({ fromName: "Default workspace via Countersign", replyTo: undefined });
    expect(invitation?.text).toContain(
      'You have been asked to sign "\u2068From the API\u2069" by \u2068Default workspace\u2069.',
    );
    const trail = await call(api(), `/signature-requests/${(made.body as RequestBody).id}/audit-trail`, {
      key: key.secret,
    });
    expect((trail.body as { items: { actor: unknown }[] }).items[0]?.actor).toEqual({
      type: "api_key",
      id: expect.any(String),
      name: "requests",
      email: null,
    });

    const console = new ConsoleClient(gateway);
    await console.logIn(deployment.adminEmail, deployment.adminPassword);
    const fromConsole = await console.call(`/console/api/workspaces/${key.accountId}/signature-requests`, {
      method: "POST",
      json: {
        title: "From the console",
        templateId: await templateId(),
        recipients: recipients("console"),
        send: true,
      },
    });
    expect(fromConsole.status).toBe(201);
    expect(fromConsole.body).toMatchObject({
      sender: { name: deployment.adminEmail, email: deployment.adminEmail },
    });
    const [personal] = await mailTo(`ada.console@${domain}`);
    expect(personal).toMatchObject({
      fromName: `${deployment.adminEmail} via Countersign`,
      replyTo: deployment.adminEmail,
    });
  });

  test("a recipient's language: set when sent, in both families; their e-mails are in it; changed or cleared later; one not spoken is refused", async () => {
    const [ada, cy] = recipients("lang");
    const made = await create(
      {
        title: "Vertrag",
        templateId: await templateId(),
        recipients: [
          { ...ada, locale: "de" },
          { ...cy, locale: "ja" },
        ],
        send: true,
      },
      account(),
    );
    expect(made.status).toBe(201);
    expectDocumented("POST", "/v1/accounts/{accountId}/signature-requests", 201, made.body);
    const request = made.body as RequestBody;
    expect(request.recipients.map((r) => r.locale)).toEqual(["de", "ja"]);
    const [invitation] = await mailTo(`ada.lang@${domain}`);
    expect(invitation?.text).toContain("Hallo \u2068Ada Client\u2069,");
    expect(invitation?.html).toContain('<html lang="de" dir="ltr">');

    const [first, second] = request.recipients;
    const changed = await call(api(), `/signature-requests/${request.id}/recipients`, {
      key: key.secret,
      method: "PATCH",
      json: {
        recipients: [
          { id: first?.id, locale: "fr" },
          { id: second?.id, locale: null },
        ],
      },
    });
    expect(changed.status).toBe(200);
    expectDocumented("PATCH", "/api/v1/signature-requests/{requestId}/recipients", 200, changed.body);
    expect((changed.body as RequestBody).recipients.map((r) => r.locale)).toEqual(["fr", null]);
    const reminded = await call(api(), `/recipients/${first?.id}/reminders`, {
      key: key.secret,
      method: "POST",
      json: {},
    });
    expect(reminded.status).toBe(202);
    const [, reminder] = await mailTo(`ada.lang@${domain}`, 2);
    expect(reminder?.text).toContain("Bonjour \u2068Ada Client\u2069");

    const refused = await create({
      title: "Klingon",
      templateId: await templateId(),
      recipients: [{ ...ada, locale: "tlh" }, cy],
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "recipients[0].locale",
    ]);
  });

  test("a request made from documents with its own fields", async () => {
    const upload = await call(account(), "/documents/upload?filename=lease.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(2),
      headers: { "content-type": "application/pdf" },
    });
    const documentId = (upload.body as { id: string }).id;
    const reply = await create(
      {
        title: "Lease",
        documentIds: [documentId],
        fields: [{ type: "signature", role: "Tenant", page: 2, x: 72, y: 700, width: 200, height: 40 }],
        recipients: [{ name: "Ada", email: `ada.lease@${domain}`, role: "Tenant" }],
        send: true,
      },
      account(),
    );
    expect(reply.status).toBe(201);
    expectDocumented("POST", "/v1/accounts/{accountId}/signature-requests", 201, reply.body);
    const request = reply.body as RequestBody & {
      fields: { recipientId: string; documentId: string; required: boolean }[];
    };
    expect(request.fields).toEqual([
      expect.objectContaining({ recipientId: request.recipients[0]?.id, documentId, required: true }),
    ]);
    await mailTo(`ada.lease@${domain}`);
    const outside = await create({
      title: "Lease",
      documentIds: [documentId],
      fields: [{ type: "signature", role: "Tenant", page: 3, x: 72, y: 700, width: 200, height: 40 }],
      recipients: [{ name: "Ada", email: `ada.lease@${domain}`, role: "Tenant" }],
    });
    expectDocumented("POST", "/api/v1/signature-requests", 422, outside.body);
    expect(outside.body).toMatchObject({ errors: [{ path: "fields[0].page" }] });
  });

  test("bad input is answered with every problem and its path", async () => {
    const template = await templateId();
    const reply = await create({
      title: "",
      templateId: template,
      recipients: [{ name: "A", email: "nope", role: "Client", routingOrder: "1" }],
      expiresAt: "tomorrow",
    });
    expectDocumented("POST", "/api/v1/signature-requests", 422, reply.body);
    expect((reply.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "recipients[0].routingOrder",
      "expiresAt",
    ]);
    const rules = await create({
      title: "",
      templateId: template,
      recipients: [{ name: "A", email: "nope", role: "Client" }],
    });
    expect((rules.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "title",
      "recipients[0].email",
    ]);
    const status = await call(api(), "/signature-requests?status=finished", { key: key.secret });
    expect(status.status).toBe(400);
    const size = await call(api(), "/signature-requests?pageSize=101", { key: key.secret });
    expect(size.status).toBe(400);
  });

  test("every request, recipient and agreement set route answers 404 for another workspace's ids", async () => {
    const template = await templateId();
    const mine = (
      await create({ title: "Mine", templateId: template, recipients: recipients("iso"), send: true })
    ).body as RequestBody;
    const set = (
      await call(api(), "/agreement-sets", {
        key: key.secret,
        method: "POST",
        json: { name: "Mine", requestIds: [mine.id] },
      })
    ).body as { id: string };
    const recipient = mine.recipients[0]?.id as string;
    const routes: [string, string, unknown?][] = [
      ["GET", `/signature-requests/${mine.id}`],
      ["POST", `/signature-requests/${mine.id}/send`],
      ["POST", `/signature-requests/${mine.id}/resend`],
      ["POST", `/signature-requests/${mine.id}/cancel`],
      ["PATCH", `/signature-requests/${mine.id}/recipients`, { recipients: [{ id: recipient, name: "X" }] }],
      ["GET", `/signature-requests/${mine.id}/audit-trail`],
      ["POST", `/recipients/${recipient}/reminders`],
      ["POST", "/embedded-signing-url", { requestId: mine.id, recipientId: recipient }],
      ["GET", `/agreement-sets/${set.id}`],
      ["GET", `/signature-requests/${RANDOM_ID}`],
    ];
    const strangerBases = [`${gateway}/api/v1`, `${gateway}/v1/accounts/${stranger.accountId}`];
    for (const base of strangerBases) {
      for (const [method, path, json] of routes) {
        const reply = await call(base, path, { key: stranger.secret, method, json });
        expect(`${method} ${path}: ${reply.status}`).toBe(`${method} ${path}: 404`);
      }
    }
    // Their account in our path is as unknown as a random one.
    const crossed = await call(
      `${gateway}/v1/accounts/${stranger.accountId}`,
      `/signature-requests/${mine.id}`,
      {
        key: key.secret,
      },
    );
    expect(crossed.status).toBe(404);
    const stillMine = await call(api(), `/signature-requests/${mine.id}`, { key: key.secret });
    expect((stillMine.body as RequestBody).status).toBe("sent");
  });
});
