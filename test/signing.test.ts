/**
 * The signer's side over HTTP in both modes (docs/design.md §9.1), without a browser: links from the
 * .eml outbox open sessions, the page's JSON API signs and declines as documented, and the last
 * signature yields a sealed PDF that poppler verifies, qpdf finds clean, and whose certificate
 * page names the request and the original's SHA-256 — and that one changed byte breaks.
 */
import { PDFDocument } from "pdf-lib";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { type OutboxMail, outboxMails } from "./support/outbox-mail.js";
import { pdfsig, pdfText, qpdfCheck } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { makePng } from "./support/pngs.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";
import { SignerBrowser } from "./support/signer-browser.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

interface Session {
  request: { id: string; title: string };
  recipient: { id: string; status: string };
  requestStatus: string;
  documents: { id: string; pages: { width: number; height: number }[] }[];
  fields: { id: string; type: string; required: boolean }[];
  signedDocumentId?: string;
}

/** A 2×1 PNG, as a drawn signature would send it. */
const DRAWN_PNG = makePng({ width: 2, height: 1 }).toString("base64");

describe.each(modes)("%s mode: signing", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string };
  const api = () => `${gateway}/api/v1`;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "signing")).stdout);
  }, 180_000);
  afterAll(() => deployment?.destroy());

  async function sentRequest(tag: string, others: Record<string, unknown>[] = []) {
    const upload = await call(api(), "/documents/upload?filename=lease.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(2),
      headers: { "content-type": "application/pdf" },
    });
    const original = upload.body as { id: string; sha256: string };
    const created = await call(api(), "/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: `Lease ${tag}`,
        documentIds: [original.id],
        fields: [
          { type: "signature", role: "Tenant", page: 1, x: 60, y: 600, width: 180, height: 40 },
          { type: "date_signed", role: "Tenant", page: 1, x: 300, y: 610, width: 100, height: 20 },
          { type: "checkbox", role: "Tenant", page: 2, x: 60, y: 100, width: 14, height: 14, label: "Pets" },
          { type: "text", role: "Tenant", page: 2, x: 60, y: 140, width: 200, height: 20, required: false },
          { type: "signature", role: "Landlord", page: 2, x: 60, y: 600, width: 180, height: 40 },
        ],
        recipients: [
          { name: "Zoë Tenant", email: `tenant.${tag}@example.com`, role: "Tenant", routingOrder: 1 },
          { name: "Lou Landlord", email: `landlord.${tag}@example.com`, role: "Landlord", routingOrder: 2 },
          ...others,
        ],
        send: true,
      },
    });
    expect(created.status).toBe(201);
    return { request: created.body as { id: string }, original };
  }

  /** The tenant and the landlord of a request of `sentRequest`, each signing every field of theirs. */
  async function bothSign(tag: string): Promise<void> {
    for (const who of ["tenant", "landlord"]) {
      const signer = new SignerBrowser(gateway);
      await signer.open((await mailTo(`${who}.${tag}@example.com`)).link as string);
      const { fields } = (await signer.call("/sign/api/session")).body as Session;
      const values = Object.fromEntries(
        fields
          .filter((f) => f.type !== "date_signed")
          .map((f) => [
            f.id,
            f.type === "signature" ? { kind: "typed", text: who } : f.type === "checkbox" || "x",
          ]),
      );
      expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
    }
  }

  const mailTo = (address: string, subject?: string): Promise<OutboxMail> =>
    eventually(async () =>
      (await outboxMails(deployment.dataDir)).find(
        (m) => m.to === address && (!subject || m.subject === subject),
      ),
    );

  test("a mail filter that fetches the e-mailed link, and the page it leads to, marks nobody as having viewed", async () => {
    const { request } = await sentRequest("scanner");
    const link = new URL((await mailTo("tenant.scanner@example.com")).link as string);
    // As link scanners do: follow the redirect, read the HTML, run no script.
    const page = await fetch(`${gateway}${link.pathname}`, { redirect: "follow" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const got = (await call(api(), `/signature-requests/${request.id}`, { key: key.secret })).body as {
      status: string;
      recipients: { status: string }[];
    };
    expect([got.status, got.recipients[0]?.status]).toEqual(["sent", "sent"]);
  });

  test("two signers in routing order produce one sealed PDF that pdfsig verifies and one changed byte breaks", async () => {
    const { request, original } = await sentRequest("routing");
    const tenant = new SignerBrowser(gateway);
    const opened = await tenant.open((await mailTo("tenant.routing@example.com")).link as string);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/sign/");
    expect(opened.headers.get("set-cookie")).toMatch(
      /^cs_signing=[A-Za-z0-9_-]{43}; Path=\/sign; HttpOnly; SameSite=Strict$/,
    );

    // Opening the link is what a mail filter does too: the view is the page's, once it shows.
    const opening = (await tenant.call("/sign/api/session")).body as Session;
    expect([opening.recipient.status, opening.requestStatus]).toEqual(["sent", "sent"]);
    await tenant.show();
    const session = await tenant.call("/sign/api/session");
    expect(session.status).toBe(200);
    expectDocumented("GET", "/sign/api/session", 200, session.body);
    const seen = session.body as Session;
    expect(seen.recipient.status).toBe("viewed");
    expect(seen.requestStatus).toBe("in_progress");
    expect(seen.fields.map((f) => f.type)).toEqual(["signature", "date_signed", "checkbox", "text"]);
    expect(seen.documents[0]?.pages).toHaveLength(2);
    const pdf = await fetch(`${gateway}/sign/api/documents/${original.id}`, {
      headers: { cookie: tenant.cookie },
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const [signature, , checkbox, text] = seen.fields.map((f) => f.id);
    const incomplete = await tenant.call("/sign/api/submit", { consent: false, values: {} });
    expect(incomplete.status).toBe(422);
    expectDocumented("POST", "/sign/api/submit", 422, incomplete.body);
    expect((incomplete.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "consent",
      `values.${signature}`,
      `values.${checkbox}`,
    ]);
    const asForm = await tenant.call("/sign/api/submit", { consent: true, values: {} }, "text/plain");
    expect(asForm.status).toBe(415);

    const signed = await tenant.call("/sign/api/submit", {
      consent: true,
      values: {
        [signature as string]: { kind: "typed", text: "Zoë Tenant" },
        [checkbox as string]: true,
        [text as string]: "Two cats",
      },
    });
    expect(signed.status).toBe(200);
    expectDocumented("POST", "/sign/api/submit", 200, signed.body);
    expect(signed.body).toEqual({
      recipientStatus: "signed",
      requestStatus: "in_progress",
      everyoneSigned: false,
    });
    expect((await tenant.call("/sign/api/submit", { consent: true, values: {} })).status).toBe(409);

    const landlord = new SignerBrowser(gateway);
    await landlord.open((await mailTo("landlord.routing@example.com")).link as string);
    const landlordField = ((await landlord.call("/sign/api/session")).body as Session).fields[0]
      ?.id as string;
    const last = await landlord.call("/sign/api/submit", {
      consent: true,
      values: { [landlordField]: { kind: "drawn", png: DRAWN_PNG } },
    });
    expect(last.status).toBe(200);
    // The last signature: the page can say the document is being sealed rather than "once everyone has signed".
    expect(last.body).toMatchObject({ recipientStatus: "signed", everyoneSigned: true });

    const completed = await eventually(async () => {
      const got = await call(api(), `/signature-requests/${request.id}`, { key: key.secret });
      const body = got.body as { status: string; signedDocumentId: string | null };
      return body.status === "completed" ? body : undefined;
    }, 30_000);
    const download = await fetch(`${api()}/documents/${completed.signedDocumentId}/download`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(download.status).toBe(200);
    const sealed = new Uint8Array(await download.arrayBuffer());

    const verdict = await pdfsig(sealed);
    expect(verdict).toContain("Signature Validation: Signature is Valid.");
    expect(verdict).toContain("Signature Type: ETSI.CAdES.detached");
    expect(verdict).toContain("Total document signed");
    expect(await qpdfCheck(sealed)).toContain("No syntax or stream encoding errors found");
    const words = (await pdfText(sealed)).replace(/\s+/g, " ");
    expect(words).toContain("Certificate of completion");
    expect(words).toContain(request.id);
    expect(words).toContain(original.sha256);
    expect(words).toContain("Zoë Tenant");
    // Each signer's signature as sealed, and how it was made, beside their browser.
    expect(words).toContain("Signature (typed) Zoë Tenant");
    expect(words).toContain("Signature (drawn)");
    expect(words).toMatch(/Browser (?!Mozilla)/);
    expect(words).toContain("Sent by Default workspace, through API key “signing”");
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(3);

    // One byte changed in the middle of the first signed range, before the signature itself.
    const tampered = Buffer.from(sealed);
    const firstRange = Number(/\/ByteRange \[0 (\d+)/.exec(tampered.toString("latin1"))?.[1]);
    const at = Math.floor(firstRange / 2);
    tampered.writeUInt8((tampered[at] as number) ^ 0x01, at);
    expect(await pdfsig(tampered)).not.toContain("Signature is Valid.");

    const copies = await eventually(async () => {
      const mails = (await outboxMails(deployment.dataDir)).filter(
        (m) => m.subject === "Completed: \u2068Lease routing\u2069",
      );
      return mails.length === 2 ? mails : undefined;
    });
    for (const mail of copies) {
      expect(mail.attachments).toHaveLength(1);
      expect(Buffer.compare(mail.attachments[0]?.content as Buffer, Buffer.from(sealed))).toBe(0);
    }
    const session2 = await tenant.call("/sign/api/session");
    expect((session2.body as Session).signedDocumentId).toBe(completed.signedDocumentId);
    const audit = await call(api(), `/signature-requests/${request.id}/audit-trail`, { key: key.secret });
    const actions = (audit.body as { items: { action: string }[] }).items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["viewed", "signed", "routed", "all_signed", "completed"]),
    );
  }, 90_000);

  test("a viewer in routing order is asked once the signers before them have signed, signs nothing, and their view completes the request", async () => {
    const { request } = await sentRequest("viewer", [
      { name: "Vi Viewer", email: "viewer.viewer@example.com", kind: "viewer", routingOrder: 3 },
      { name: "Cy Copy", email: "copy.viewer@example.com", kind: "cc" },
    ]);
    await bothSign("viewer");
    // Both have signed: now it is the viewer's turn, to review, not to sign.
    const invitation = await mailTo("viewer.viewer@example.com");
    expect(invitation.subject).toBe("Please review: \u2068Lease viewer\u2069");
    const waiting = (await call(api(), `/signature-requests/${request.id}`, { key: key.secret })).body as {
      status: string;
      recipients: { kind: string; status: string }[];
    };
    expect([waiting.status, waiting.recipients.map((r) => `${r.kind}:${r.status}`)]).toEqual([
      "in_progress",
      ["signer:signed", "signer:signed", "viewer:sent", "cc:pending"],
    ]);
    const viewer = new SignerBrowser(gateway);
    await viewer.open(invitation.link as string);
    const session = (await viewer.call("/sign/api/session")).body as Session & {
      recipient: { kind: string };
    };
    expect([session.recipient.kind, session.fields]).toEqual(["viewer", []]);
    expect((await viewer.call("/sign/api/submit", { consent: true, values: {} })).status).toBe(409);
    await viewer.show();
    const certificate = await pdfText(await sealedPdfOf(api(), key.secret, request.id));
    expect(certificate).toContain("Vi Viewer <viewer.viewer@example.com>");
    expect(certificate).toContain("viewer (had to view the documents)");
    // Their part is done, and the request with it: nothing is left to decline.
    expect((await viewer.call("/sign/api/decline", { reason: "too late" })).status).toBe(409);
  }, 90_000);

  test("an approver in routing order approves with their agreement, fills nothing, and the certificate says they approved", async () => {
    const { request } = await sentRequest("approver", [
      { name: "Al Approver", email: "approver.approver@example.com", kind: "approver", routingOrder: 1 },
    ]);
    const invitation = await mailTo("approver.approver@example.com");
    expect(invitation.subject).toBe("Please approve: \u2068Lease approver\u2069");
    const approver = new SignerBrowser(gateway);
    await approver.open(invitation.link as string);
    const session = (await approver.call("/sign/api/session")).body as Session & {
      recipient: { kind: string };
    };
    expect([session.recipient.kind, session.fields]).toEqual(["approver", []]);
    const tenantField = "not-theirs";
    const refused = await approver.call("/sign/api/submit", {
      consent: false,
      values: { [tenantField]: "x" },
    });
    expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      "consent",
      `values.${tenantField}`,
    ]);
    const approved = await approver.call("/sign/api/submit", { consent: true, values: {} });
    expect(approved.status).toBe(200);
    expectDocumented("POST", "/sign/api/submit", 200, approved.body);
    expect(approved.body).toMatchObject({ recipientStatus: "approved" });
    const listed = (await call(api(), `/signature-requests/${request.id}`, { key: key.secret })).body as {
      recipients: { kind: string; status: string; signedAt: string | null }[];
    };
    expect(listed.recipients.find((r) => r.kind === "approver")).toMatchObject({
      status: "approved",
      signedAt: expect.any(String),
    });

    await bothSign("approver");
    const certificate = await pdfText(await sealedPdfOf(api(), key.secret, request.id));
    expect(certificate).toContain("approver (approves, signs nothing)");
    expect(certificate).toMatch(/Approved\s+\d{4}-\d{2}-\d{2}/);
  }, 90_000);

  test("a decline ends the request, and the link then answers 410 saying why", async () => {
    const { request } = await sentRequest("decline");
    const tenant = new SignerBrowser(gateway);
    const link = (await mailTo("tenant.decline@example.com")).link as string;
    await tenant.open(link);
    const missing = await tenant.call("/sign/api/decline", { reason: "" });
    expect(missing.status).toBe(422);
    const declined = await tenant.call("/sign/api/decline", { reason: "The rent is wrong" });
    expect(declined.status).toBe(200);
    expectDocumented("POST", "/sign/api/decline", 200, declined.body);
    expect(declined.body).toEqual({ recipientStatus: "declined" });
    const got = await call(api(), `/signature-requests/${request.id}`, { key: key.secret });
    expect(got.body).toMatchObject({ status: "declined" });
    const again = await new SignerBrowser(gateway).open(link);
    expect(again.status).toBe(410);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(await again.text()).toContain("You declined this request");
  }, 60_000);

  test("without a session the API answers 401, and an unknown link a 404 page", async () => {
    const nobody = new SignerBrowser(gateway);
    const session = await nobody.call("/sign/api/session");
    expect(session.status).toBe(401);
    expectDocumented("GET", "/sign/api/session", 401, session.body);
    for (const path of ["/sign/api/", "/sign/api/nothing", "/sign/assets/missing.js"]) {
      const missing = await call(gateway, path);
      expect([path, missing.status, missing.headers.get("content-type")]).toEqual([
        path,
        404,
        "application/problem+json; charset=utf-8",
      ]);
    }
    const unknown = await nobody.open(`${gateway}/sign/${"A".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("This signing link is not valid");
  });

  test("opening links is limited per address: past the burst, a 429 page with Retry-After", async () => {
    const guesser = new SignerBrowser(gateway);
    const answers: number[] = [];
    for (let i = 0; i < 40; i++)
      answers.push((await guesser.open(`${gateway}/sign/${"B".repeat(42)}${i % 10}`)).status);
    expect(answers.slice(0, 20).every((status) => status === 404)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const limited = await guesser.open(`${gateway}/sign/${"C".repeat(43)}`);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.text()).toContain("Too many attempts");
  });
});
