/**
 * The DocuSign-compatible /restapi with the official `docusign-esign` client, unmodified, pointed at
 * the gateway by its basePath, in both modes: an envelope from a template signed embedded to the
 * sealed PDF, an envelope from documents with tabs by anchor and by position through send, recipient
 * changes, resend and void, templates, status changes, an envelope's archive, DocuSign's errors and
 * rate-limit headers, and no JSON null in any answer the client read.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { unzipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { DEFAULT_LIMITS } from "../gateway/src/app.js";
import { type Deployment, faultsIn, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { makeDocx } from "./support/office-documents.js";
import { outboxMails } from "./support/outbox-mail.js";
import { SignerBrowser } from "./support/signer-browser.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const require = createRequire(import.meta.url);
interface Answer {
  data: unknown;
  headers: Record<string, string>;
  config: { url?: string };
}
// The client's own (CommonJS) axios, whose answers are watched for nulls.
const axios = require("axios") as {
  interceptors: {
    response: {
      use(onAnswer: (answer: Answer) => unknown, onError: (error: { response?: Answer }) => unknown): void;
    };
  };
};
const docusign = require("docusign-esign") as DocuSignModule;

interface DocuSignModule {
  ApiClient: new (options: { basePath: string }) => { addDefaultHeader(name: string, value: string): void };
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
  TemplatesApi: new (client: unknown) => TemplatesApi;
  BulkEnvelopesApi: new (client: unknown) => BulkEnvelopesApi;
}

// biome-ignore lint/suspicious/noExplicitAny: the client's models are untyped JavaScript.
type Json = any;
interface EnvelopesApi {
  createEnvelope(accountId: string, options: { envelopeDefinition: Json }): Promise<Json>;
  getEnvelope(accountId: string, envelopeId: string, options?: { include?: string }): Promise<Json>;
  listStatusChanges(accountId: string, options: Json): Promise<Json>;
  update(accountId: string, envelopeId: string, options: Json): Promise<Json>;
  listRecipients(accountId: string, envelopeId: string): Promise<Json>;
  updateRecipients(accountId: string, envelopeId: string, options: { recipients: Json }): Promise<Json>;
  createRecipientView(
    accountId: string,
    envelopeId: string,
    options: { recipientViewRequest: Json },
  ): Promise<Json>;
  getDocument(
    accountId: string,
    envelopeId: string,
    documentId: string,
    options?: Json,
  ): Promise<Buffer | string>;
}
interface BulkEnvelopesApi {
  createBulkSendList(accountId: string, options: { bulkSendingList: Json }): Promise<Json>;
  getBulkSendList(accountId: string, listId: string): Promise<Json>;
  getBulkSendLists(accountId: string): Promise<Json>;
  updateBulkSendList(accountId: string, listId: string, options: { bulkSendingList: Json }): Promise<Json>;
  deleteBulkSendList(accountId: string, listId: string): Promise<Json>;
  createBulkSendRequest(accountId: string, listId: string, options: { bulkSendRequest: Json }): Promise<Json>;
  getBulkSendBatchStatus(accountId: string, batchId: string): Promise<Json>;
  getBulkSendBatches(accountId: string, options?: Json): Promise<Json>;
  getBulkSendBatchEnvelopes(accountId: string, batchId: string, options?: Json): Promise<Json>;
}
interface TemplatesApi {
  listTemplates(accountId: string, options?: Json): Promise<Json>;
  get(accountId: string, templateId: string): Promise<Json>;
}

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

const answers: { url: string; data: unknown }[] = [];
/** Keeps every JSON answer, successful or not; what is asked for as a PDF arrives as a stream. */
const keep = (answer: Answer) => {
  const streamed = typeof (answer.data as { pipe?: unknown } | null)?.pipe === "function";
  if (String(answer.headers["content-type"]).includes("json") && !streamed) {
    answers.push({ url: answer.config.url ?? "", data: answer.data });
  }
};
axios.interceptors.response.use(
  (answer) => {
    keep(answer);
    return answer;
  },
  (error) => {
    if (error.response) keep(error.response);
    return Promise.reject(error);
  },
);

/** Where the JSON holds a null, if anywhere. */
function nullsIn(value: unknown, path = "$"): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => nullsIn(item, `${path}[${i}]`));
  if (typeof value === "object")
    return Object.entries(value as object).flatMap(([k, v]) => nullsIn(v, `${path}.${k}`));
  return [];
}

interface DocuSignFailure {
  status: number;
  errorCode: string;
  message: string;
}

/** DocuSign's error as the client rejects with it. */
async function docuSignError(promise: Promise<unknown>): Promise<DocuSignFailure> {
  try {
    await promise;
  } catch (err) {
    return docuSignErrorOf(err);
  }
  throw new Error("the call succeeded");
}

/** The status and body of a rejection (read from the stream of a PDF call). */
async function docuSignErrorOf(err: unknown): Promise<DocuSignFailure> {
  const { response } = err as { response?: { status: number; data: unknown } };
  if (!response) throw err;
  let body = response.data;
  if (typeof (body as { pipe?: unknown }).pipe === "function") {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    body = JSON.parse(Buffer.concat(chunks).toString());
    expect(nullsIn(body)).toEqual([]);
  }
  return { status: response.status, ...(body as { errorCode: string; message: string }) };
}

/** A lease: the tenant's anchor `/sn1/` as a run of its own, the landlord's inside a sentence. */
async function leasePdf(): Promise<{ bytes: Uint8Array; anchor: { x: number; y: number } }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText("Residential lease. The tenant signs here:", { x: 72, y: 700, size: 12, font });
  page.drawText("/sn1/", { x: 72, y: 300, size: 12, font });
  page.drawText("Landlord signature: /sn2/ (sign above the line)", { x: 72, y: 200, size: 12, font });
  pdf.addPage([612, 792]).drawText("Annex", { x: 72, y: 700, size: 12, font });
  // pdf.js places a run's top at its baseline plus the font size: 792 - 300 - 12.
  return { bytes: await pdf.save(), anchor: { x: 72, y: 792 - 300 - 12 } };
}

const DRAWN = { kind: "typed", text: "Signed through DocuSign's client" };

