/**
 * One request must never stop the service for every tenant. Each class here once did: anchor tabs
 * that place millions of fields, documents that name one page millions of times, drawn signatures
 * that are decompression bombs or not PNGs at all. Each is refused with a 4xx that says why, while
 * /healthz keeps answering within a second.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { type Deployment, startStandalone } from "./support/deployments.js";
import { embeddedSigner } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { makePageCountBomb } from "./support/pdfs.js";
import { corruptPng, makePng, pngBomb } from "./support/pngs.js";
import { watched } from "./support/stall-watch.js";

/** Ten pages of forty lines of 120 "x": 48,000 places of the anchor "x". */
async function pageOfXs(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 10; p++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      page.drawText("x".repeat(120), { x: 20, y: 760 - line * 18, size: 8, font });
    }
  }
  return pdf.save();
}

let deployment: Deployment;
let gateway: string;
let key: { secret: string; accountId: string };

beforeAll(async () => {
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "hostile-documents")).stdout);
});
afterAll(() => deployment?.destroy());

const healthz = () => `${gateway}/healthz`;

describe("/restapi anchor tabs", () => {
  const envelope = (documentBase64: string, tabs: number) => ({
    status: "sent",
    emailSubject: "Anchors",
    documents: [{ documentBase64, name: "xs.pdf", fileExtension: "pdf", documentId: "1" }],
    recipients: {
      signers: [
        {
          name: "Ada",
          email: "ada@example.com",
          recipientId: "1",
          tabs: { signHereTabs: Array.from({ length: tabs }, () => ({ anchorString: "x" })) },
        },
      ],
    },
  });
  const create = (body: unknown) =>
    call(gateway, `/restapi/v2.1/accounts/${key.accountId}/envelopes`, {
      key: key.secret,
      method: "POST",
      json: body,
    });

  test("an anchor found 48,000 times places no field beyond the limit: a 400 in DocuSign's shape, and /healthz never waits", async () => {
    const documentBase64 = Buffer.from(await pageOfXs()).toString("base64");
    for (const tabs of [1, 10, 400]) {
      const { result, longestMs, failures } = await watched(healthz(), () =>
        create(envelope(documentBase64, tabs)),
      );
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        errorCode: "INVALID_REQUEST_BODY",
        message: expect.stringMatching(
          /anchor string "x" places fields beyond the limit.*at most 500 fields/,
        ),
      });
      expect({ tabs, failures, stalled: longestMs > 1000 }).toEqual({ tabs, failures: 0, stalled: false });
    }
  });

  test("more tabs than a request may have fields are refused before any document is read", async () => {
    const documentBase64 = Buffer.from(await pageOfXs()).toString("base64");
    const many = envelope(documentBase64, 300);
    const [signer] = many.recipients.signers;
    Object.assign(signer?.tabs ?? {}, {
      initialHereTabs: Array.from({ length: 201 }, () => ({ anchorString: "y" })),
    });
    const reply = await create(many);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      errorCode: "INVALID_REQUEST_BODY",
      message: "the signers have 501 tabs; an envelope has at most 500 fields",
    });
  });
});

describe("page-count bombs", () => {
  test("a PDF naming one page 2,000,000 times is refused on every way in, saying the limit", async () => {
    const bomb = makePageCountBomb(2_000_000);
    const { result: upload, longestMs } = await watched(healthz(), () =>
      call(gateway, "/api/v1/documents/upload?filename=bomb.pdf", {
        key: key.secret,
        method: "POST",
        body: bomb,
        headers: { "content-type": "application/pdf" },
      }),
    );
    expect(upload.status).toBe(422);
    expect((upload.body as { errors: { message: string }[] }).errors[0]?.message).toMatch(
      /more than 1000 pages/,
    );
    expect(longestMs).toBeLessThan(1000);
    const envelope = await call(gateway, `/restapi/v2.1/accounts/${key.accountId}/envelopes`, {
      key: key.secret,
      method: "POST",
      json: {
        documents: [{ documentBase64: Buffer.from(bomb).toString("base64"), name: "bomb", documentId: "1" }],
        recipients: { signers: [{ name: "Ada", email: "ada@example.com", tabs: {} }] },
      },
    });
    expect(envelope.status).toBe(400);
    expect(envelope.body).toEqual({
      errorCode: "FORMAT_CONVERSION_ERROR",
      message: expect.stringMatching(/more than 1000 pages/),
    });
  });
});

