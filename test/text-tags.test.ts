/**
 * Text tags over HTTP: a PDF whose text holds `{{signature:Client}}` and the like places its fields
 * where the tags are, for a request and for a template; a tag that cannot be read, or names a role
 * no signer has, is a 422 naming the page and the tag; the signer's page and the sealed PDF both
 * show the tags white — checked by rendering the sealed PDF with poppler, against the original.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { inkBox, inkOf, renderRegion } from "./support/ink.js";
import { makeDocx } from "./support/office-documents.js";
import { expectDocumented } from "./support/openapi.js";
import { SignerBrowser } from "./support/signer-browser.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
let deployment: Deployment;
let api: string;
let gateway: string;
let key: { secret: string; accountId: string };

beforeAll(async () => {
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  api = `${gateway}/api/v1`;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "tags")).stdout) as typeof key;
});
afterAll(() => deployment?.destroy());

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Field extends Box {
  type: string;
  role?: string;
  label: string;
  required: boolean;
  cover?: Box;
}
interface Problem {
  errors: { path: string; message: string }[];
}

/** A one-page agreement whose tags are each a run of text of their own, as a word processor writes them. */
async function taggedPdf(tags: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText("Consulting agreement", { x: 72, y: 720, size: 18, font });
  for (const [i, tag] of tags.entries()) page.drawText(tag, { x: 72, y: 600 - i * 80, size: 11, font });
  return pdf.save();
}

async function upload(file: Uint8Array, filename = "agreement.pdf"): Promise<string> {
  const uploaded = await call(api, `/documents/upload?filename=${filename}`, {
    key: key.secret,
    method: "POST",
    body: file,
    headers: { "content-type": "application/octet-stream" },
  });
  return (uploaded.body as { id: string }).id;
}

/**
 * The same agreement as a Word document, each tag a paragraph of its own some 80 pt below the one
 * before, as in the PDF (LibreOffice makes the PDF).
 */
function taggedDocx(tags: string[]): Uint8Array {
  return makeDocx({
    paragraphs: ["Consulting agreement", ...tags.flatMap((tag) => ["", "", "", "", "", tag])],
  });
}

/** Where each source's heading, "Consulting agreement", is drawn: ink that is no tag. */
const HEADINGS = {
  pdf: { x: 72, y: 792 - 720 - 18, width: 200, height: 20 },
  // A Word document that sets no page has 1 inch margins; 12 pt Arial (Liberation Sans) on the first line.
  docx: { x: 60, y: 60, width: 160, height: 30 },
};

const post = (path: string, json: unknown) => call(api, path, { key: key.secret, method: "POST", json });

const TAGS = ["{{signature:Client}}", "{{text?:Client:Company}}", "{{date_signed:Client}}"];

test.each([
  ["a PDF", "pdf"],
  ["a Word document", "docx"],
] as const)(
  "%s: a request's fields are placed on its document's tags, the signer's page shows the tags white, and so does the sealed PDF",
  async (_kind, format) => {
    const documentId = await upload(
      format === "pdf" ? await taggedPdf(TAGS) : taggedDocx(TAGS),
      `agreement.${format}`,
    );
    // The PDF the tags are read in: the upload itself, or what LibreOffice made of it.
    const original = new Uint8Array(
      await (
        await fetch(`${api}/documents/${documentId}/download`, {
          headers: { authorization: `Bearer ${key.secret}` },
        })
      ).arrayBuffer(),
    );
    const read = await call(api, `/documents/${documentId}/text-tags`, { key: key.secret });
    expect(read.status).toBe(200);
    expectDocumented("get", "/api/v1/documents/{documentId}/text-tags", 200, read.body);
    const tagged = (read.body as { fields: Field[] }).fields;
    expect(tagged.map((f) => [f.type, f.role, f.label, f.required])).toEqual([
      ["signature", "Client", "", true],
      ["text", "Client", "Company", false],
      ["date_signed", "Client", "", false],
    ]);

    const created = await post("/signature-requests", {
      title: "Tagged agreement",
      documentIds: [documentId],
      textTags: true,
      recipients: [{ name: "Cleo Client", email: "cleo@example.com", role: "client", clientUserId: "cleo" }],
      send: true,
    });
    expect(created.status).toBe(201);
    expectDocumented("post", "/api/v1/signature-requests", 201, created.body);
    const request = created.body as { id: string; fields: Field[]; recipients: { id: string }[] };
    expect(request.fields.map((f) => [f.type, f.x, f.cover])).toEqual(
      tagged.map((f) => [f.type, f.x, f.cover]),
    );
    const company = request.fields[1] as Field & { cover: Box };
    // Around the tag with room to spare, for a glyph that reaches past the box pdf.js gives its run.
    const aroundTag = {
      x: company.cover.x - 10,
      y: company.cover.y - 10,
      width: company.cover.width + 20,
      height: company.cover.height + 20,
    };
    // The tag is ink in the original: what the sealed PDF must not show any more.
    expect(inkBox(inkOf(await renderRegion(original, 1, aroundTag)))).toBeDefined();

    const link = await post("/embedded-signing-url", {
      requestId: request.id,
      recipientId: request.recipients[0]?.id,
    });
    const signer = new SignerBrowser(gateway);
    await signer.open((link.body as { url: string }).url);
    const session = (await signer.show()).body as { fields: { id: string; type: string }[]; covers: Box[] };
    expect(session.covers).toHaveLength(3);
    const signature = session.fields.find((f) => f.type === "signature")?.id as string;
    const signed = await signer.call("/sign/api/submit", {
      consent: true,
      values: { [signature]: { kind: "typed", text: "Cleo Client" } },
    });
    expect(signed.status).toBe(200);
    const done = await eventually(async () => {
      const got = (await call(api, `/signature-requests/${request.id}`, { key: key.secret })).body as {
        status: string;
        signedDocumentId: string | null;
      };
      return got.status === "completed" && got.signedDocumentId ? got : undefined;
    }, 30_000);
    const sealed = new Uint8Array(
      await (
        await fetch(`${api}/documents/${done.signedDocumentId}/download`, {
          headers: { authorization: `Bearer ${key.secret}` },
        })
      ).arrayBuffer(),
    );
    // The page as a reader sees it, kept to look at.
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(
      join(ARTIFACTS, `text-tags-sealed-${format}.png`),
      await renderRegion(sealed, 1, { x: 0, y: 0, width: 612, height: 420 }, 96),
    );
    expect(inkBox(inkOf(await renderRegion(sealed, 1, aroundTag)))).toBeUndefined();
    // What is not a tag is left as it was.
    expect(inkBox(inkOf(await renderRegion(sealed, 1, HEADINGS[format])))).toBeDefined();
    // The signature is drawn over its covered tag.
    expect(inkBox(inkOf(await renderRegion(sealed, 1, request.fields[0] as Field)))).toBeDefined();
  },
);

