import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { buildDocuments } from "@countersign/documents";
import { subjects } from "@countersign/domain";
import {
  DocumentsService,
  Kind,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplateChangedSchema } from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import {
  type Template,
  TemplateSchema,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  fieldViolations,
  inMemoryTransport,
  MemoryEventBus,
  type ServiceModule,
  serverInterceptors,
  serviceClient,
  uuidv7,
} from "@countersign/kit";
import { makePdf } from "../../../test/support/pdfs.js";
import { buildTemplates } from "../src/service.js";

const logger = createLogger({ name: "templates-test", level: "silent" });
let pg: EmbeddedPostgres;
let blobRoot: string;
let documents: ReturnType<typeof serviceClient<typeof DocumentsService>>;
let templates: ReturnType<typeof serviceClient<typeof TemplatesService>>;
let bus: MemoryEventBus;
let templatesModule: ServiceModule;

const transport = (module: ServiceModule) =>
  inMemoryTransport(module.routes, serverInterceptors({ logger, metrics: createRpcMetrics() }));

beforeAll(async () => {
  pg = await EmbeddedPostgres.open();
  blobRoot = await mkdtemp(join(tmpdir(), "templates-blobs-"));
  bus = new MemoryEventBus();
  const documentsModule = await buildDocuments({
    db: pg.database("documents"),
    bus,
    blobs: new FileBlobStore(blobRoot),
    logger,
  });
  documents = serviceClient(DocumentsService, transport(documentsModule));
  templatesModule = await buildTemplates({ db: pg.database("templates"), bus, logger, documents });
  templates = serviceClient(TemplatesService, transport(templatesModule));
  await templatesModule.start();
});
afterAll(async () => {
  await templatesModule.stop();
  await pg.close();
  await rm(blobRoot, { recursive: true, force: true });
});

async function upload(workspaceId: string, pages = 2): Promise<string> {
  const pdf = await makePdf(pages);
  async function* stream() {
    yield create(UploadDocumentRequestSchema, {
      part: {
        case: "header",
        value: { workspaceId, filename: "nda.pdf", contentType: "application/pdf", kind: Kind.ORIGINAL },
      },
    });
    yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: pdf } });
  }
  return (await documents.uploadDocument(stream())).document?.id as string;
}

function nda(
  workspaceId: string,
  documentId: string,
  overrides: MessageInitShape<typeof TemplateSchema> = {},
): Template {
  return create(TemplateSchema, {
    workspaceId,
    name: "NDA",
    documentId,
    roles: [{ name: "Client" }, { name: "Company", order: 2 }],
    fields: [
      { type: "signature", role: "client", page: 1, x: 50, y: 700, width: 200, height: 40, required: true },
      { type: "signature", role: "Company", page: 2, x: 300, y: 700, width: 200, height: 40, required: true },
      { type: "date_signed", role: "Company", page: 2, x: 300, y: 760, width: 120, height: 20 },
    ],
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => ConnectError.from(err),
  );
}

const deleteDocument = (workspaceId: string, documentId: string) =>
  documents.deleteDocument({ workspaceId, documentId });

test("a created template is stored normalised: default order, fields bound to the role's exact name, ids given", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
  expect(template?.roles.map((r) => [r.name, r.order])).toEqual([
    ["Client", 1],
    ["Company", 2],
  ]);
  expect(template?.fields.map((f) => f.role)).toEqual(["Client", "Company", "Company"]);
  expect(new Set(template?.fields.map((f) => f.id)).size).toBe(3);
  const fetched = await templates.getTemplate({ workspaceId, templateId: template?.id as string });
  expect(fetched.template).toEqual(template);
});

test("a template's document cannot be deleted while the template exists; deleting the template frees it", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
  expect((await failure(deleteDocument(workspaceId, documentId))).code).toBe(Code.FailedPrecondition);
  await templates.deleteTemplate({ workspaceId, templateId: template?.id as string });
  expect(
    (await failure(templates.getTemplate({ workspaceId, templateId: template?.id as string }))).code,
  ).toBe(Code.NotFound);
  await deleteDocument(workspaceId, documentId);
});

