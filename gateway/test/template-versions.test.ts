/**
 * The gateway's part in read-your-writes for requests made from templates: a request from a template
 * changed through this gateway asks the requests service for a copy at least as new as the change.
 * Both services are reached over the real Connect protocol in memory; the requests service answers
 * with the version it was asked for.
 */
import { create } from "@bufbuild/protobuf";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  TemplateSchema,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { TemplateVersions, type TemplateVersionsOptions } from "../src/template-versions.js";

let nextVersion = 1n;
const templatesTransport = createRouterTransport((router) =>
  router.service(TemplatesService, {
    createTemplate: (req) => ({
      template: create(TemplateSchema, {
        workspaceId: req.template?.workspaceId,
        id: "t1",
        version: nextVersion++,
      }),
    }),
    updateTemplate: (req) => ({
      template: create(TemplateSchema, {
        workspaceId: req.template?.workspaceId,
        id: req.template?.id,
        version: nextVersion++,
      }),
    }),
    deleteTemplate: () => ({ version: nextVersion++ }),
  }),
);
const requestsTransport = createRouterTransport((router) =>
  router.service(RequestsService, {
    createSignatureRequest: (req) => ({ signatureRequest: { title: String(req.templateVersionAtLeast) } }),
    startBulkSend: (req) => ({ bulkSend: { title: String(req.templateVersionAtLeast) } }),
  }),
);

function gatewayWith(options: TemplateVersionsOptions = {}) {
  const versions = new TemplateVersions(options);
  return {
    templates: versions.noting(createClient(TemplatesService, templatesTransport)),
    requests: versions.asking(createClient(RequestsService, requestsTransport)),
  };
}

/** The version a request from the template asks for. */
const askedFor = async (
  requests: ReturnType<typeof gatewayWith>["requests"],
  workspaceId: string,
  templateId: string,
) => (await requests.createSignatureRequest({ workspaceId, templateId })).signatureRequest?.title;

beforeEach(() => {
  nextVersion = 1n;
});

test("a request from a template created, then changed, through this gateway asks for the last change", async () => {
  const { templates, requests } = gatewayWith();
  await templates.createTemplate({ template: { workspaceId: "ws", name: "NDA" } });
  expect(await askedFor(requests, "ws", "t1")).toBe("1");
  await templates.updateTemplate({
    template: { workspaceId: "ws", id: "t1" },
    updateMask: { paths: ["name"] },
  });
  expect(await askedFor(requests, "ws", "t1")).toBe("2");
});

test("a deletion is a change too: the request asks for a copy that knows of it", async () => {
  const { templates, requests } = gatewayWith();
  await templates.createTemplate({ template: { workspaceId: "ws", name: "NDA" } });
  await templates.deleteTemplate({ workspaceId: "ws", templateId: "t1" });
  expect(await askedFor(requests, "ws", "t1")).toBe("2");
});

test("another workspace's template of the same id, and a template never changed here, ask for any copy", async () => {
  const { templates, requests } = gatewayWith();
  await templates.createTemplate({ template: { workspaceId: "ws", name: "NDA" } });
  expect([await askedFor(requests, "other", "t1"), await askedFor(requests, "ws", "t2")]).toEqual(["0", "0"]);
});

test("a change is forgotten after rememberMs, and the oldest first past maxTemplates", async () => {
  const short = gatewayWith({ rememberMs: 30 });
  await short.templates.createTemplate({ template: { workspaceId: "ws", name: "NDA" } });
  await new Promise((r) => setTimeout(r, 40));
  expect(await askedFor(short.requests, "ws", "t1")).toBe("0");

  const few = gatewayWith({ maxTemplates: 1 });
  await few.templates.createTemplate({ template: { workspaceId: "a", name: "NDA" } });
  await few.templates.createTemplate({ template: { workspaceId: "b", name: "NDA" } });
  expect([await askedFor(few.requests, "a", "t1"), await askedFor(few.requests, "b", "t1")]).toEqual([
    "0",
    "3",
  ]);
});

test("a bulk send from a template just changed asks for that change too, so its rows meet the new fields", async () => {
  const { templates, requests } = gatewayWith();
  await templates.createTemplate({ template: { workspaceId: "ws", name: "NDA" } });
  await templates.updateTemplate({
    template: { workspaceId: "ws", id: "t1" },
    updateMask: { paths: ["fields"] },
  });
  const { bulkSend } = await requests.startBulkSend({ workspaceId: "ws", templateId: "t1" });
  expect(bulkSend?.title).toBe("2");
});