test("a tag that cannot be read, or whose role no signer has, is refused naming its page and the tag", async () => {
  const documentId = await upload(
    await taggedPdf(["{{signature:Client}}", "{{sign:Client}}", "{{initials:Witness}}"]),
  );
  const twice = await post("/signature-requests", {
    title: "Twice",
    documentIds: [documentId, documentId],
    textTags: true,
    recipients: [{ name: "Cleo", email: "cleo@example.com", role: "Client" }],
  });
  expect((twice.body as Problem).errors).toEqual([
    { path: "documentIds[1]", message: "names a document twice" },
  ]);
  const refused = await post("/signature-requests", {
    title: "Bad tags",
    documentIds: [documentId],
    textTags: true,
    recipients: [{ name: "Cleo", email: "cleo@example.com", role: "Client" }],
  });
  expect(refused.status).toBe(422);
  expectDocumented("post", "/api/v1/signature-requests", 422, refused.body);
  expect((refused.body as Problem).errors).toEqual([
    {
      path: "textTags",
      message: expect.stringMatching(
        /^page 1: the tag "\{\{sign:Client\}\}" names the type "sign", which is not one/,
      ),
    },
    {
      path: "textTags",
      message:
        'page 1: the tag "{{initials:Witness}}" names the role "Witness", which is not one of "Client"',
    },
  ]);
  const read = await call(api, `/documents/${documentId}/text-tags`, { key: key.secret });
  expect(read.status).toBe(422);
  expect((read.body as Problem).errors).toHaveLength(1);
});

test("a template made from text tags keeps each tag's cover while its fields keep their ids; a request from it carries them", async () => {
  const documentId = await upload(await taggedPdf(["{{signature:Tenant}}", "{{initials:Tenant}}"]));
  const made = await post("/templates", {
    name: "Tagged lease",
    documentId,
    roles: [{ name: "Tenant" }],
    fields: [],
    textTags: true,
  });
  expect(made.status).toBe(201);
  expectDocumented("post", "/api/v1/templates", 201, made.body);
  const template = made.body as { id: string; fields: (Field & { id: string; role: string })[] };
  expect(template.fields.map((f) => [f.type, f.cover !== undefined])).toEqual([
    ["signature", true],
    ["initials", true],
  ]);
  const fieldsBack = template.fields.map(({ cover: _, ...f }) => ({ ...f, x: f.x + 5 }));
  const changed = await call(api, `/templates/${template.id}`, {
    key: key.secret,
    method: "PATCH",
    json: { fields: fieldsBack },
  });
  expect(changed.status).toBe(200);
  const after = (changed.body as { fields: Field[] }).fields;
  expect(after.map((f) => f.cover)).toEqual(template.fields.map((f) => f.cover));
  expect(after.map((f) => f.x)).toEqual(template.fields.map((f) => f.x + 5));
  const withCover = await call(api, `/templates/${template.id}`, {
    key: key.secret,
    method: "PATCH",
    json: { fields: template.fields },
  });
  expect(withCover.status).toBe(422);

  const request = await post("/signature-requests", {
    title: "From the tagged template",
    templateId: template.id,
    recipients: [{ name: "Tia Tenant", email: "tia@example.com", role: "Tenant" }],
  });
  expect((request.body as { fields: Field[] }).fields.map((f) => f.cover)).toEqual(
    template.fields.map((f) => f.cover),
  );
  // On another document the tags are not where the covers are: they go.
  const otherDocument = await upload(await taggedPdf([]));
  const moved = await call(api, `/templates/${template.id}`, {
    key: key.secret,
    method: "PATCH",
    json: { documentId: otherDocument },
  });
  expect(moved.status).toBe(200);
  expect((moved.body as { fields: Field[] }).fields.map((f) => f.cover)).toEqual([undefined, undefined]);
  const fromTemplate = await post("/signature-requests", {
    title: "Tags twice",
    templateId: template.id,
    textTags: true,
    recipients: [{ name: "Tia Tenant", email: "tia@example.com", role: "Tenant" }],
  });
  expect((fromTemplate.body as Problem).errors).toEqual([
    {
      path: "textTags",
      message: "a request from a template has the template's fields: make the template from text tags",
    },
  ]);
});