describe("drawn signatures", () => {
  test("a PNG bomb and a PNG whose data is not zlib are refused at submit, naming the field; the signer can still sign", async () => {
    const { request, signer, fields } = await embeddedSigner(gateway, key.secret);
    const [signature = "", initials = ""] = fields;
    const drawn = (png: Buffer) => ({ kind: "drawn", png: png.toString("base64") });
    const bomb = pngBomb();
    const { result: refused, longestMs } = await watched(healthz(), () =>
      signer.call("/sign/api/submit", {
        consent: true,
        values: { [signature]: drawn(bomb), [initials]: drawn(corruptPng()) },
      }),
    );
    expect(refused.status).toBe(422);
    expect((refused.body as { errors: unknown[] }).errors).toEqual([
      { path: `values.${signature}`, message: "must be a PNG of at most 8 bits per channel" },
      {
        path: `values.${initials}`,
        message: "must be a PNG image that can be read: its image data is damaged",
      },
    ]);
    expect(longestMs).toBeLessThan(1000);
    const signed = await signer.call("/sign/api/submit", {
      consent: true,
      values: {
        [signature]: drawn(makePng({ width: 300, height: 100 })),
        [initials]: { kind: "typed", text: "AL" },
      },
    });
    expect(signed.status).toBe(200);
    const completed = await eventually(async () => {
      const got = await call(`${gateway}/api/v1`, `/signature-requests/${request.id}`, { key: key.secret });
      return (got.body as { status: string }).status === "completed" ? got : undefined;
    }, 30_000);
    expect((completed.body as { signedDocumentId: string }).signedDocumentId).toEqual(expect.any(String));
  });
});

describe("what a signing link leaves behind", () => {
  test("a link opened under any spelling of its path leaves no token in the logs, and its documents come sandboxed", async () => {
    const api = `${gateway}/api/v1`;
    const { request, signer } = await embeddedSigner(gateway, key.secret);
    const recipientId = (
      (await call(api, `/signature-requests/${request.id}`, { key: key.secret })).body as {
        recipients: { id: string }[];
      }
    ).recipients[0]?.id;
    const url = await call(api, "/embedded-signing-url", {
      key: key.secret,
      method: "POST",
      json: { requestId: request.id, recipientId },
    });
    const token = new URL((url.body as { url: string }).url).pathname.split("/").pop() as string;
    // Routing ignores case, and the router decodes percent-encoding: all of these open the same link.
    const spellings = [`/SIGN/${token}`, `/Sign/%${token.charCodeAt(0).toString(16)}${token.slice(1)}`];
    const opened = await fetch(`${gateway}${spellings[0]}`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    for (const path of spellings.slice(1)) await fetch(`${gateway}${path}`, { redirect: "manual" });
    await new Promise((r) => setTimeout(r, 300));
    expect(deployment.output()).not.toContain(token.slice(1));
    expect(deployment.output()).toContain('"path":"/SIGN/[redacted]"');

    const documentId = ((await signer.call("/sign/api/session")).body as { documents: { id: string }[] })
      .documents[0]?.id;
    const pdf = await fetch(`${gateway}/sign/api/documents/${documentId}`, {
      headers: { cookie: signer.cookie },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("x-content-type-options")).toBe("nosniff");
    expect(pdf.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    const download = await fetch(`${api}/documents/${documentId}/download`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-security-policy")).toMatch(/^sandbox;/);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment;/);
    const envelopeDocument = await fetch(
      `${gateway}/restapi/v2.1/accounts/${key.accountId}/envelopes/${request.id}/documents/combined`,
      { headers: { authorization: `Bearer ${key.secret}` } },
    );
    expect(envelopeDocument.status).toBe(200);
    expect(envelopeDocument.headers.get("x-content-type-options")).toBe("nosniff");
    expect(envelopeDocument.headers.get("content-security-policy")).toMatch(/^sandbox;/);
  });

  test("once the sender cancels, the open page can read neither its session nor the documents: 410, saying why", async () => {
    const { request, signer } = await embeddedSigner(gateway, key.secret);
    const documentId = ((await signer.call("/sign/api/session")).body as { documents: { id: string }[] })
      .documents[0]?.id;
    await call(`${gateway}/api/v1`, `/signature-requests/${request.id}/cancel`, {
      key: key.secret,
      method: "POST",
      json: {},
    });
    const session = await signer.call("/sign/api/session");
    expect(session.status).toBe(410);
    expect((session.body as { detail: string }).detail).toBe(
      "the sender cancelled this request; there is nothing left to sign",
    );
    const pdf = await signer.call(`/sign/api/documents/${documentId}`);
    expect(pdf.status).toBe(410);
  });
});