test("rule and placement violations come back together, and a refused template leaves no claim behind", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId, 1);
  const err = await failure(
    templates.createTemplate({
      template: nda(workspaceId, documentId, {
        roles: [{ name: "Client" }, { name: "Company" }, { name: "Witness" }],
      }),
    }),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(err)).toEqual([
    { path: "roles[2]", message: '"Witness" needs at least one required signature field' },
    { path: "fields[1].page", message: "page 2 does not exist: the document has 1 page" },
    { path: "fields[2].page", message: "page 2 does not exist: the document has 1 page" },
  ]);
  await deleteDocument(workspaceId, documentId);
});

test("a document of another workspace, or none at all, is a violation of documentId", async () => {
  const workspaceId = uuidv7();
  const theirs = await upload(uuidv7());
  for (const documentId of [theirs, uuidv7(), "", "not-a-uuid"]) {
    const err = await failure(templates.createTemplate({ template: nda(workspaceId, documentId) }));
    expect(fieldViolations(err).map((v) => v.path)).toEqual(["documentId"]);
  }
});

test("an update changes only what its mask names and validates the whole result against the document", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
  const id = template?.id as string;
  const renamed = await templates.updateTemplate({
    template: create(TemplateSchema, { workspaceId, id, name: "Mutual NDA", description: "ignored" }),
    updateMask: create(FieldMaskSchema, { paths: ["name"] }),
  });
  expect(renamed.template).toMatchObject({ name: "Mutual NDA", description: "", fields: template?.fields });

  const offPage = await failure(
    templates.updateTemplate({
      template: create(TemplateSchema, {
        workspaceId,
        id,
        fields: [
          {
            type: "signature",
            role: "Client",
            page: 1,
            x: 500,
            y: 10,
            width: 200,
            height: 40,
            required: true,
          },
        ],
      }),
      updateMask: create(FieldMaskSchema, { paths: ["fields"] }),
    }),
  );
  expect(fieldViolations(offPage)).toEqual([
    { path: "roles[1]", message: '"Company" needs at least one required signature field' },
    { path: "fields[0].x", message: "x + width = 700 lies outside the page: page 1 is 595 × 842 points" },
  ]);
  expect((await templates.getTemplate({ workspaceId, templateId: id })).template?.name).toBe("Mutual NDA");
});

test("moving a template to another document claims the new one and releases the old one", async () => {
  const workspaceId = uuidv7();
  const first = await upload(workspaceId);
  const second = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, first) });
  await templates.updateTemplate({
    template: create(TemplateSchema, { workspaceId, id: template?.id as string, documentId: second }),
    updateMask: create(FieldMaskSchema, { paths: ["document_id"] }),
  });
  await deleteDocument(workspaceId, first);
  expect((await failure(deleteDocument(workspaceId, second))).code).toBe(Code.FailedPrecondition);
});

test("a refused move to another document leaves that document free", async () => {
  const workspaceId = uuidv7();
  const first = await upload(workspaceId);
  const onePage = await upload(workspaceId, 1);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, first) });
  const err = await failure(
    templates.updateTemplate({
      template: create(TemplateSchema, { workspaceId, id: template?.id as string, documentId: onePage }),
      updateMask: create(FieldMaskSchema, { paths: ["document_id"] }),
    }),
  );
  expect(fieldViolations(err).map((v) => v.path)).toEqual(["fields[1].page", "fields[2].page"]);
  await deleteDocument(workspaceId, onePage);
});

test("concurrent updates of one template all apply, one after another", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
  const id = template?.id as string;
  const names = Array.from({ length: 8 }, (_, i) => `NDA v${i}`);
  const results = await Promise.all(
    names.map((name) =>
      templates.updateTemplate({
        template: create(TemplateSchema, { workspaceId, id, name }),
        updateMask: create(FieldMaskSchema, { paths: ["name"] }),
      }),
    ),
  );
  expect(results.map((r) => r.template?.name).sort()).toEqual(names);
  const final = await templates.getTemplate({ workspaceId, templateId: id });
  expect(names).toContain(final.template?.name);
});

