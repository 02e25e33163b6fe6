/**
 * Requests made from the requests service's own copies of templates: fed by the templates service's
 * events, asked of the service only when no copy is known, when the caller changed the template after
 * the copy, or when no event confirmed the copy for a while. Real templates and documents services
 * behind; the templates client is counted, not replaced.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import {
  type TemplateChanged,
  TemplateChangedSchema,
} from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { fieldViolations, serviceClient, uuidv7 } from "@countersign/kit";
import { TemplateCopies, TemplateNotFound } from "../src/creation/template-copies.js";
import type { RequestsModule } from "../src/service.js";
import { type Harness, rejection, startHarness, until } from "./harness.js";

let h: Harness;
let asked = 0;
let counted: Client<typeof TemplatesService>;
let module: RequestsModule;
let requests: Harness["requests"];
/** Every template change the bus carried, in the order its listeners heard them. */
const carried: TemplateChanged[] = [];
beforeAll(async () => {
  h = await startHarness();
  await h.bus.listen(subjects.templateChanged, (msg) =>
    carried.push(fromBinary(TemplateChangedSchema, msg.data)),
  );
  counted = {
    ...h.templates,
    getTemplate: (request, options) => {
      asked += 1;
      return h.templates.getTemplate(request, options);
    },
  };
  module = await h.buildModule({ templates: counted });
  await module.start();
  requests = serviceClient(RequestsService, h.transport(module));
});
afterAll(async () => {
  await module.stop();
  await h.close();
});
beforeEach(() => {
  asked = 0;
  h.bus.down = false;
});

/** Resolves once the bus has carried the template's change of that version to its listeners. */
const heard = (templateId: string, version: bigint) =>
  until(() => carried.some((c) => c.templateId === templateId && c.version >= version));

const recipients = [
  { name: "Ada Client", email: "ada@example.com", role: "Client" },
  { name: "Bob Boss", email: "bob@example.com", role: "Countersigner" },
];

function fromTemplate(workspaceId: string, templateId: string, templateVersionAtLeast = 0n) {
  return requests.createSignatureRequest({
    workspaceId,
    title: "NDA",
    templateId,
    templateVersionAtLeast,
    recipients,
    actor: { apiKeyId: "key-1" },
  });
}

/** The template's fields' labels as a request made from it has them. */
const labels = async (workspaceId: string, templateId: string, versionAtLeast = 0n) =>
  (await fromTemplate(workspaceId, templateId, versionAtLeast)).signatureRequest?.fields.map((f) => f.label);

async function relabelFields(workspaceId: string, templateId: string, label: string): Promise<bigint> {
  const { template } = await h.templates.getTemplate({ workspaceId, templateId });
  if (!template) throw new Error("no template");
  const { template: updated } = await h.templates.updateTemplate({
    template: { ...template, fields: template.fields.map((f) => ({ ...f, label })) },
    updateMask: { paths: ["fields"] },
  });
  return updated?.version ?? 0n;
}

test("a template whose creation was heard of makes requests without a call to the templates service", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  await heard(templateId, 1n);
  for (let i = 0; i < 3; i++) await fromTemplate(ws, templateId);
  expect(asked).toBe(0);
});

test("a change through another caller reaches the copy by its event", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  await fromTemplate(ws, templateId);
  const version = await relabelFields(ws, templateId, "Initials here");
  await heard(templateId, version);
  asked = 0;
  expect(await labels(ws, templateId)).toEqual(["Initials here", "Initials here"]);
  expect(asked).toBe(0);
});

test("the caller's own change is used at once, before its event can arrive", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  await fromTemplate(ws, templateId);
  // The bus is down: the change's event stays in the templates service's outbox.
  h.bus.down = true;
  const version = await relabelFields(ws, templateId, "Sign as director");
  expect(await labels(ws, templateId, version)).toEqual(["Sign as director", "Sign as director"]);
});

test("the caller's own deletion is seen at once: no request is made from the template", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  await fromTemplate(ws, templateId);
  h.bus.down = true;
  const { version } = await h.templates.deleteTemplate({ workspaceId: ws, templateId });
  const err = await rejection(fromTemplate(ws, templateId, version));
  expect(fieldViolations(err)).toEqual([
    { path: "templateId", message: "there is no such template in this workspace" },
  ]);
});

test("a deletion heard of answers from the copy: there is no such template", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  await fromTemplate(ws, templateId);
  const { version } = await h.templates.deleteTemplate({ workspaceId: ws, templateId });
  await heard(templateId, version);
  asked = 0;
  const err = await rejection(fromTemplate(ws, templateId));
  expect([fieldViolations(err).map((v) => v.path), asked]).toEqual([["templateId"], 0]);
});

describe("the copies alone", () => {
  const changed = (workspaceId: string, templateId: string, version: bigint, label: string) =>
    toBinary(
      TemplateChangedSchema,
      create(TemplateChangedSchema, {
        workspaceId,
        templateId,
        changeTime: timestampNow(),
        version,
        template: { id: templateId, workspaceId, version, fields: [{ label }] },
      }),
    );

  test("an event older than the copy leaves it: events may arrive out of order", async () => {
    const copies = new TemplateCopies(counted);
    const stop = await copies.listen(h.bus);
    const ws = uuidv7();
    const id = uuidv7();
    await h.bus.publish(subjects.templateChanged, changed(ws, id, 3n, "third"));
    await h.bus.publish(subjects.templateChanged, changed(ws, id, 2n, "second"));
    expect((await copies.get(ws, id)).fields[0]?.label).toBe("third");
    await stop();
  });

  test("a copy no event confirmed for maxAgeMs is asked for again", async () => {
    const copies = new TemplateCopies(counted, { maxAgeMs: 50 });
    const ws = uuidv7();
    const templateId = await h.template(ws);
    await copies.get(ws, templateId);
    await copies.get(ws, templateId);
    await new Promise((r) => setTimeout(r, 60));
    await copies.get(ws, templateId);
    expect(asked).toBe(2);
  });

  test("requests waiting on the same unknown template share one call", async () => {
    const copies = new TemplateCopies(counted);
    const ws = uuidv7();
    const templateId = await h.template(ws);
    await Promise.all(Array.from({ length: 10 }, () => copies.get(ws, templateId)));
    expect(asked).toBe(1);
  });

  test("a template of another workspace is not found, nor kept", async () => {
    const copies = new TemplateCopies(counted);
    const templateId = await h.template(uuidv7());
    await expect(copies.get(uuidv7(), templateId)).rejects.toBeInstanceOf(TemplateNotFound);
    await expect(copies.get(uuidv7(), templateId)).rejects.toBeInstanceOf(TemplateNotFound);
    expect(asked).toBe(2);
  });

  test("the least lately used copy goes first past maxTemplates", async () => {
    const copies = new TemplateCopies(counted, { maxTemplates: 2 });
    const ws = uuidv7();
    const [a, b, c] = [await h.template(ws), await h.template(ws), await h.template(ws)];
    await copies.get(ws, a);
    await copies.get(ws, b);
    await copies.get(ws, a);
    await copies.get(ws, c);
    asked = 0;
    await copies.get(ws, a);
    await copies.get(ws, b);
    expect(asked).toBe(1);
  });
});
