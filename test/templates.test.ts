/**
 * Templates through the public API in both modes and both route families: the whole story (upload,
 * template, list, fetch, download unchanged), validation with a path per problem, updates, the
 * document a template uses kept from deletion, pagination bounds, and the tenant-isolation matrix
 * over every document and template route.
 */
import { createHash } from "node:crypto";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

interface TemplateBody {
  id: string;
  name: string;
  documentId: string;
  roles: { name: string; order: number }[];
  fields: { id: string; role: string; page: number; required: boolean }[];
}

const RANDOM_ID = "0192f5d8-0000-7000-8000-000000000000";

function ndaTemplate(documentId: string) {
  return {
    name: "Mutual NDA",
    description: "Two parties, two signatures",
    documentId,
    roles: [{ name: "Client" }, { name: "Company", order: 2 }],
    fields: [
      { type: "signature", role: "Client", page: 1, x: 50, y: 700, width: 200, height: 40 },
      {
        type: "date_signed",
        role: "Client",
        page: 1,
        x: 50,
        y: 750,
        width: 120,
        height: 20,
        required: false,
      },
      { type: "signature", role: "Company", page: 2, x: 300, y: 700, width: 200, height: 40, label: "CEO" },
    ],
  };
}

describe.each(modes)("%s mode: templates", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string; accountId: string };
  let stranger: { secret: string; accountId: string };
  const resourceStyle = () => `${gateway}/api/v1`;
  const accountScoped = () => `${gateway}/v1/accounts/${key.accountId}`;

  async function uploadPdf(bytes: Uint8Array, base = resourceStyle()): Promise<{ id: string }> {
    const reply = await call(base, "/documents/upload?filename=nda.pdf", {
      key: key.secret,
      method: "POST",
      body: bytes,
      headers: { "content-type": "application/pdf" },
    });
    expect(reply.status).toBe(201);
    return reply.body as { id: string };
  }

  async function createTemplate(body: unknown, base = resourceStyle()): Promise<Reply> {
    return call(base, "/templates", { key: key.secret, method: "POST", json: body });
  }

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "templates")).stdout);
    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Stranger")).stdout) as {
      id: string;
    };
    stranger = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "stranger", "--workspace", other.id)).stdout,
    );
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("upload a PDF, build a template on it, list and fetch both, download the file unchanged — in both families", async () => {
    const pdf = await makePdf(2);
    for (const base of [resourceStyle(), accountScoped()]) {
      const document = await uploadPdf(pdf, base);
      const created = await createTemplate(ndaTemplate(document.id), base);
      expect(created.status).toBe(201);
      expectDocumented("POST", "/api/v1/templates", 201, created.body);
      const template = created.body as TemplateBody;
      expect(template).toMatchObject({
        name: "Mutual NDA",
        documentId: document.id,
        roles: [
          { name: "Client", order: 1 },
          { name: "Company", order: 2 },
        ],
      });
      expect(template.fields.map((f) => [f.role, f.page, f.required])).toEqual([
        ["Client", 1, true],
        ["Client", 1, false],
        ["Company", 2, true],
      ]);

      const fetched = await call(base, `/templates/${template.id}`, { key: key.secret });
      expectDocumented("GET", "/v1/accounts/{accountId}/templates/{templateId}", 200, fetched.body);
      expect(fetched.body).toEqual(template);
      const listed = await call(base, "/templates?pageSize=5", { key: key.secret });
      expectDocumented("GET", "/api/v1/templates", 200, listed.body);
      expect((listed.body as { items: TemplateBody[] }).items[0]).toEqual(template);
      const documents = await call(base, "/documents", { key: key.secret });
      expect((documents.body as { items: { id: string }[] }).items.map((d) => d.id)).toContain(document.id);
      const metadata = await call(base, `/documents/${document.id}`, { key: key.secret });
      expectDocumented("GET", "/api/v1/documents/{documentId}", 200, metadata.body);
      expect((metadata.body as { pages: unknown[] }).pages).toEqual([
        { width: 595, height: 842 },
        { width: 595, height: 842 },
      ]);

      const download = await fetch(`${base}/documents/${document.id}/download`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.equals(Buffer.from(pdf))).toBe(true);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(
        (metadata.body as { sha256: string }).sha256,
      );
    }
  });

  test("every broken rule is reported at once with its path; JSON of the wrong type is caught the same way", async () => {
    const document = await uploadPdf(await makePdf(1));
    const broken = ndaTemplate(document.id);
    broken.roles.push({ name: "client" });
    const rules = await createTemplate(broken);
    expect(rules.status).toBe(422);
    expectDocumented("POST", "/api/v1/templates", 422, rules.body);
    expect((rules.body as { code: string }).code).toBe("validation_failed");
    expect((rules.body as { errors: unknown[] }).errors).toEqual([
      { path: "roles[2].name", message: '"client" is already the name of roles[0]' },
      { path: "fields[2].page", message: "page 2 does not exist: the document has 1 page" },
    ]);

    const types = await createTemplate({
      ...ndaTemplate(document.id),
      fields: [
        { type: "signature", role: "Client", page: "1", x: 1, y: 1, width: 10, height: 10, colour: "red" },
      ],
    });
    expect(types.status).toBe(422);
    expect((types.body as { errors: unknown[] }).errors).toEqual([
      { path: "fields[0].page", message: "must be a whole number" },
      { path: "fields[0].colour", message: "is not a known property" },
    ]);

    const noRoles = await createTemplate({ name: "Empty", documentId: document.id, roles: [], fields: [] });
    expect((noRoles.body as { errors: unknown[] }).errors).toEqual([
      { path: "roles", message: "a template needs at least one signer role" },
    ]);
  });

  test("a template can be changed in part; the whole result is validated again", async () => {
    const document = await uploadPdf(await makePdf(2));
    const template = (await createTemplate(ndaTemplate(document.id))).body as TemplateBody;
    const renamed = await call(accountScoped(), `/templates/${template.id}`, {
      key: key.secret,
      method: "PATCH",
      json: { name: "NDA (2027)" },
    });
    expect(renamed.status).toBe(200);
    expectDocumented("PATCH", "/v1/accounts/{accountId}/templates/{templateId}", 200, renamed.body);
    expect(renamed.body).toMatchObject({ name: "NDA (2027)", fields: template.fields });

    const lost = await call(resourceStyle(), `/templates/${template.id}`, {
      key: key.secret,
      method: "PATCH",
      json: {
        fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 700, width: 200, height: 40 }],
      },
    });
    expect(lost.status).toBe(422);
    expect((lost.body as { errors: unknown[] }).errors).toEqual([
      { path: "roles[1]", message: '"Company" needs at least one required signature field' },
    ]);
    const empty = await call(resourceStyle(), `/templates/${template.id}`, {
      key: key.secret,
      method: "PATCH",
      json: {},
    });
    expect(empty.status).toBe(400);
  });

  test("a document cannot be deleted while a template uses it (409), and can once the template is gone", async () => {
    const document = await uploadPdf(await makePdf(2));
    const template = (await createTemplate(ndaTemplate(document.id))).body as TemplateBody;
    const refused = await call(resourceStyle(), `/documents/${document.id}`, {
      key: key.secret,
      method: "DELETE",
    });
    expect(refused.status).toBe(409);
    expectDocumented("DELETE", "/api/v1/documents/{documentId}", 409, refused.body);
    expect((refused.body as { detail: string }).detail).toMatch(new RegExp(`template:${template.id}`));

    const deleted = await call(accountScoped(), `/templates/${template.id}`, {
      key: key.secret,
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
    expect((await call(resourceStyle(), `/templates/${template.id}`, { key: key.secret })).status).toBe(404);
    expect(
      (await call(resourceStyle(), `/documents/${document.id}`, { key: key.secret, method: "DELETE" }))
        .status,
    ).toBe(204);
  });

  test("every gateway replica lists a change: the one it went through at once, the others within a second", async () => {
    const replicas = deployment.gateways.map((url) => `${url}/api/v1`);
    const newest = async (base: string) =>
      ((await call(base, "/templates?pageSize=1", { key: key.secret })).body as { items: TemplateBody[] })
        .items[0];
    /** Pages expire after 5 s; a replica that shows the change within 2 s heard of it. */
    const shownEverywhere = async (through: string, expected: (t: TemplateBody | undefined) => void) => {
      expected(await newest(through));
      for (const base of replicas) {
        const since = Date.now();
        for (;;) {
          try {
            expected(await newest(base));
            break;
          } catch (err) {
            if (Date.now() - since > 2_000) throw err;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
      }
    };
    const first = replicas[0] as string;
    const last = replicas.at(-1) as string;
    for (const base of replicas) await newest(base);
    const document = await uploadPdf(await makePdf(2));
    const template = (await createTemplate(ndaTemplate(document.id), first)).body as TemplateBody;
    await shownEverywhere(first, (t) => expect(t?.id).toBe(template.id));
    const renamed = await call(last, `/templates/${template.id}`, {
      key: key.secret,
      method: "PATCH",
      json: { name: "Renamed NDA" },
    });
    expect(renamed.status).toBe(200);
    await shownEverywhere(last, (t) => expect(t).toMatchObject({ id: template.id, name: "Renamed NDA" }));
    const deleted = await call(first, `/templates/${template.id}`, { key: key.secret, method: "DELETE" });
    expect(deleted.status).toBe(204);
    await shownEverywhere(first, (t) => expect(t?.id).not.toBe(template.id));
  });

  test("a request made right after its template changed, or went, through the same gateway follows the change", async () => {
    const document = await uploadPdf(await makePdf(2));
    const template = (await createTemplate(ndaTemplate(document.id))).body as TemplateBody;
    const recipients = [
      { name: "Ada", email: "ada@example.com", role: "Client" },
      { name: "Bo", email: "bo@example.com", role: "Company" },
    ];
    const requestFrom = () =>
      call(accountScoped(), "/signature-requests", {
        key: key.secret,
        method: "POST",
        json: { title: "NDA", templateId: template.id, recipients },
      });
    expect((await requestFrom()).status).toBe(201);
    for (let round = 1; round <= 5; round++) {
      const label = `Signed as director, round ${round}`;
      const changed = await call(resourceStyle(), `/templates/${template.id}`, {
        key: key.secret,
        method: "PATCH",
        json: { fields: ndaTemplate(document.id).fields.map((f) => ({ ...f, label })) },
      });
      expect(changed.status).toBe(200);
      const made = await requestFrom();
      expect((made.body as { fields: { label: string }[] }).fields.map((f) => f.label)).toEqual([
        label,
        label,
        label,
      ]);
    }
    await call(resourceStyle(), `/templates/${template.id}`, { key: key.secret, method: "DELETE" });
    const refused = await requestFrom();
    expect([refused.status, (refused.body as { errors?: { path: string }[] }).errors?.[0]?.path]).toEqual([
      422,
      "templateId",
    ]);
  });

  test("pagination: pageSize 0 and 101 are 400, the last page holds the rest, totalCount counts all", async () => {
    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Pages")).stdout) as {
      id: string;
    };
    const pagesKey = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "pages", "--workspace", other.id)).stdout,
    ) as { secret: string; accountId: string };
    const base = `${gateway}/v1/accounts/${pagesKey.accountId}`;
    const document = (
      await call(base, "/documents/upload?filename=p.pdf", {
        key: pagesKey.secret,
        method: "POST",
        body: await makePdf(2),
        headers: { "content-type": "application/pdf" },
      })
    ).body as { id: string };
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const created = await call(base, "/templates", {
        key: pagesKey.secret,
        method: "POST",
        json: ndaTemplate(document.id),
      });
      ids.push((created.body as TemplateBody).id);
    }
    const last = await call(base, "/templates?pageIndex=1&pageSize=5", { key: pagesKey.secret });
    expectDocumented("GET", "/v1/accounts/{accountId}/templates", 200, last.body);
    expect(last.body).toMatchObject({ pageIndex: 1, pageSize: 5, totalCount: 7 });
    expect((last.body as { items: TemplateBody[] }).items.map((t) => t.id)).toEqual([ids[1], ids[0]]);
    const beyond = await call(base, "/templates?pageIndex=2&pageSize=5", { key: pagesKey.secret });
    expect(beyond.body).toMatchObject({ items: [], totalCount: 7 });
    // A page served again from the gateway's pages is the same JSON, typed and sized as the first.
    const again = await call(base, "/templates?pageIndex=1&pageSize=5", { key: pagesKey.secret });
    const head = await call(base, "/templates?pageIndex=1&pageSize=5", {
      key: pagesKey.secret,
      method: "HEAD",
    });
    expect([
      again.text,
      again.headers.get("content-type"),
      head.status,
      head.headers.get("content-length"),
    ]).toEqual([last.text, "application/json; charset=utf-8", 200, String(Buffer.byteLength(last.text))]);
    for (const query of ["pageSize=0", "pageSize=101", "pageIndex=-1", "pageSize=abc"]) {
      const refused = await call(base, `/templates?${query}`, { key: pagesKey.secret });
      expect(refused.status).toBe(400);
      expectDocumented("GET", "/v1/accounts/{accountId}/templates", 400, refused.body);
    }
  });

  test("isolation matrix: every document and template route answers 404 with another workspace's ids", async () => {
    const document = await uploadPdf(await makePdf(2));
    const template = (await createTemplate(ndaTemplate(document.id))).body as TemplateBody;
    const routes: [method: string, path: string, json?: unknown][] = [
      ["GET", `/documents/${document.id}`],
      ["GET", `/documents/${document.id}/download`],
      ["HEAD", `/documents/${document.id}/download`],
      ["DELETE", `/documents/${document.id}`],
      ["GET", `/templates/${template.id}`],
      ["PATCH", `/templates/${template.id}`, { name: "taken over" }],
      ["DELETE", `/templates/${template.id}`],
    ];
    const strangerBases = [
      `${gateway}/api/v1`,
      `${gateway}/v1/accounts/${stranger.accountId}`,
      `${gateway}/v1/accounts/${key.accountId}`,
    ];
    for (const [method, path, json] of routes) {
      for (const base of strangerBases) {
        const reply = await call(base, path, { key: stranger.secret, method, json });
        expect({ method, base, path, status: reply.status }).toEqual({ method, base, path, status: 404 });
      }
    }
    for (const path of ["/templates", "/documents", "/documents/upload?filename=x.pdf"]) {
      const method = path.startsWith("/documents/upload") ? "POST" : "GET";
      const reply = await call(`${gateway}/v1/accounts/${key.accountId}`, path, {
        key: stranger.secret,
        method,
        ...(method === "POST"
          ? { body: await makePdf(1), headers: { "content-type": "application/pdf" } }
          : {}),
      });
      expect({ path, status: reply.status }).toEqual({ path, status: 404 });
    }
    const listed = await call(`${gateway}/api/v1`, "/templates", { key: stranger.secret });
    expect((listed.body as { items: TemplateBody[] }).items.map((t) => t.id)).not.toContain(template.id);

    const theirs = await call(`${gateway}/api/v1`, "/templates", {
      key: stranger.secret,
      method: "POST",
      json: ndaTemplate(document.id),
    });
    const nobodys = await call(`${gateway}/api/v1`, "/templates", {
      key: stranger.secret,
      method: "POST",
      json: ndaTemplate(RANDOM_ID),
    });
    expect(theirs.status).toBe(422);
    expect((theirs.body as { errors: unknown }).errors).toEqual((nobodys.body as { errors: unknown }).errors);

    const unchanged = await call(resourceStyle(), `/templates/${template.id}`, { key: key.secret });
    expect(unchanged.body).toEqual(template);
  });
});