test("an update mask must name what may change", async () => {
  const err = await failure(
    templates.updateTemplate({
      template: create(TemplateSchema, { workspaceId: uuidv7(), id: uuidv7() }),
      updateMask: create(FieldMaskSchema, { paths: ["workspace_id"] }),
    }),
  );
  expect(fieldViolations(err).map((v) => v.path)).toEqual(["updateMask"]);
});

test("another workspace's template does not exist for it", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
  const stranger = uuidv7();
  const templateId = template?.id as string;
  expect((await failure(templates.getTemplate({ workspaceId: stranger, templateId }))).code).toBe(
    Code.NotFound,
  );
  expect((await failure(templates.deleteTemplate({ workspaceId: stranger, templateId }))).code).toBe(
    Code.NotFound,
  );
  expect(
    (
      await failure(
        templates.updateTemplate({
          template: create(TemplateSchema, { workspaceId: stranger, id: templateId, name: "mine now" }),
          updateMask: create(FieldMaskSchema, { paths: ["name"] }),
        }),
      )
    ).code,
  ).toBe(Code.NotFound);
  expect(await templates.listTemplates({ workspaceId: stranger, pageIndex: 0, pageSize: 10 })).toMatchObject({
    totalCount: 0,
  });
});

test("lists are newest first with a total; page sizes outside 1..100 are refused", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push(
      (await templates.createTemplate({ template: nda(workspaceId, documentId) })).template?.id as string,
    );
  const page = await templates.listTemplates({ workspaceId, pageIndex: 1, pageSize: 2 });
  expect(page.templates.map((t) => t.id)).toEqual([ids[0]]);
  expect(page.totalCount).toBe(3);
  for (const pageSize of [0, 101]) {
    const err = await failure(templates.listTemplates({ workspaceId, pageIndex: 0, pageSize }));
    expect(fieldViolations(err).map((v) => v.path)).toEqual(["pageSize"]);
  }
});

test("every write that changes a template announces it with the template it left and its version, and a refused or missed one does not", async () => {
  const workspaceId = uuidv7();
  const documentId = await upload(workspaceId);
  const heard: {
    workspaceId: string;
    templateId: string;
    version: bigint;
    name?: string;
    deleted: boolean;
  }[] = [];
  const stop = await bus.listen(subjects.templateChanged, (msg) => {
    const { workspaceId, templateId, version, template, deleted } = fromBinary(
      TemplateChangedSchema,
      msg.data,
    );
    heard.push({ workspaceId, templateId, version, name: template?.name, deleted });
  });
  try {
    const { template } = await templates.createTemplate({ template: nda(workspaceId, documentId) });
    const templateId = template?.id as string;
    const change = (paths: string[], values: MessageInitShape<typeof TemplateSchema>) =>
      templates.updateTemplate({
        template: nda(workspaceId, documentId, { id: templateId, ...values }),
        updateMask: create(FieldMaskSchema, { paths }),
      });
    await change(["name"], { name: "NDA 2" });
    await change(["roles", "fields"], {});
    await failure(change(["fields"], { fields: [] }));
    await failure(templates.createTemplate({ template: nda(workspaceId, uuidv7()) }));
    const deletion = await templates.deleteTemplate({ workspaceId, templateId });
    await failure(templates.deleteTemplate({ workspaceId, templateId }));
    expect(deletion.version).toBe(4n);
    const expected = [
      { workspaceId, templateId, version: 1n, name: "NDA", deleted: false },
      { workspaceId, templateId, version: 2n, name: "NDA 2", deleted: false },
      { workspaceId, templateId, version: 3n, name: "NDA 2", deleted: false },
      { workspaceId, templateId, version: 4n, name: undefined, deleted: true },
    ];
    for (let waited = 0; heard.length < expected.length && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(expected);
  } finally {
    await stop();
  }
});
