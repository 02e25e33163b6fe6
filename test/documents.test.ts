/**
 * Documents through the public API in both modes and both route families: uploads (multipart and
 * raw), byte-for-byte downloads with their headers, metadata, pagination, refusals, and tenant
 * isolation.
 */
import { createHash } from "node:crypto";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { makeColourPng, makeDocx } from "./support/office-documents.js";
import { expectDocumented } from "./support/openapi.js";
import { pdfText } from "./support/pdf-tools.js";
import { makePdf, makeTruncatedPdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

interface DocumentBody {
  id: string;
  filename: string;
  sha256: string;
  sizeBytes: number;
  pageCount: number;
}

function multipart(bytes: Uint8Array, filename: string, type = "application/pdf"): FormData {
  const form = new FormData();
  form.append("note", "ignored");
  form.append("file", new Blob([bytes], { type }), filename);
  return form;
}

async function upload(base: string, key: string, body: FormData | Uint8Array, query = ""): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body instanceof Uint8Array) headers["content-type"] = "application/pdf";
  const res = await fetch(`${base}/documents/upload${query}`, { method: "POST", headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe.each(modes)("%s mode: documents", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string; accountId: string };
  let stranger: { secret: string; accountId: string };
  const families = () => [`${gateway}/api/v1`, `${gateway}/v1/accounts/${key.accountId}`];

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "docs")).stdout);
    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Stranger")).stdout) as {
      id: string;
    };
    stranger = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "stranger", "--workspace", other.id)).stdout,
    );
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("a multipart upload and a raw upload, in either family, store the PDF with its SHA-256 and page count", async () => {
    const pdf = await makePdf(2);
    const sha256 = createHash("sha256").update(pdf).digest("hex");
    const [resourceStyle, accountScoped] = families() as [string, string];
    const viaForm = await upload(resourceStyle, key.secret, multipart(pdf, "Lease agreement.pdf"));
    expect(viaForm.status).toBe(201);
    expectDocumented("POST", "/api/v1/documents/upload", 201, viaForm.body);
    expect(viaForm.body).toMatchObject({
      filename: "Lease agreement.pdf",
      sha256,
      sizeBytes: pdf.length,
      pageCount: 2,
      kind: "original",
    });
    const raw = await upload(accountScoped, key.secret, pdf, "?filename=raw.pdf");
    expect(raw.status).toBe(201);
    expectDocumented("POST", "/v1/accounts/{accountId}/documents/upload", 201, raw.body);
    expect(raw.body).toMatchObject({ filename: "raw.pdf", sha256 });
  });

  test("a download returns the same bytes with type, length, safe name and the SHA-256 as ETag; 304 and HEAD work", async () => {
    const pdf = await makePdf(3, "download me");
    const { body } = await upload(
      families()[0] as string,
      key.secret,
      multipart(pdf, 'Ünïcode "quoted".pdf'),
    );
    const document = body as DocumentBody;
    expect(document.filename).toBe("Ünïcode quoted.pdf");
    for (const base of families()) {
      const res = await fetch(`${base}/documents/${document.id}/download`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.equals(Buffer.from(pdf))).toBe(true);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(document.sha256);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-length")).toBe(String(pdf.length));
      expect(res.headers.get("etag")).toBe(`"${document.sha256}"`);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="?n?code quoted.pdf"; filename*=UTF-8''${encodeURIComponent("Ünïcode quoted.pdf")}`,
      );
    }
    const url = `${families()[0]}/documents/${document.id}/download`;
    const notModified = await fetch(url, {
      headers: { authorization: `Bearer ${key.secret}`, "if-none-match": `"${document.sha256}"` },
    });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    const head = await fetch(url, { method: "HEAD", headers: { authorization: `Bearer ${key.secret}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(pdf.length));
  });

  test("metadata and lists: newest first, totalCount, the last page, and page sizes outside 1..100 refused with 400", async () => {
    const [resourceStyle] = families() as [string];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (
          (await upload(resourceStyle, key.secret, multipart(await makePdf(1), `n${i}.pdf`)))
            .body as DocumentBody
        ).id,
      );
    }
    const one = await call(resourceStyle, `/documents/${ids[0]}`, { key: key.secret });
    expectDocumented("GET", "/api/v1/documents/{documentId}", 200, one.body);
    const first = await call(resourceStyle, "/documents?pageIndex=0&pageSize=2", { key: key.secret });
    expectDocumented("GET", "/api/v1/documents", 200, first.body);
    const page = first.body as { items: DocumentBody[]; totalCount: number; pageSize: number };
    expect(page.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page.pageSize).toBe(2);
    const total = page.totalCount;
    const lastIndex = Math.ceil(total / 2) - 1;
    const last = await call(
      `${gateway}/v1/accounts/${key.accountId}`,
      `/documents?pageIndex=${lastIndex}&pageSize=2`,
      { key: key.secret },
    );
    expectDocumented("GET", "/v1/accounts/{accountId}/documents", 200, last.body);
    expect((last.body as { items: unknown[] }).items.length).toBe(total - lastIndex * 2);
    for (const query of ["pageSize=0", "pageSize=101", "pageIndex=-1", "pageSize=abc"]) {
      const refused = await call(resourceStyle, `/documents?${query}`, { key: key.secret });
      expect(refused.status).toBe(400);
      expectDocumented("GET", "/api/v1/documents", 400, refused.body);
    }
  });

  test("refusals: another type 415, a damaged PDF 422, more than 25 MiB 413 (the streamed limit is proved in the service's tests)", async () => {
    const [base] = families() as [string];
    const text = await call(base, "/documents/upload", {
      key: key.secret,
      method: "POST",
      body: "hi",
      headers: { "content-type": "text/plain" },
    });
    expect([text.status, (text.body as { code: string }).code]).toEqual([415, "unsupported_media_type"]);
    const json = await call(base, "/documents/upload", {
      key: key.secret,
      method: "POST",
      json: { file: "x" },
    });
    expect(json.status).toBe(415);
    const notPdf = await upload(base, key.secret, multipart(Buffer.from("plain words"), "words.pdf"));
    expect(notPdf.status).toBe(415);
    const damaged = await upload(base, key.secret, multipart(await makeTruncatedPdf(), "broken.pdf"));
    expect(damaged.status).toBe(422);
    expectDocumented("POST", "/api/v1/documents/upload", 422, damaged.body);
    expect((damaged.body as { errors: { message: string }[] }).errors[0]?.message).toMatch(/damaged/);

    const big = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(26 * 1024 * 1024, 0x20)]);
    const announced = await upload(base, key.secret, big, "?filename=big.pdf");
    expect(announced.status).toBe(413);
    expectDocumented("POST", "/api/v1/documents/upload", 413, announced.body);
  });

  test("a raw body of no upload type is 415 saying what an upload takes, not to send JSON; application/octet-stream is read by its bytes", async () => {
    const pdf = await makePdf(1);
    const types: Record<string, string>[] = [{ "content-type": "text/plain" }, {}];
    for (const base of families()) {
      for (const headers of types) {
        const res = await fetch(`${base}/documents/upload?filename=contract.pdf`, {
          method: "POST",
          headers: { authorization: `Bearer ${key.secret}`, ...headers },
          body: pdf,
        });
        const problem = (await res.json()) as { code: string; detail: string };
        expect([res.status, problem.code]).toEqual([415, "unsupported_media_type"]);
        expect(problem.detail).toBe(
          'upload a PDF (or a DOCX, ODT, RTF, PNG or JPEG file) as multipart/form-data with a "file" field, or as a raw body with its Content-Type (application/pdf, …) and ?filename=',
        );
        expectDocumented("POST", "/api/v1/documents/upload", 415, problem);
      }
      const generic = await fetch(`${base}/documents/upload?filename=contract.pdf`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/octet-stream" },
        body: pdf,
      });
      expect(generic.status).toBe(201);
      expect(await generic.json()).toMatchObject({ filename: "contract.pdf", pageCount: 1 });
    }
  });

  test("another workspace's documents are not found on any route", async () => {
    const [base] = families() as [string];
    const { id } = (await upload(base, key.secret, multipart(await makePdf(1), "mine.pdf")))
      .body as DocumentBody;
    for (const [method, path] of [
      ["GET", `/documents/${id}`],
      ["GET", `/documents/${id}/download`],
      ["DELETE", `/documents/${id}`],
    ] as const) {
      expect((await call(`${gateway}/api/v1`, path, { key: stranger.secret, method })).status).toBe(404);
      expect(
        (await call(`${gateway}/v1/accounts/${stranger.accountId}`, path, { key: stranger.secret, method }))
          .status,
      ).toBe(404);
      expect(
        (await call(`${gateway}/v1/accounts/${key.accountId}`, path, { key: stranger.secret, method }))
          .status,
      ).toBe(404);
    }
    const listed = await call(`${gateway}/api/v1`, "/documents", { key: stranger.secret });
    expect((listed.body as { items: DocumentBody[] }).items.map((d) => d.id)).not.toContain(id);
    expect((await call(`${gateway}/api/v1`, `/documents/${id}`, { key: key.secret })).status).toBe(200);
  });

  test("a Word document and a photo become PDFs to sign, and each downloads as it was sent from /source", async () => {
    const [resourceStyle, accountScoped] = families() as [string, string];
    const docx = makeDocx({ paragraphs: ["Consulting agreement", "Signature of the Client"] });
    const word = await upload(
      resourceStyle,
      key.secret,
      multipart(
        docx,
        "Consulting agreement.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ),
    );
    expect(word.status).toBe(201);
    expectDocumented("POST", "/api/v1/documents/upload", 201, word.body);
    expect(word.body).toMatchObject({
      filename: "Consulting agreement.pdf",
      contentType: "application/pdf",
      pageCount: 1,
      source: {
        filename: "Consulting agreement.docx",
        contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        sizeBytes: docx.length,
        sha256: createHash("sha256").update(docx).digest("hex"),
      },
    });
    const { id } = word.body as DocumentBody;
    const pdf = await fetch(`${accountScoped}/documents/${id}/download`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Consulting agreement");
    const source = await fetch(`${accountScoped}/documents/${id}/source`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect([source.status, source.headers.get("content-type"), source.headers.get("etag")]).toEqual([
      200,
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      `"${createHash("sha256").update(docx).digest("hex")}"`,
    ]);
    expect(source.headers.get("content-disposition")).toContain('filename="Consulting agreement.docx"');
    expect(Buffer.from(await source.arrayBuffer()).equals(Buffer.from(docx))).toBe(true);

    // A raw body of the image's own type; its name comes from ?filename=.
    const photo = makeColourPng(1200, 900, [20, 90, 160]);
    const res = await fetch(`${resourceStyle}/documents/upload?filename=whiteboard.png`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "image/png" },
      body: photo,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      filename: "whiteboard.pdf",
      pageCount: 1,
      source: { contentType: "image/png" },
    });

    const plain = (await upload(resourceStyle, key.secret, multipart(await makePdf(1), "plain.pdf")))
      .body as DocumentBody;
    const none = await call(resourceStyle, `/documents/${plain.id}/source`, { key: key.secret });
    expect(none.status).toBe(404);
    expectDocumented("GET", "/api/v1/documents/{documentId}/source", 404, none.body);
  });

  test("a workspace that floods the converter is turned away past its own share; another workspace's file is still converted", async () => {
    const [resourceStyle] = families() as [string];
    // Long enough that the flood is still waiting when the other workspace's file arrives.
    const long = makeDocx({
      paragraphs: Array.from({ length: 3000 }, (_, i) => `Clause ${i + 1}. ${"terms ".repeat(20)}`),
    });
    const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    const flood = Array.from({ length: 9 }, (_, i) =>
      upload(resourceStyle, key.secret, multipart(long, `flood-${i}.docx`, docx)),
    );
    await new Promise((r) => setTimeout(r, 500));
    const other = await upload(
      resourceStyle,
      stranger.secret,
      multipart(makeDocx({ paragraphs: ["Another workspace's agreement"] }), "other.docx", docx),
    );
    expect([other.status, other.text]).toEqual([201, expect.any(String)]);
    const flooded = await Promise.all(flood);
    const refused = flooded.filter((reply) => reply.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(flooded.filter((reply) => reply.status !== 429).map((reply) => reply.status)).toEqual(
      Array(9 - refused.length).fill(201),
    );
  }, 180_000);

  test("a deleted document is gone", async () => {
    const [base] = families() as [string];
    const { id } = (await upload(base, key.secret, multipart(await makePdf(1), "temp.pdf")))
      .body as DocumentBody;
    expect((await call(base, `/documents/${id}`, { key: key.secret, method: "DELETE" })).status).toBe(204);
    expect((await call(base, `/documents/${id}`, { key: key.secret })).status).toBe(404);
    expect((await call(base, `/documents/${id}/download`, { key: key.secret })).status).toBe(404);
  });
});