describe.each(modes)("%s mode: /restapi with the docusign-esign client", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { id: string; secret: string; accountId: string };
  let envelopes: EnvelopesApi;
  let templatesApi: TemplatesApi;
  let templateId: string;

  const clientWith = (secret: string) => {
    const client = new docusign.ApiClient({ basePath: `${gateway}/restapi` });
    client.addDefaultHeader("Authorization", `Bearer ${secret}`);
    return client;
  };

  /** Signs as the embedded signer the URL was made for, filling every field. */
  async function signAt(url: string): Promise<{ redirectUrl?: string }> {
    const signer = new SignerBrowser(gateway);
    expect((await signer.open(url)).status).toBe(303);
    const session = (await signer.call("/sign/api/session")).body as {
      fields: { id: string; type: string }[];
    };
    const values = Object.fromEntries(
      session.fields.filter((f) => f.type === "signature").map((f) => [f.id, DRAWN]),
    );
    const submitted = await signer.call("/sign/api/submit", { consent: true, values });
    expect(submitted.status).toBe(200);
    return submitted.body as { redirectUrl?: string };
  }

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    const made = await deployment.cli("keys", "create", "--name", "docusign");
    key = JSON.parse(made.stdout);
    templateId = await createTwoRoleTemplate(`${gateway}/api/v1`, key.secret, "Mutual NDA");
    const client = clientWith(key.secret);
    envelopes = new docusign.EnvelopesApi(client);
    templatesApi = new docusign.TemplatesApi(client);
  }, 180_000);

  afterAll(() => deployment?.destroy());

  afterEach(() => {
    const withNulls = answers.flatMap(({ url, data }) => nullsIn(data).map((path) => `${url} ${path}`));
    answers.length = 0;
    expect(withNulls).toEqual([]);
  });

  test("bulk sending: a list kept, read, changed and sent from a template; its batch followed to the envelopes it made; a bad copy and a non-template refused", async () => {
    const bulk = new docusign.BulkEnvelopesApi(clientWith(key.secret));
    const copy = (n: number) => ({
      recipients: [
        {
          recipientId: "1",
          roleName: "Client",
          name: `Bulk Client ${n}`,
          email: `bulk-client${n}@example.com`,
        },
        { recipientId: "2", roleName: "company", name: "Acme Signatory", email: "acme@example.com" },
      ],
      emailSubject: `NDA for client ${n}`,
    });
    const made = await bulk.createBulkSendList(key.accountId, {
      bulkSendingList: { name: "Clients", bulkCopies: [copy(1), copy(2)] },
    });
    expect(made).toMatchObject({ listId: expect.any(String), name: "Clients" });
    expect((await bulk.getBulkSendLists(key.accountId)).bulkListSummaries).toEqual(
      expect.arrayContaining([expect.objectContaining({ bulkSendListId: made.listId, name: "Clients" })]),
    );
    const changed = await bulk.updateBulkSendList(key.accountId, made.listId, {
      bulkSendingList: { name: "Clients, three", bulkCopies: [copy(1), copy(2), copy(3)] },
    });
    expect(changed.bulkCopies).toHaveLength(3);
    const read = await bulk.getBulkSendList(key.accountId, made.listId);
    expect(read.bulkCopies[2]).toMatchObject({
      emailSubject: "NDA for client 3",
      recipients: [
        expect.objectContaining({ roleName: "Client", email: "bulk-client3@example.com" }),
        expect.objectContaining({ roleName: "company" }),
      ],
    });

    const notTemplate = await docuSignError(
      bulk.createBulkSendRequest(key.accountId, made.listId, {
        bulkSendRequest: { envelopeOrTemplateId: crypto.randomUUID() },
      }),
    );
    expect(notTemplate).toMatchObject({ status: 400, errorCode: "BULK_SEND_ENVELOPE_NOT_IN_SENDABLE_STATE" });
    const sent = await bulk.createBulkSendRequest(key.accountId, made.listId, {
      bulkSendRequest: { envelopeOrTemplateId: templateId, batchName: "November clients" },
    });
    expect(sent).toMatchObject({
      batchId: expect.any(String),
      batchName: "November clients",
      batchSize: "3",
    });
    const status = await eventually(async () => {
      const got = await bulk.getBulkSendBatchStatus(key.accountId, sent.batchId);
      return got.queued === "0" ? got : undefined;
    }, 30_000);
    expect(status).toMatchObject({
      batchSize: "3",
      sent: "3",
      failed: "0",
      envelopeIdOrTemplateId: templateId,
    });
    expect(status.bulkErrors).toEqual([]);
    const batches = await bulk.getBulkSendBatches(key.accountId);
    expect(batches.bulkBatchSummaries.map((b: Json) => b.batchId)).toContain(sent.batchId);
    const made3 = await bulk.getBulkSendBatchEnvelopes(key.accountId, sent.batchId, {
      include: "recipients",
    });
    expect(made3.envelopes.map((e: Json) => [e.status, e.emailSubject])).toEqual([
      ["sent", "NDA for client 1"],
      ["sent", "NDA for client 2"],
      ["sent", "NDA for client 3"],
    ]);

    const twoValues = await docuSignError(
      bulk.createBulkSendList(key.accountId, {
        bulkSendingList: {
          name: "Two titles",
          bulkCopies: [
            {
              recipients: copy(6).recipients.map((r, i) => ({
                ...r,
                tabs: [{ tabLabel: "Title", initialValue: i === 0 ? "CEO" : "CFO" }],
              })),
            },
          ],
        },
      }),
    );
    expect(twoValues).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
    expect(twoValues.message).toContain('the tab "Title" is given two values');
    const badList = await bulk.createBulkSendList(key.accountId, {
      bulkSendingList: {
        name: "Bad",
        bulkCopies: [
          copy(4),
          { ...copy(5), recipients: [{ ...copy(5).recipients[0], roleName: "Witness" }] },
        ],
      },
    });
    const refused = await docuSignError(
      bulk.createBulkSendRequest(key.accountId, badList.listId, {
        bulkSendRequest: { envelopeOrTemplateId: templateId },
      }),
    );
    expect(refused).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
    expect(refused.message).toContain("line 2:");
    const remaining = await bulk.deleteBulkSendList(key.accountId, badList.listId);
    expect(remaining.bulkListSummaries.map((l: Json) => l.bulkSendListId)).not.toContain(badList.listId);
    const gone = await docuSignError(bulk.getBulkSendList(key.accountId, badList.listId));
    expect(gone).toMatchObject({ status: 400, errorCode: "BULK_SEND_LIST_DOES_NOT_EXIST" });
  });

  test("answers carry DocuSign's rate-limit headers: the hour's limit, what is left of it and when it ends, and the burst", async () => {
    const path = `/restapi/v2.1/accounts/${key.accountId}/envelopes?from_date=2020-01-01`;
    const first = await call(gateway, path, { key: key.secret });
    const second = await call(gateway, path, { key: key.secret });
    const header = (reply: typeof first, name: string) => Number(reply.headers.get(name));
    const hourEnd = header(second, "X-RateLimit-Reset") * 1000;
    expect({
      status: second.status,
      hourly: header(second, "X-RateLimit-Limit"),
      usedBetween: header(first, "X-RateLimit-Remaining") - header(second, "X-RateLimit-Remaining"),
      resetOnTheHour:
        hourEnd % 3_600_000 === 0 && hourEnd > Date.now() - 1000 && hourEnd <= Date.now() + 3_600_000,
      burst: header(second, "X-BurstLimit-Limit"),
      burstLeftIsOurs: header(second, "X-BurstLimit-Remaining") === header(second, "RateLimit-Remaining"),
    }).toEqual({
      status: 200,
      hourly: DEFAULT_LIMITS.ratePerSecond * 3_600,
      usedBetween: 1,
      resetOnTheHour: true,
      burst: DEFAULT_LIMITS.burst,
      burstLeftIsOurs: true,
    });
  });

  test("templates: listed with DocuSign's result set, found by search text, read with their roles", async () => {
    const listed = await templatesApi.listTemplates(key.accountId);
    expect(listed).toMatchObject({
      resultSetSize: "1",
      totalSetSize: "1",
      startPosition: "0",
      endPosition: "0",
    });
    expect(listed.envelopeTemplates[0]).toMatchObject({ templateId, name: "Mutual NDA" });
    expect((await templatesApi.listTemplates(key.accountId, { searchText: "nda" })).resultSetSize).toBe("1");
    expect(
      (await templatesApi.listTemplates(key.accountId, { searchText: "lease" })).envelopeTemplates,
    ).toEqual([]);
    const template = await templatesApi.get(key.accountId, templateId);
    expect(template.recipients.signers).toEqual([
      { roleName: "Client", recipientId: "1", routingOrder: "1", recipientType: "signer" },
      { roleName: "Company", recipientId: "2", routingOrder: "2", recipientType: "signer" },
    ]);
    expect(template.documents[0]).toMatchObject({ documentId: "1", pages: "1" });
  });

  test("from a template: sent, signed embedded by both roles, completed, the sealed PDF and its certificate", async () => {
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        emailSubject: "Please sign the NDA",
        status: "sent",
        templateRoles: [
          { roleName: "Client", name: "Ada Client", email: "ada@example.com", clientUserId: "ada-1" },
          { roleName: "Company", name: "Cy Company", email: "cy@example.com", clientUserId: "cy-1" },
        ],
        recipients: { carbonCopies: [{ name: "Lex Legal", email: "legal@example.com" }] },
      },
    });
    expect(created).toMatchObject({ status: "sent", uri: `/envelopes/${created.envelopeId}` });
    const envelopeId = created.envelopeId as string;

    const recipients = await envelopes.listRecipients(key.accountId, envelopeId);
    expect(
      recipients.signers.map((s: Json) => [s.recipientId, s.roleName, s.routingOrder, s.status]),
    ).toEqual([
      ["1", "Client", "1", "sent"],
      ["2", "Company", "2", "created"],
    ]);
    expect(recipients).toMatchObject({
      recipientCount: "3",
      currentRoutingOrder: "1",
      agents: [],
      witnesses: [],
    });
    expect(recipients.carbonCopies.map((c: Json) => [c.recipientId, c.status])).toEqual([["3", "created"]]);

    // Not the Company's turn yet; then each signs through the view DocuSign's client asks for.
    const early = await docuSignError(
      envelopes.createRecipientView(key.accountId, envelopeId, {
        recipientViewRequest: {
          returnUrl: "https://app.example.com/done",
          authenticationMethod: "none",
          email: "cy@example.com",
          userName: "Cy Company",
          clientUserId: "cy-1",
        },
      }),
    );
    expect(early).toMatchObject({ status: 400, errorCode: "RECIPIENT_NOT_IN_SEQUENCE" });

    // A focused view (frameAncestors, with DocuSign's own apps among them) frames in an origin the
    // workspace lists, and in no other.
    const focusedView = {
      returnUrl: "https://app.example.com/done",
      authenticationMethod: "none",
      email: "ada@example.com",
      userName: "Ada Client",
      clientUserId: "ada-1",
      frameAncestors: ["https://app.example.com", "https://apps-d.docusign.com"],
      messageOrigins: ["https://apps-d.docusign.com"],
    };
    const unlisted = await docuSignError(
      envelopes.createRecipientView(key.accountId, envelopeId, { recipientViewRequest: focusedView }),
    );
    expect(unlisted).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
    expect(unlisted.message).toContain("https://app.example.com is not among");
    const listed = await call(gateway, "/api/v1/embedding-settings", {
      key: key.secret,
      method: "PUT",
      json: { frameOrigins: ["https://app.example.com"] },
    });
    expect(listed.status).toBe(200);
    const focused = await envelopes.createRecipientView(key.accountId, envelopeId, {
      recipientViewRequest: focusedView,
    });
    const framedPage = await fetch(focused.url);
    expect(framedPage.status).toBe(200);
    expect(framedPage.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://app.example.com;",
    );
    expect(framedPage.headers.get("set-cookie")).toBeNull();
    const twoApps = await docuSignError(
      envelopes.createRecipientView(key.accountId, envelopeId, {
        recipientViewRequest: {
          ...focusedView,
          frameAncestors: ["https://a.example.com", "https://b.example.com"],
        },
      }),
    );
    expect(twoApps).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_PARAMETER" });
    const docuSignsAlone = await docuSignError(
      envelopes.createRecipientView(key.accountId, envelopeId, {
        recipientViewRequest: { ...focusedView, frameAncestors: ["https://apps-d.docusign.com"] },
      }),
    );
    expect(docuSignsAlone).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_PARAMETER" });
    for (const [email, userName, clientUserId] of [
      ["ada@example.com", "Ada Client", "ada-1"],
      ["cy@example.com", "Cy Company", "cy-1"],
    ] as const) {
      const view = await envelopes.createRecipientView(key.accountId, envelopeId, {
        recipientViewRequest: {
          returnUrl: "https://app.example.com/done",
          authenticationMethod: "none",
          email,
          userName,
          clientUserId,
        },
      });
      const { redirectUrl } = await signAt(view.url);
      expect(redirectUrl).toBe("https://app.example.com/done?event=signing_complete");
      if (clientUserId === "ada-1") {
        // Opened again, the used URL sends the signer back to the app, as DocuSign's does.
        const again = await new SignerBrowser(gateway).open(view.url);
        expect([again.status, again.headers.get("location")]).toEqual([
          303,
          "https://app.example.com/done?event=ttl_expired",
        ]);
      }
    }

    const completed = await eventually(async () => {
      const envelope = await envelopes.getEnvelope(key.accountId, envelopeId, { include: "recipients" });
      return envelope.status === "completed" ? envelope : undefined;
    }, 30_000);
    expect(completed).toMatchObject({
      envelopeId,
      emailSubject: "Please sign the NDA",
      documentsCombinedUri: `/envelopes/${envelopeId}/documents/combined`,
      certificateUri: `/envelopes/${envelopeId}/documents/certificate`,
    });
    expect(completed.completedDateTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(completed.recipients.signers.map((s: Json) => s.status)).toEqual(["completed", "completed"]);
    // The copy, numbered after the template's roles, has been sent its copy.
    expect(completed.recipients.carbonCopies.map((c: Json) => [c.recipientId, c.status])).toEqual([
      ["3", "completed"],
    ]);

    const combined = (await envelopes.getDocument(key.accountId, envelopeId, "combined")) as Buffer;
    expect(combined.subarray(0, 5).toString()).toBe("%PDF-");
    expect(combined.toString("latin1")).toContain("/ByteRange");
    const sealedPages = (await PDFDocument.load(combined)).getPageCount();
    const certificate = (await envelopes.getDocument(key.accountId, envelopeId, "certificate")) as Buffer;
    const withoutCertificate = (await envelopes.getDocument(key.accountId, envelopeId, "combined", {
      certificate: "false",
    })) as Buffer;
    expect(
      (await PDFDocument.load(certificate)).getPageCount() +
        (await PDFDocument.load(withoutCertificate)).getPageCount(),
    ).toBe(sealedPages);
    expect((await PDFDocument.load(withoutCertificate)).getPageCount()).toBe(1);

    const asBase64 = clientWith(key.secret);
    asBase64.addDefaultHeader("Content-Transfer-Encoding", "base64");
    const text = (await new docusign.EnvelopesApi(asBase64).getDocument(
      key.accountId,
      envelopeId,
      "combined",
    )) as string;
    expect(Buffer.from(text, "base64").equals(combined)).toBe(true);

    // The archive: each document cut from the sealed PDF, the certificate, and the sealed PDF itself.
    const archive = unzipSync(
      new Uint8Array((await envelopes.getDocument(key.accountId, envelopeId, "archive")) as Buffer),
    );
    const names = Object.keys(archive);
    expect(names).toEqual([expect.stringMatching(/\.pdf$/), "certificate.pdf", `${envelopeId} (sealed).pdf`]);
    expect(Buffer.from(archive[`${envelopeId} (sealed).pdf`] as Uint8Array).equals(combined)).toBe(true);
    const pagesIn = async (name: string) =>
      (await PDFDocument.load(archive[name] as Uint8Array)).getPageCount();
    expect([await pagesIn(names[0] as string), await pagesIn("certificate.pdf")]).toEqual([
      1,
      (await PDFDocument.load(certificate)).getPageCount(),
    ]);

    const voidCompleted = await docuSignError(
      envelopes.update(key.accountId, envelopeId, {
        envelope: { status: "voided", voidedReason: "too late" },
      }),
    );
    expect(voidCompleted).toMatchObject({ status: 400, errorCode: "ENVELOPE_CANNOT_VOID_INVALID_STATE" });
  }, 120_000);

  test("from documents: tabs by anchor and by position, a carbon copy, a draft sent, recipients changed, resent and voided", async () => {
    const { bytes, anchor } = await leasePdf();
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        emailSubject: "Lease for Flat 3",
        emailBlurb: "Please sign this week",
        documents: [
          {
            documentBase64: Buffer.from(bytes).toString("base64"),
            name: "Lease",
            fileExtension: "pdf",
            documentId: "7",
          },
        ],
        recipients: {
          signers: [
            {
              email: "tenant@example.com",
              name: "Tess Tenant",
              recipientId: "10",
              routingOrder: "1",
              tabs: {
                signHereTabs: [
                  { anchorString: "/sn1/", anchorUnits: "pixels", anchorXOffset: "0", anchorYOffset: "-40" },
                ],
                dateSignedTabs: [{ documentId: "7", pageNumber: "2", xPosition: "100", yPosition: "150" }],
              },
            },
            {
              email: "landlord@example.com",
              name: "Lee Landlord",
              recipientId: "20",
              routingOrder: 2,
              tabs: {
                signHereTabs: [
                  { anchorString: "/SN2/", anchorXOffset: "1", anchorYOffset: "-0.5", anchorUnits: "inches" },
                ],
              },
            },
          ],
          carbonCopies: [
            { email: "agent@example.com", name: "Abe Agent", recipientId: "30", routingOrder: "3" },
          ],
        },
      },
    });
    expect(created.status).toBe("created");
    const envelopeId = created.envelopeId as string;

    // Where the tabs landed, read through the native API: the same request.
    const native = await call(gateway, `/api/v1/signature-requests/${envelopeId}`, { key: key.secret });
    const fields = (native.body as { fields: { type: string; page: number; x: number; y: number }[] }).fields;
    const [tenantSign, tenantDate, landlordSign] = fields;
    expect(tenantSign).toMatchObject({ type: "signature", page: 1 });
    expect(tenantSign?.x).toBeCloseTo(anchor.x, 0);
    expect(tenantSign?.y).toBeCloseTo(anchor.y - 40, 0);
    expect(tenantDate).toMatchObject({ type: "date_signed", page: 2, x: 100, y: 150 });
    // Inside a sentence the anchor's place is estimated from the run; a case-insensitive match by default.
    expect(landlordSign?.page).toBe(1);
    expect(Math.abs((landlordSign?.y ?? 0) - (792 - 200 - 12 - 36))).toBeLessThan(2);
    expect(landlordSign?.x).toBeGreaterThan(72 + 72 + 60);
    expect(landlordSign?.x).toBeLessThan(72 + 72 + 150);

    const draft = await envelopes.getEnvelope(key.accountId, envelopeId);
    expect(draft).toMatchObject({
      status: "created",
      emailSubject: "Lease for Flat 3",
      emailBlurb: "Please sign this week",
    });
    expect(draft.recipients).toBeUndefined();
    expect(draft.sentDateTime).toBeUndefined();

    await envelopes.update(key.accountId, envelopeId, { envelope: { status: "sent" } });
    const sent = await envelopes.listRecipients(key.accountId, envelopeId);
    expect(sent.signers.map((s: Json) => [s.recipientId, s.status])).toEqual([
      ["10", "sent"],
      ["20", "created"],
    ]);
    expect(sent.carbonCopies.map((c: Json) => [c.recipientId, c.recipientType, c.routingOrder])).toEqual([
      ["30", "carboncopy", "3"],
    ]);

    const changed = await envelopes.updateRecipients(key.accountId, envelopeId, {
      recipients: {
        signers: [
          { recipientId: "20", email: "lee@example.com" },
          { recipientId: "99", name: "Nobody" },
        ],
      },
    });
    expect(changed.recipientUpdateResults).toEqual([
      { recipientId: "20", errorDetails: { errorCode: "SUCCESS", message: "" } },
      { recipientId: "99", errorDetails: { errorCode: "INVALID_RECIPIENT_ID", message: expect.any(String) } },
    ]);
    expect((await envelopes.listRecipients(key.accountId, envelopeId)).signers[1].email).toBe(
      "lee@example.com",
    );

    expect(
      await envelopes.update(key.accountId, envelopeId, { resendEnvelope: "true", envelope: {} }),
    ).toMatchObject({ envelopeId });
    const original = (await envelopes.getDocument(key.accountId, envelopeId, "7")) as Buffer;
    expect(Buffer.from(original).equals(Buffer.from(bytes))).toBe(true);
    // Before completion the archive holds the documents as sent, and no certificate.
    const archive = unzipSync(
      new Uint8Array((await envelopes.getDocument(key.accountId, envelopeId, "archive")) as Buffer),
    );
    expect(Object.values(archive).map((entry) => Buffer.from(entry).equals(Buffer.from(bytes)))).toEqual([
      true,
    ]);
    expect(
      await docuSignError(envelopes.getDocument(key.accountId, envelopeId, "certificate")),
    ).toMatchObject({ status: 400 });
    expect(await docuSignError(envelopes.getDocument(key.accountId, envelopeId, "8"))).toMatchObject({
      errorCode: "DOCUMENT_DOES_NOT_EXIST",
    });

    const noReason = await docuSignError(
      envelopes.update(key.accountId, envelopeId, { envelope: { status: "voided" } }),
    );
    expect(noReason).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_PARAMETER" });
    await envelopes.update(key.accountId, envelopeId, {
      envelope: { status: "voided", voidedReason: "Flat let to someone else" },
    });
    const voided = await envelopes.getEnvelope(key.accountId, envelopeId);
    expect(voided).toMatchObject({ status: "voided", voidedReason: "Flat let to someone else" });
    expect(voided.voidedDateTime).toMatch(/^\d{4}-/);

    const changes = await envelopes.listStatusChanges(key.accountId, { envelopeIds: envelopeId });
    expect(changes).toMatchObject({ resultSetSize: "1", totalSetSize: "1" });
    expect(changes.envelopes[0]).toMatchObject({ envelopeId, status: "voided" });
    const since = await envelopes.listStatusChanges(key.accountId, {
      fromDate: new Date(Date.now() - 60 * 60_000).toISOString(),
      status: "voided",
      include: "recipients",
    });
    expect(since.envelopes.map((e: Json) => e.envelopeId)).toEqual([envelopeId]);
    expect(since.envelopes[0].recipients.signers).toHaveLength(2);
    const paged = await envelopes.listStatusChanges(key.accountId, {
      fromDate: "2020-01-01",
      count: "1",
      startPosition: "1",
    });
    expect(paged).toMatchObject({ resultSetSize: "1", startPosition: "1", endPosition: "1" });
    expect(Number(paged.totalSetSize)).toBeGreaterThanOrEqual(2);
  }, 120_000);

  test("a Word document, as DocuSign's clients send one (fileExtension docx), is made a PDF whose anchors place the tabs", async () => {
    const docx = makeDocx({ paragraphs: ["Service agreement", "Client signature: /cs1/"] });
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        emailSubject: "From Word",
        status: "created",
        documents: [
          {
            documentBase64: Buffer.from(docx).toString("base64"),
            name: "Agreement",
            fileExtension: "docx",
            documentId: "1",
          },
        ],
        recipients: {
          signers: [
            {
              email: "client@example.com",
              name: "Cleo Client",
              recipientId: "1",
              tabs: {
                signHereTabs: [{ anchorString: "/cs1/", anchorYOffset: "-10", anchorUnits: "pixels" }],
              },
            },
          ],
        },
      },
    });
    const native = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
      key: key.secret,
    });
    const { fields, documentIds } = native.body as {
      fields: { type: string; page: number; x: number; y: number }[];
      documentIds: string[];
    };
    expect(fields).toEqual([expect.objectContaining({ type: "signature", page: 1 })]);
    // The anchor is on the second line of a page with 1 inch margins: below the top, left of centre.
    expect(fields[0]?.x).toBeGreaterThan(56);
    expect(fields[0]?.x).toBeLessThan(300);
    expect(fields[0]?.y).toBeGreaterThan(40);
    expect(fields[0]?.y).toBeLessThan(150);
    const document = await call(gateway, `/api/v1/documents/${documentIds[0]}`, { key: key.secret });
    expect(document.body).toMatchObject({
      filename: "Agreement.pdf",
      source: { filename: "Agreement.docx" },
    });
    const odd = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          documents: [
            {
              documentBase64: Buffer.from(docx).toString("base64"),
              name: "Sheet",
              fileExtension: "xlsx",
              documentId: "1",
            },
          ],
          recipients: { signers: [{ email: "t@example.com", name: "T" }] },
        },
      }),
    );
    expect(odd).toMatchObject({ status: 400, errorCode: "FORMAT_CONVERSION_ERROR" });
  });

  test("errors are DocuSign's: a bad key, another account, unknown ids, missing anchors and parameters, and nothing is left behind", async () => {
    const bad = new docusign.EnvelopesApi(clientWith(`sk_${"A".repeat(43)}`));
    expect(await docuSignError(bad.getEnvelope(key.accountId, "x"))).toMatchObject({
      status: 401,
      errorCode: "USER_AUTHENTICATION_FAILED",
    });
    const other = JSON.parse(
      (await deployment.cli("workspaces", "create", "--name", "Elsewhere")).stdout,
    ) as { id: string };
    expect(await docuSignError(envelopes.getEnvelope(other.id, "x"))).toMatchObject({
      status: 400,
      errorCode: "USER_LACKS_MEMBERSHIP",
    });
    for (const envelopeId of ["0192f5d8-0000-7000-8000-000000000000", "not-an-id"]) {
      expect(await docuSignError(envelopes.getEnvelope(key.accountId, envelopeId))).toMatchObject({
        status: 400,
        errorCode: "ENVELOPE_DOES_NOT_EXIST",
      });
    }
    expect(
      await docuSignError(templatesApi.get(key.accountId, "0192f5d8-0000-7000-8000-000000000000")),
    ).toMatchObject({ errorCode: "TEMPLATE_ID_INVALID" });
    expect(await docuSignError(envelopes.listStatusChanges(key.accountId, {}))).toMatchObject({
      status: 400,
      errorCode: "INVALID_REQUEST_PARAMETER",
    });

    const documentsBefore = (await call(gateway, "/api/v1/documents", { key: key.secret })).body as {
      totalCount: number;
    };
    const { bytes } = await leasePdf();
    const missing = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          emailSubject: "No anchor",
          documents: [
            {
              documentBase64: Buffer.from(bytes).toString("base64"),
              name: "Lease",
              fileExtension: "pdf",
              documentId: "1",
            },
          ],
          recipients: {
            signers: [
              {
                email: "t@example.com",
                name: "T",
                recipientId: "1",
                tabs: { signHereTabs: [{ anchorString: "/nowhere/" }] },
              },
            ],
          },
        },
      }),
    );
    expect(missing).toMatchObject({ status: 400, errorCode: "ANCHOR_TAB_PROCESSING_FAILURE" });
    const notPdf = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          documents: [
            {
              documentBase64: Buffer.from("hello").toString("base64"),
              name: "Note",
              fileExtension: "txt",
              documentId: "1",
            },
          ],
          recipients: { signers: [{ email: "t@example.com", name: "T" }] },
        },
      }),
    );
    expect(notPdf).toMatchObject({ status: 400, errorCode: "FORMAT_CONVERSION_ERROR" });
    const noSignature = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          documents: [
            { documentBase64: Buffer.from(bytes).toString("base64"), name: "Lease", documentId: "1" },
          ],
          recipients: { signers: [{ email: "t@example.com", name: "T" }] },
        },
      }),
    );
    expect(noSignature).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
    // Refused envelopes leave no stored document behind.
    const documentsAfter = (await call(gateway, "/api/v1/documents", { key: key.secret })).body as {
      totalCount: number;
    };
    expect(documentsAfter.totalCount).toBe(documentsBefore.totalCount);

    const malformed = await call(gateway, `/restapi/v2.1/accounts/${key.accountId}/envelopes`, {
      key: key.secret,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ errorCode: "INVALID_REQUEST_BODY", message: expect.any(String) });
    const unknown = await call(gateway, `/restapi/v2.1/accounts/${key.accountId}/folders`, {
      key: key.secret,
    });
    expect(unknown.status).toBe(404);
    expect((unknown.body as { errorCode: string }).errorCode).toBe("RESOURCE_NOT_FOUND");

    // A workspace whose API access is off, through this door too.
    const locked = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Locked")).stdout) as {
      id: string;
    };
    const lockedKey = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "l", "--workspace", locked.id)).stdout,
    );
    await deployment.cli("workspaces", "update", locked.id, "--api-access", "off");
    const lockedApi = new docusign.EnvelopesApi(clientWith(lockedKey.secret));
    const refused = await eventually(async () => {
      const error = await docuSignError(lockedApi.getEnvelope(locked.id, "x"));
      return error.status === 403 ? error : undefined;
    }, 2000);
    expect(refused.errorCode).toBe("USER_LACKS_PERMISSIONS");

    // Recent Errors and API Usage show the calls by their route, with the errorCode the client saw.
    const admin = new ConsoleClient(gateway);
    expect((await admin.logIn(deployment.adminEmail, deployment.adminPassword)).status).toBe(201);
    const base = `/console/api/workspaces/${key.accountId}`;
    const recent = await eventually(async () => {
      const reply = await admin.call(`${base}/recent-errors`);
      const items = (reply.body as { items: { path: string; code: string; status: number }[] }).items;
      return items.find((e) => e.code === "ANCHOR_TAB_PROCESSING_FAILURE");
    });
    expect(recent).toMatchObject({ path: `/restapi/v2.1/accounts/${key.accountId}/envelopes`, status: 400 });
    const usage = await eventually(async () => {
      const reply = await admin.call(`${base}/api-usage`);
      const routes = (reply.body as { routes: { method: string; route: string; calls: number }[] }).routes;
      return routes.find(
        (r) => r.method === "GET" && r.route === "/restapi/v2.1/accounts/{accountId}/envelopes/{envelopeId}",
      );
    });
    expect(usage.calls).toBeGreaterThan(0);
  });

  test("a signer's accessCode, as DocuSign's clients set it, is asked before the document: wrong is refused, right opens it; allowReassign is kept", async () => {
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        status: "sent",
        allowReassign: "true",
        templateRoles: [
          {
            roleName: "Client",
            name: "Ann",
            email: "ann.code@example.com",
            clientUserId: "ann-code",
            accessCode: "7311",
          },
          { roleName: "Company", name: "Bo", email: "bo.code@example.com", clientUserId: "bo-code" },
        ],
      },
    });
    const native = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
      key: key.secret,
    });
    expect((native.body as Json).recipients.map((r: Json) => r.authentication)).toEqual([
      ["access_code"],
      [],
    ]);
    expect((native.body as Json).allowReassign).toBe(true);
    expect((await envelopes.getEnvelope(key.accountId, created.envelopeId)).allowReassign).toBe("true");
    const view = await envelopes.createRecipientView(key.accountId, created.envelopeId, {
      recipientViewRequest: {
        returnUrl: "https://app.example.com/",
        email: "ann.code@example.com",
        userName: "Ann",
        clientUserId: "ann-code",
      },
    });
    const signer = new SignerBrowser(gateway);
    await signer.open(view.url);
    const gated = await signer.call("/sign/api/session");
    expect((gated.body as Json).authentication).toMatchObject({ methods: ["access_code"], verified: [] });
    expect((gated.body as Json).documents).toEqual([]);
    expect((await signer.call("/sign/api/verify", { accessCode: "0000" })).status).toBe(422);
    const passed = await signer.call("/sign/api/verify", { accessCode: "7311" });
    expect((passed.body as Json).verified).toEqual(["access_code"]);
    expect(((await signer.call("/sign/api/session")).body as Json).documents).toHaveLength(1);
  });

  test("a recipient's emailNotification.supportedLanguage, as DocuSign's clients set it, is the language of their e-mails and signing page; one Countersign does not speak is refused", async () => {
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        status: "sent",
        templateRoles: [
          {
            roleName: "Client",
            name: "Ana",
            email: "ana.lang@example.com",
            emailNotification: { supportedLanguage: "pt_BR" },
          },
          { roleName: "Company", name: "Bo", email: "bo.lang@example.com" },
        ],
      },
    });
    const native = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
      key: key.secret,
    });
    expect((native.body as Json).recipients.map((r: Json) => r.locale)).toEqual(["pt-BR", null]);
    const recipients = await envelopes.listRecipients(key.accountId, created.envelopeId);
    expect(recipients.signers[0].emailNotification).toEqual({ supportedLanguage: "pt_BR" });
    expect(recipients.signers[1].emailNotification).toBeUndefined();
    const invitation = await eventually(async () =>
      (await outboxMails(deployment.dataDir)).find((m) => m.to === "ana.lang@example.com"),
    );
    expect(invitation.subject).not.toContain("Please sign");
    expect(invitation.text).toContain("Olá");

    const refused = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          templateId,
          status: "sent",
          templateRoles: [
            {
              roleName: "Client",
              name: "Ana",
              email: "ana.xx@example.com",
              emailNotification: { supportedLanguage: "tlh" },
            },
            { roleName: "Company", name: "Bo", email: "bo.xx@example.com" },
          ],
        },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("locale");
  });

  test("a certified delivery, as DocuSign's clients add one, is a viewer in routing order: listed back as a certified delivery", async () => {
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        status: "sent",
        templateRoles: [
          { roleName: "Client", name: "Ann", email: "ann.cd@example.com", clientUserId: "ann-cd" },
          { roleName: "Company", name: "Bo", email: "bo.cd@example.com", clientUserId: "bo-cd" },
        ],
        recipients: {
          certifiedDeliveries: [
            { name: "Vera", email: "vera.cd@example.com", recipientId: "3", routingOrder: "2" },
          ],
        },
      },
    });
    const native = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
      key: key.secret,
    });
    expect((native.body as Json).recipients.map((r: Json) => r.kind)).toEqual(["signer", "signer", "viewer"]);
    const recipients = await envelopes.listRecipients(key.accountId, created.envelopeId);
    expect(recipients.certifiedDeliveries).toEqual([
      expect.objectContaining({
        recipientId: "3",
        recipientType: "certifieddelivery",
        name: "Vera",
        routingOrder: "2",
        status: "created",
      }),
    ]);
  });

  test("an envelope's notification, as DocuSign's clients set it, is the request's reminder schedule, expiry and warning", async () => {
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        status: "sent",
        templateRoles: [
          { roleName: "Client", name: "Ann", email: "ann.nt@example.com" },
          { roleName: "Company", name: "Bo", email: "bo.nt@example.com" },
        ],
        notification: {
          useAccountDefaults: "false",
          reminders: { reminderEnabled: "true", reminderDelay: "2", reminderFrequency: "2" },
          expirations: { expireEnabled: "true", expireAfter: "10", expireWarn: "3" },
        },
      },
    });
    const native = (
      await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, { key: key.secret })
    ).body as Json;
    expect(native).toMatchObject({ reminderEveryDays: 2, expiryWarningDays: 3, expiryWarningSentAt: null });
    const days = (Date.parse(native.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThanOrEqual(10);
    const envelope = await envelopes.getEnvelope(key.accountId, created.envelopeId);
    expect(envelope.expireDateTime).toBe(native.expiresAt);

    const refused = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          templateId,
          status: "sent",
          templateRoles: [
            { roleName: "Client", name: "Ann", email: "ann.nt@example.com" },
            { roleName: "Company", name: "Bo", email: "bo.nt@example.com" },
          ],
          notification: { reminders: { reminderEnabled: "true", reminderFrequency: "45" } },
        },
      }),
    );
    expect(refused).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
    expect(refused.message).toContain("notification.reminders.reminderFrequency");
  });

  test("every tab type DocuSign's clients send becomes its field: initials, date, number with bounds, list, radio group, grouped checkboxes, a signer attachment and a tab shown on a condition", async () => {
    const { bytes } = await leasePdf();
    const at = (x: number, y: number) => ({
      documentId: "1",
      pageNumber: "1",
      xPosition: String(x),
      yPosition: String(y),
    });
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        emailSubject: "Order form",
        status: "sent",
        documents: [
          {
            documentBase64: Buffer.from(bytes).toString("base64"),
            name: "Order",
            fileExtension: "pdf",
            documentId: "1",
          },
        ],
        recipients: {
          signers: [
            {
              email: "orders@example.com",
              name: "Olga Orders",
              recipientId: "1",
              clientUserId: "olga",
              tabs: {
                signHereTabs: [at(60, 600)],
                initialHereTabs: [at(300, 600)],
                dateTabs: [{ ...at(60, 650), tabLabel: "Start" }],
                numericalTabs: [
                  { ...at(200, 650), tabLabel: "Seats", minNumericalValue: "1", maxNumericalValue: "50" },
                ],
                listTabs: [
                  {
                    ...at(300, 650),
                    tabLabel: "Plan",
                    listItems: [
                      { text: "Basic plan", value: "basic" },
                      { text: "Team plan", value: "team" },
                    ],
                  },
                ],
                radioGroupTabs: [
                  {
                    groupName: "Billing",
                    documentId: "1",
                    radios: [
                      { pageNumber: "1", xPosition: "60", yPosition: "700", value: "Monthly" },
                      { pageNumber: "1", xPosition: "120", yPosition: "700", value: "Yearly" },
                    ],
                  },
                ],
                checkboxTabs: ["Support", "Training"].map((tabLabel, i) => ({
                  ...at(60 + i * 40, 730),
                  tabLabel,
                  tabGroupLabels: ["Extras"],
                })),
                tabGroups: [{ groupLabel: "Extras", groupRule: "SelectAtMost", maximumAllowed: "1" }],
                textTabs: [
                  {
                    ...at(200, 700),
                    tabLabel: "PO number",
                    conditionalParentLabel: "Billing",
                    conditionalParentValue: "Yearly",
                  },
                  {
                    ...at(200, 730),
                    tabLabel: "Team name",
                    conditionalParentLabel: "Plan",
                    conditionalParentValue: "team",
                  },
                ],
                signerAttachmentTabs: [{ ...at(300, 700), tabLabel: "Registration" }],
              },
            },
          ],
        },
      },
    });
    const native = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
      key: key.secret,
    });
    const fields = (native.body as Json).fields as Json[];
    const byLabel = (label: string) => fields.find((f) => f.label === label);
    expect(fields.map((f) => f.type).sort()).toEqual(
      [
        "signature",
        "initials",
        "date",
        "number",
        "dropdown",
        "radio",
        "radio",
        "checkbox",
        "checkbox",
        "text",
        "text",
        "attachment",
      ].sort(),
    );
    expect(byLabel("Seats")).toMatchObject({ minimum: 1, maximum: 50 });
    expect(byLabel("Plan")).toMatchObject({ options: ["Basic plan", "Team plan"] });
    expect(fields.filter((f) => f.type === "radio").map((f) => [f.group, f.option])).toEqual([
      ["Billing", "Monthly"],
      ["Billing", "Yearly"],
    ]);
    expect(byLabel("Support")).toMatchObject({ group: "Extras", maximum: 1, required: false });
    const yearly = fields.find((f) => f.option === "Yearly");
    // A radio group's name is its first button, which stands for the group.
    const monthly = fields.find((f) => f.option === "Monthly");
    expect(byLabel("PO number")?.condition).toEqual({ fieldId: monthly?.id, value: "Yearly" });
    // A list item's value names it in a condition; the field reads its text.
    expect(byLabel("Team name")?.condition).toEqual({ fieldId: byLabel("Plan")?.id, value: "Team plan" });

    // Signed as the page would: a file attached, the team plan chosen, so the team's name is asked.
    const view = await envelopes.createRecipientView(key.accountId, created.envelopeId, {
      recipientViewRequest: {
        returnUrl: "https://app.example.com/done",
        authenticationMethod: "none",
        email: "orders@example.com",
        userName: "Olga Orders",
        clientUserId: "olga",
      },
    });
    const signer = new SignerBrowser(gateway);
    expect((await signer.open(view.url)).status).toBe(303);
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: "application/pdf" }), "registration.pdf");
    const attached = await fetch(`${gateway}/sign/api/attachments/${byLabel("Registration")?.id}`, {
      method: "POST",
      headers: { cookie: signer.cookie },
      body: form,
    });
    expect(attached.status).toBe(201);
    const file = (await attached.json()) as { id: string };
    const values = {
      [fields.find((f) => f.type === "signature")?.id]: DRAWN,
      [fields.find((f) => f.type === "initials")?.id]: { kind: "typed", text: "OO" },
      [byLabel("Start")?.id]: "2026-12-01",
      [byLabel("Seats")?.id]: "7",
      [byLabel("Plan")?.id]: "Team plan",
      [yearly?.id]: true,
      [byLabel("PO number")?.id]: "PO-1",
      [byLabel("Team name")?.id]: "Ops",
      [byLabel("Support")?.id]: true,
      [byLabel("Registration")?.id]: { kind: "attachment", id: file.id },
    };
    const tooMany = await signer.call("/sign/api/submit", {
      consent: true,
      values: { ...values, [byLabel("Training")?.id]: true },
    });
    expect(tooMany.status).toBe(422);
    expect((tooMany.body as Json).errors).toEqual([
      { path: `values.${byLabel("Support")?.id}`, message: 'check at most 1 of "Extras"' },
    ]);
    expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
    const done = await eventually(async () => {
      const got = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}`, {
        key: key.secret,
      });
      return (got.body as Json).status === "completed" ? (got.body as Json) : undefined;
    }, 30_000);
    expect(done.signerAttachments).toEqual([
      expect.objectContaining({
        fieldId: byLabel("Registration")?.id,
        documentId: file.id,
        contentType: "application/pdf",
      }),
    ]);
  });

  test("an in-person signer, as DocuSign's clients add one, signs on their host's device: the host asks for the recipient view, the trail names both, and it is listed back as an in-person signer", async () => {
    const { bytes } = await leasePdf();
    const created = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        emailSubject: "Signed at the counter",
        status: "sent",
        documents: [
          {
            documentBase64: Buffer.from(bytes).toString("base64"),
            name: "Form",
            fileExtension: "pdf",
            documentId: "1",
          },
        ],
        recipients: {
          inPersonSigners: [
            {
              hostName: "Hana Host",
              hostEmail: "hana.host@example.com",
              signerName: "Sam Walkin",
              recipientId: "1",
              tabs: {
                signHereTabs: [{ documentId: "1", pageNumber: "1", xPosition: "60", yPosition: "600" }],
              },
            },
          ],
        },
      },
    });
    const listed = await envelopes.listRecipients(key.accountId, created.envelopeId);
    expect(listed.signers).toEqual([]);
    expect(listed.inPersonSigners).toEqual([
      expect.objectContaining({
        recipientId: "1",
        recipientType: "inpersonsigner",
        hostName: "Hana Host",
        hostEmail: "hana.host@example.com",
        signerName: "Sam Walkin",
        // Without a signerEmail, the completed copy goes to the host.
        email: "hana.host@example.com",
      }),
    ]);
    const view = await envelopes.createRecipientView(key.accountId, created.envelopeId, {
      recipientViewRequest: {
        returnUrl: "https://app.example.com/done",
        authenticationMethod: "none",
        email: "hana.host@example.com",
        userName: "Hana Host",
      },
    });
    const signer = new SignerBrowser(gateway);
    expect((await signer.open(view.url)).status).toBe(303);
    const session = (await signer.call("/sign/api/session")).body as Json;
    expect(session.recipient).toMatchObject({ name: "Sam Walkin", host: { name: "Hana Host" } });
    expect(session.canReassign).toBe(false);
    const values = Object.fromEntries(session.fields.map((f: Json) => [f.id, DRAWN]));
    expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
    const audit = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}/audit-trail`, {
      key: key.secret,
    });
    const actions = (audit.body as Json).items.map((e: Json) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["in_person_signing_started", "signed"]));
    expect(
      (audit.body as Json).items.find((e: Json) => e.action === "in_person_signing_started").details,
    ).toMatchObject({
      host: { name: "Hana Host", email: "hana.host@example.com" },
      signer: "Sam Walkin",
    });
  });

  test("status changes: views and signatures count as changes, and sent and delivered page apart", async () => {
    const embedded = async (tag: string) =>
      (
        await envelopes.createEnvelope(key.accountId, {
          envelopeDefinition: {
            templateId,
            status: "sent",
            templateRoles: [
              {
                roleName: "Client",
                name: "Ann",
                email: `ann.${tag}@example.com`,
                clientUserId: `ann-${tag}`,
              },
              { roleName: "Company", name: "Bo", email: `bo.${tag}@example.com`, clientUserId: `bo-${tag}` },
            ],
          },
        })
      ).envelopeId as string;
    const [viewedId, untouchedId] = [await embedded("v"), await embedded("u")];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = new Date().toISOString();
    const view = await envelopes.createRecipientView(key.accountId, viewedId, {
      recipientViewRequest: {
        returnUrl: "https://app.example.com/",
        email: "ann.v@example.com",
        userName: "Ann",
        clientUserId: "ann-v",
      },
    });
    const signer = new SignerBrowser(gateway);
    await signer.open(view.url);
    expect((await signer.show()).status).toBe(200);

    const changed = await envelopes.listStatusChanges(key.accountId, { fromDate: before });
    // An earlier test's envelope may finish sealing meanwhile: only these two are this test's to judge.
    const ours = changed.envelopes.filter(
      (e: Json) => e.envelopeId === viewedId || e.envelopeId === untouchedId,
    );
    expect(ours.map((e: Json) => [e.envelopeId, e.status])).toEqual([[viewedId, "delivered"]]);
    const upTo = await envelopes.listStatusChanges(key.accountId, {
      fromDate: "2020-01-01",
      toDate: before,
      envelopeIds: `${viewedId},${untouchedId}`,
    });
    expect(upTo.envelopes.map((e: Json) => e.envelopeId)).toEqual([untouchedId]);

    const both = `${viewedId},${untouchedId}`;
    const delivered = await envelopes.listStatusChanges(key.accountId, {
      envelopeIds: both,
      status: "delivered",
      count: "1",
    });
    expect(delivered).toMatchObject({
      resultSetSize: "1",
      totalSetSize: "1",
      startPosition: "0",
      endPosition: "0",
    });
    expect(delivered.envelopes[0].envelopeId).toBe(viewedId);
    const sent = await envelopes.listStatusChanges(key.accountId, { envelopeIds: both, status: "sent" });
    expect(sent.envelopes.map((e: Json) => e.envelopeId)).toEqual([untouchedId]);
    expect(
      (await envelopes.listStatusChanges(key.accountId, { envelopeIds: both, status: "sent,delivered" }))
        .totalSetSize,
    ).toBe("2");
    expect(
      (await envelopes.listStatusChanges(key.accountId, { envelopeIds: both, status: "any" })).totalSetSize,
    ).toBe("2");
    expect(
      await docuSignError(envelopes.listStatusChanges(key.accountId, { fromDate: "275760-09-13" })),
    ).toMatchObject({
      status: 400,
      errorCode: "INVALID_REQUEST_PARAMETER",
    });
    const tooBig = await docuSignError(
      envelopes.createEnvelope(key.accountId, {
        envelopeDefinition: {
          templateId,
          templateRoles: [
            { roleName: "Client", name: "A", email: "a@example.com", routingOrder: 2147483648 },
            { roleName: "Company", name: "B", email: "b@example.com" },
          ],
        },
      }),
    );
    expect(tooBig).toMatchObject({ status: 400, errorCode: "INVALID_REQUEST_BODY" });
  });

  test("hostile bodies and queries never answer 5xx, and every error is DocuSign's shape", async () => {
    const fuzzer = JSON.parse((await deployment.cli("keys", "create", "--name", "fuzzer")).stdout) as {
      secret: string;
    };
    const draft = await envelopes.createEnvelope(key.accountId, {
      envelopeDefinition: {
        templateId,
        templateRoles: [
          { roleName: "Client", name: "A", email: "a@example.com" },
          { roleName: "Company", name: "B", email: "b@example.com" },
        ],
      },
    });
    const { bytes } = await leasePdf();
    const pdf = Buffer.from(bytes).toString("base64");
    const base = `/restapi/v2.1/accounts/${key.accountId}`;
    const bulkList = await new docusign.BulkEnvelopesApi(clientWith(key.secret)).createBulkSendList(
      key.accountId,
      {
        bulkSendingList: {
          name: "Fuzzed",
          bulkCopies: [{ recipients: [{ roleName: "Client", name: "A", email: "a@example.com" }] }],
        },
      },
    );
    const bulkCopies = fc.array(
      fc.record(
        {
          recipients: fc.array(
            fc.record(
              {
                roleName: fc.oneof(fc.constantFrom("Client", "Company"), fc.string()),
                name: fc.oneof(fc.string(), fc.jsonValue()),
                email: fc.constantFrom("s@example.com", "nope", ""),
                accessCode: fc.string(),
                tabs: fc.array(fc.record({ tabLabel: fc.string(), initialValue: fc.jsonValue() }), {
                  maxLength: 2,
                }),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
          emailSubject: fc.oneof(fc.string(), fc.jsonValue()),
          prefillTabs: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    );
    const bulkRequests = fc.oneof(
      fc
        .record({ name: fc.oneof(fc.string(), fc.jsonValue()), bulkCopies }, { requiredKeys: [] })
        .chain((body) =>
          fc.constantFrom(
            { method: "POST", path: "/bulk_send_lists", body },
            { method: "PUT", path: `/bulk_send_lists/${bulkList.listId}`, body },
          ),
        ),
      fc
        .record(
          { envelopeOrTemplateId: fc.oneof(fc.constant(templateId), fc.string()), batchName: fc.jsonValue() },
          { requiredKeys: [] },
        )
        .map((body) => ({ method: "POST", path: `/bulk_send_lists/${bulkList.listId}/send`, body })),
      fc.string().chain((id) =>
        fc.constantFrom(
          ...["/bulk_send_lists/", "/bulk_send_batch/", "/bulk_send_batch/"].map((path) => ({
            method: "GET",
            path: `${path}${encodeURIComponent(id)}`,
            body: undefined,
          })),
          { method: "GET", path: `/bulk_send_batch/${encodeURIComponent(id)}/envelopes`, body: undefined },
          { method: "GET", path: `/bulk_send_batch?count=${encodeURIComponent(id)}`, body: undefined },
        ),
      ),
    );
    const tab = fc.record(
      {
        anchorString: fc.oneof(fc.constantFrom("/sn1/", "/SN2/", ""), fc.string()),
        anchorXOffset: fc.oneof(fc.double(), fc.string()),
        anchorYOffset: fc.oneof(fc.integer(), fc.constant("1e309")),
        anchorUnits: fc.oneof(fc.constantFrom("inches", "mms", "PIXELS"), fc.string()),
        documentId: fc.oneof(fc.constantFrom("1", "2"), fc.integer()),
        pageNumber: fc.oneof(fc.integer(), fc.constantFrom("2", "-1", "0", 2147483648)),
        xPosition: fc.oneof(fc.double(), fc.constantFrom("100", "1e400")),
        yPosition: fc.oneof(fc.double(), fc.constantFrom("100", "-5")),
        width: fc.oneof(fc.double(), fc.constant(0)),
      },
      { requiredKeys: [] },
    );
    const envelope = fc.record(
      {
        status: fc.oneof(fc.constantFrom("sent", "created", "SENT", "voided"), fc.jsonValue()),
        emailSubject: fc.oneof(fc.string(), fc.jsonValue()),
        templateId: fc.oneof(fc.constant(templateId), fc.string()),
        templateRoles: fc.array(
          fc.record({ roleName: fc.constantFrom("Client", "x"), name: fc.string(), email: fc.string() }),
          { maxLength: 3 },
        ),
        documents: fc.array(
          fc.record(
            {
              documentBase64: fc.oneof(fc.constant(pdf), fc.base64String(), fc.string()),
              name: fc.string(),
              fileExtension: fc.constantFrom("pdf", "PDF", ".pdf", "docx"),
              documentId: fc.oneof(fc.constantFrom("1", "2"), fc.integer(), fc.jsonValue()),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
        recipients: fc.record(
          {
            signers: fc.array(
              fc.record(
                {
                  name: fc.string(),
                  email: fc.constantFrom("s@example.com", "nope"),
                  recipientId: fc.oneof(fc.constantFrom("1", "1"), fc.integer(), fc.jsonValue()),
                  routingOrder: fc.oneof(
                    fc.integer(),
                    fc.string(),
                    fc.constantFrom(2147483648, "99999999999"),
                  ),
                  tabs: fc.record(
                    {
                      signHereTabs: fc.array(tab, { maxLength: 2 }),
                      dateSignedTabs: fc.array(tab, { maxLength: 1 }),
                    },
                    { requiredKeys: [] },
                  ),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 2 },
            ),
            carbonCopies: fc.array(
              fc.record({ name: fc.string(), email: fc.string(), recipientId: fc.jsonValue() }),
              { maxLength: 1 },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const request = fc.oneof(
      bulkRequests,
      envelope.map((body) => ({ method: "POST", path: "/envelopes", body })),
      fc.jsonValue().map((body) => ({ method: "POST", path: "/envelopes", body })),
      fc
        .record({ status: fc.jsonValue(), voidedReason: fc.jsonValue() }, { requiredKeys: [] })
        .map((body) => ({ method: "PUT", path: `/envelopes/${draft.envelopeId}`, body })),
      fc
        .jsonValue()
        .map((body) => ({ method: "PUT", path: `/envelopes/${draft.envelopeId}/recipients`, body })),
      fc
        .jsonValue()
        .map((body) => ({ method: "POST", path: `/envelopes/${draft.envelopeId}/views/recipient`, body })),
      fc
        .dictionary(
          fc.constantFrom(
            "from_date",
            "to_date",
            "status",
            "envelope_ids",
            "count",
            "start_position",
            "include",
            "search_text",
          ),
          fc.oneof(
            fc.string(),
            fc.constantFrom(
              "-271821-04-20",
              "275760-09-13",
              "1969-12-31",
              "2026-01-01",
              "sent,delivered",
              "any",
            ),
            fc.integer().map(String),
          ),
          { maxKeys: 4 },
        )
        .chain((query) =>
          fc.constantFrom("/envelopes", "/templates").map((path) => ({
            method: "GET",
            path: `${path}?${new URLSearchParams(query)}`,
            body: undefined,
          })),
        ),
      fc.string().map((id) => ({
        method: "GET",
        path: `/envelopes/${draft.envelopeId}/documents/${encodeURIComponent(id)}`,
        body: undefined,
      })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, body }) => {
        for (;;) {
          const reply = await call(gateway, `${base}${path}`, {
            key: fuzzer.secret,
            method,
            ...(body === undefined ? {} : { json: body }),
          });
          if (reply.status === 429) {
            await new Promise((resolve) => setTimeout(resolve, 1000));
            continue;
          }
          expect({ path, status: reply.status < 500 }).toEqual({ path, status: true });
          if (reply.status >= 400) {
            expect(reply.body).toEqual({
              errorCode: expect.stringMatching(/^[A-Z_]+$/),
              message: expect.any(String),
            });
          } else if ((reply.headers.get("content-type") ?? "").includes("json")) {
            expect(nullsIn(reply.body)).toEqual([]);
          }
          return;
        }
      }),
      { numRuns: 150, seed: 7 },
    );
    expect(faultsIn(deployment.output())).toEqual([]);
  }, 180_000);
});
