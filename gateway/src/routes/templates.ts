/** Templates over HTTP: create, list, get, update (PATCH: the properties present are replaced) and delete. */

import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { coverOf, placementOf, rulesMessage, rulesOf } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type ListTemplatesResponse,
  type Template as StoredTemplate,
  TemplateSchema,
  type TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { z } from "zod";
import { isTrue } from "../contract/scope-requirements.js";
import {
  type FieldInput,
  type RoleInput,
  Template,
  TemplateIdParams,
  TemplateInput,
  TemplatePage,
  TemplateUpdate,
} from "../contract/templates.js";
import { pageBody, pageQuery } from "../contract/values.js";
import { iso } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { created, noContent, ok, okKept, type PublicApi, type Reply } from "../public-api.js";
import { taggedFields } from "../tagged-documents.js";
import type { TaggedField } from "../text-tags.js";

/**
 * Each template's JSON, made once per message: the gateway's template pages (template-pages.ts)
 * hand out the same messages to every request for a page, and making their JSON again, ISO times
 * from protobuf timestamps above all, was a sixth of a templates page's processor time.
 */
const jsonOfMessage = new WeakMap<StoredTemplate, z.infer<typeof Template>>();

export function templateJson(template: StoredTemplate | undefined): z.infer<typeof Template> {
  if (!template) throw new Error("the templates service answered without a template");
  let json = jsonOfMessage.get(template);
  if (!json) {
    json = toJson(template);
    jsonOfMessage.set(template, json);
  }
  return json;
}

/**
 * A page's answer, written once per page the gateway keeps (template-pages.ts hands out the same
 * response until the workspace's templates change): writing the JSON of a page of five for every
 * request was 7 % of the gateway's processor time under a load of pages.
 */
const repliesOfPage = new WeakMap<ListTemplatesResponse, Map<string, Reply>>();

function pageReply(listed: ListTemplatesResponse, query: { pageIndex: number; pageSize: number }): Reply {
  let replies = repliesOfPage.get(listed);
  if (!replies) {
    replies = new Map();
    repliesOfPage.set(listed, replies);
  }
  const key = `${query.pageIndex}:${query.pageSize}`;
  let reply = replies.get(key);
  if (!reply) {
    reply = okKept(pageBody(listed.templates.map(templateJson), query, listed.totalCount));
    replies.set(key, reply);
  }
  return reply;
}

function toJson(template: StoredTemplate): z.infer<typeof Template> {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    documentId: template.documentId,
    roles: template.roles.map(({ name, order }) => ({ name, order })),
    fields: template.fields.map((f) => ({
      id: f.id,
      type: f.type as z.infer<typeof Template>["fields"][number]["type"],
      role: f.role,
      ...placementOf(f),
      required: f.required,
      label: f.label,
      ...coverOf(f.cover),
      ...rulesOf(f.rules),
    })),
    createdAt: iso(template.createTime),
    updatedAt: iso(template.updateTime),
  };
}

/** A field as the service takes it: absent ids are assigned there, `required` defaults to true. */
export function fieldMessage({
  options,
  minimum,
  maximum,
  group,
  option,
  condition,
  ...field
}: z.output<typeof FieldInput>) {
  return {
    ...field,
    id: field.id ?? "",
    label: field.label ?? "",
    required: field.required ?? true,
    rules: rulesMessage({ options, minimum, maximum, group, option, condition }),
  };
}

/** A field a text tag placed, as the services take it: its cover with it. */
export function taggedFieldMessage({ documentId: _, ...field }: TaggedField) {
  return { ...field, id: "", rules: rulesMessage({}) };
}

function roleMessage(role: z.output<typeof RoleInput>) {
  return { name: role.name, order: role.order ?? 0 };
}

/** JSON property → the message field an update mask names. */
const MASK_PATHS: Record<keyof z.output<typeof TemplateUpdate>, string> = {
  name: "name",
  description: "description",
  documentId: "document_id",
  roles: "roles",
  fields: "fields",
};

const TEMPLATE_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

export function templateRoutes(
  api: PublicApi,
  templates: Client<typeof TemplatesService>,
  documents: Client<typeof DocumentsService>,
): void {
  api.route(
    "post",
    "/templates",
    {
      summary: "Create a template",
      tag: "Templates",
      scope: "templates:write",
      conditionalScopes: [{ when: "`textTags: true`", scope: "documents:read", applies: isTrue("textTags") }],
      body: TemplateInput,
      answers: { 201: { description: "The template as stored, with field ids.", schema: Template } },
      problems: [...TEMPLATE_PROBLEMS, 409, 413, 415, 422],
    },
    async ({ workspaceId, body }) => {
      const tagged = body.textTags
        ? await taggedFields(
            documents,
            workspaceId,
            [body.documentId],
            body.roles.map((r) => r.name),
          )
        : [];
      const { template } = await templates.createTemplate({
        template: create(TemplateSchema, {
          workspaceId,
          name: body.name,
          description: body.description ?? "",
          documentId: body.documentId,
          roles: body.roles.map(roleMessage),
          fields: [...body.fields.map(fieldMessage), ...tagged.map(taggedFieldMessage)],
        }),
      });
      return created(templateJson(template));
    },
  );

  api.route(
    "get",
    "/templates",
    {
      summary: "List templates, newest first",
      tag: "Templates",
      scope: "templates:read",
      query: pageQuery,
      answers: { 200: { description: "One page of templates.", schema: TemplatePage } },
      problems: [...TEMPLATE_PROBLEMS],
    },
    async ({ workspaceId, query }) =>
      pageReply(await templates.listTemplates({ workspaceId, ...query }), query),
  );

  api.route(
    "get",
    "/templates/:templateId",
    {
      summary: "Get a template",
      tag: "Templates",
      scope: "templates:read",
      params: TemplateIdParams,
      answers: { 200: { description: "The template.", schema: Template } },
      problems: [...TEMPLATE_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { template } = await templates.getTemplate({ workspaceId, templateId: params.templateId });
      return ok(templateJson(template));
    },
  );

  api.route(
    "patch",
    "/templates/:templateId",
    {
      summary: "Change a template",
      tag: "Templates",
      scope: "templates:write",
      params: TemplateIdParams,
      body: TemplateUpdate,
      answers: { 200: { description: "The template after the change.", schema: Template } },
      problems: [...TEMPLATE_PROBLEMS, 409, 413, 415, 422],
    },
    async ({ workspaceId, params, body }) => {
      const paths = Object.entries(MASK_PATHS)
        .filter(([property]) => body[property as keyof typeof body] !== undefined)
        .map(([, path]) => path);
      if (paths.length === 0) {
        throw new ApiProblem(
          "invalid_request",
          "the body names nothing to change (name, description, documentId, roles, fields)",
        );
      }
      const { template } = await templates.updateTemplate({
        template: create(TemplateSchema, {
          workspaceId,
          id: params.templateId,
          name: body.name,
          description: body.description,
          documentId: body.documentId,
          roles: body.roles?.map(roleMessage),
          fields: body.fields?.map(fieldMessage),
        }),
        updateMask: create(FieldMaskSchema, { paths }),
      });
      return ok(templateJson(template));
    },
  );

  api.route(
    "delete",
    "/templates/:templateId",
    {
      summary: "Delete a template",
      tag: "Templates",
      scope: "templates:write",
      params: TemplateIdParams,
      answers: { 204: { description: "Deleted." } },
      problems: [...TEMPLATE_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      await templates.deleteTemplate({ workspaceId, templateId: params.templateId });
      return noContent();
    },
  );
}
