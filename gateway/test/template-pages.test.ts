/**
 * The gateway's pages of templates, against a TemplatesService reached over the real Connect
 * protocol in memory. The service behind it lists from a table the test controls and counts lists.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { TemplateChangedSchema } from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import {
  type Template,
  TemplateSchema,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { MemoryEventBus } from "@countersign/kit";
import { TemplatePages, type TemplatePagesOptions } from "../src/template-pages.js";

const stored = new Map<string, Template[]>();
let lists = 0;
/** Holds the next list's answer until released, to put a change in the middle of a list. */
let listGate: Promise<void> | undefined;

const transport = createRouterTransport((router) =>
  router.service(TemplatesService, {
    async listTemplates(req) {
      lists += 1;
      const all = [...(stored.get(req.workspaceId) ?? [])];
      await listGate;
      if (req.pageSize < 1) throw new ConnectError("pageSize: must be from 1 to 100", Code.InvalidArgument);
      const start = req.pageIndex * req.pageSize;
      return { templates: all.slice(start, start + req.pageSize), totalCount: all.length };
    },
    async createTemplate(req) {
      const template = create(TemplateSchema, req.template);
      template.id = `t${Math.random()}`;
      stored.set(template.workspaceId, [template, ...(stored.get(template.workspaceId) ?? [])]);
      return { template };
    },
    async updateTemplate() {
      throw new ConnectError("the template kept changing while it was updated", Code.Aborted);
    },
    async deleteTemplate(req) {
      stored.set(
        req.workspaceId,
        (stored.get(req.workspaceId) ?? []).filter((t) => t.id !== req.templateId),
      );
      return {};
    },
    async getTemplate(req) {
      const template = stored.get(req.workspaceId)?.find((t) => t.id === req.templateId);
      if (!template) throw new ConnectError("template not found", Code.NotFound);
      return { template };
    },
  }),
);

/** Stores a template behind the gateway's back, as a write through another replica does. */
function storeElsewhere(workspaceId: string, name: string): void {
  const template = create(TemplateSchema, { id: `other-${name}`, workspaceId, name });
  stored.set(workspaceId, [template, ...(stored.get(workspaceId) ?? [])]);
}

const changed = (workspaceId: string) =>
  toBinary(
    TemplateChangedSchema,
    create(TemplateChangedSchema, { workspaceId, templateId: "t", changeTime: timestampNow() }),
  );

const names = (page: { templates: Template[] }) => page.templates.map((t) => t.name);

let bus: MemoryEventBus;
let pages: TemplatePages;

const pagesWith = (options: TemplatePagesOptions) =>
  new TemplatePages(createClient(TemplatesService, transport), options);
const list = (workspaceId: string, pageSize: number, pageIndex = 0) =>
  pages.client.listTemplates({ workspaceId, pageSize, pageIndex });
let stop: () => Promise<void>;

beforeEach(async () => {
  stored.clear();
  storeElsewhere("ws-1", "nda");
  storeElsewhere("ws-2", "lease");
  lists = 0;
  listGate = undefined;
  bus = new MemoryEventBus();
  pages = pagesWith({ ttlMs: 60_000 });
  stop = await pages.listen(bus);
});
afterEach(() => stop());

test("a page is asked for once and then answered from what the gateway keeps", async () => {
  for (let i = 0; i < 10; i++) {
    expect(names(await list("ws-1", 5))).toEqual(["nda"]);
  }
  expect(lists).toBe(1);
});

test("each workspace, page index and page size is a page of its own", async () => {
  await list("ws-1", 5);
  await list("ws-1", 6);
  await list("ws-1", 5, 1);
  expect(names(await list("ws-2", 5))).toEqual(["lease"]);
  expect(lists).toBe(4);
});

test("a template written through this gateway is listed at once", async () => {
  await list("ws-1", 5);
  const { template } = await pages.client.createTemplate({
    template: { workspaceId: "ws-1", name: "offer" },
  });
  expect(names(await list("ws-1", 5))).toEqual(["offer", "nda"]);
  await pages.client.deleteTemplate({ workspaceId: "ws-1", templateId: template?.id as string });
  expect(names(await list("ws-1", 5))).toEqual(["nda"]);
});

test("a write that fails still forgets the workspace's pages: it may have committed", async () => {
  await list("ws-1", 5);
  await expect(
    pages.client.updateTemplate({
      template: { workspaceId: "ws-1", id: "x" },
      updateMask: { paths: ["name"] },
    }),
  ).rejects.toMatchObject({ code: Code.Aborted });
  await list("ws-1", 5);
  expect(lists).toBe(2);
});

test("a change another replica announces drops that workspace's pages and no other's", async () => {
  await list("ws-1", 5);
  await list("ws-2", 5);
  storeElsewhere("ws-1", "offer");
  await bus.publish(subjects.templateChanged, changed("ws-1"));
  expect(names(await list("ws-1", 5))).toEqual(["offer", "nda"]);
  await list("ws-2", 5);
  expect(lists).toBe(3);
});

test("a page asked for before a change is not kept after it", async () => {
  let release = () => {};
  listGate = new Promise((resolve) => {
    release = resolve;
  });
  const before = list("ws-1", 5);
  await new Promise((resolve) => setTimeout(resolve, 10));
  storeElsewhere("ws-1", "offer");
  await bus.publish(subjects.templateChanged, changed("ws-1"));
  release();
  expect(names(await before)).toEqual(["nda"]);
  listGate = undefined;
  expect(names(await list("ws-1", 5))).toEqual(["offer", "nda"]);
});

test("a page is asked for again once it has expired", async () => {
  pages = pagesWith({ ttlMs: 20 });
  await list("ws-1", 5);
  storeElsewhere("ws-1", "offer");
  await new Promise((resolve) => setTimeout(resolve, 40));
  expect(names(await list("ws-1", 5))).toEqual(["offer", "nda"]);
});

test("an error is passed on and not kept", async () => {
  for (let i = 0; i < 2; i++) {
    await expect(list("ws-1", 0)).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
  }
  expect(lists).toBe(2);
});

test("past the templates they may hold, the pages of the workspace that listed least lately go first", async () => {
  pages = pagesWith({ ttlMs: 60_000, maxTemplates: 3 });
  await list("ws-1", 5);
  await list("ws-2", 5);
  await list("ws-1", 6);
  // ws-3 has no template: its empty page still counts as one.
  await list("ws-3", 5);
  lists = 0;
  await list("ws-1", 5);
  await list("ws-1", 6);
  await list("ws-3", 5);
  expect(lists).toBe(0);
  await list("ws-2", 5);
  expect(lists).toBe(1);
});

test("a workspace keeps its latest pages only", async () => {
  pages = pagesWith({
    ttlMs: 60_000,
    maxPagesPerWorkspace: 2,
  });
  for (const pageSize of [1, 2, 3]) await list("ws-1", pageSize);
  lists = 0;
  await list("ws-1", 3);
  await list("ws-1", 2);
  expect(lists).toBe(0);
  await list("ws-1", 1);
  expect(lists).toBe(1);
});

test("a single template is read from the service every time", async () => {
  await list("ws-1", 5);
  stored.set("ws-1", [create(TemplateSchema, { id: "other-nda", workspaceId: "ws-1", name: "nda v2" })]);
  await expect(
    pages.client.getTemplate({ workspaceId: "ws-1", templateId: "other-nda" }),
  ).resolves.toMatchObject({
    template: { name: "nda v2" },
  });
});
