/** Templates over HTTP: create, list, get, update (PATCH: the properties present are replaced) and delete. */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema, timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import {
  type Template,
  TemplateSchema,
  type TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { pageBody, pageOf } from "../pagination.js";
import { ApiProblem } from "../problems.js";
import type { PublicApi } from "../public-api.js";
import { readTemplateBody } from "./template-body.js";

export function templateJson(template: Template | undefined) {
  if (!template) throw new Error("the templates service answered without a template");
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    documentId: template.documentId,
    roles: template.roles.map(({ name, order }) => ({ name, order })),
    fields: template.fields.map(({ id, type, role, page, x, y, width, height, required, label }) => ({
      id,
      type,
      role,
      page,
      x,
      y,
      width,
      height,
      required,
      label,
    })),
    createdAt: template.createTime ? timestampDate(template.createTime).toISOString() : undefined,
    updatedAt: template.updateTime ? timestampDate(template.updateTime).toISOString() : undefined,
  };
}

/** JSON property → the message field an update mask names. */
const MASK_PATHS: Record<string, string> = {
  name: "name",
  description: "description",
  documentId: "document_id",
  roles: "roles",
  fields: "fields",
};

export function templateRoutes(api: PublicApi, templates: Client<typeof TemplatesService>): void {
  api.route("post", "/templates", async (req, res, workspaceId) => {
    const body = readTemplateBody(req.body);
    const { template } = await templates.createTemplate({
      template: create(TemplateSchema, {
        workspaceId,
        name: body.name ?? "",
        description: body.description ?? "",
        documentId: body.documentId ?? "",
        roles: body.roles ?? [],
        fields: body.fields ?? [],
      }),
    });
    res.status(201).json(templateJson(template));
  });

  api.route("get", "/templates", async (req, res, workspaceId) => {
    const page = pageOf(req);
    const listed = await templates.listTemplates({ workspaceId, ...page });
    res.json(pageBody(listed.templates.map(templateJson), page, listed.totalCount));
  });

  api.route("get", "/templates/:templateId", async (req, res, workspaceId) => {
    const { template } = await templates.getTemplate({
      workspaceId,
      templateId: req.params.templateId as string,
    });
    res.json(templateJson(template));
  });

  api.route("patch", "/templates/:templateId", async (req, res, workspaceId) => {
    const body = readTemplateBody(req.body);
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
        id: req.params.templateId as string,
        name: body.name,
        description: body.description,
        documentId: body.documentId,
        roles: body.roles,
        fields: body.fields,
      }),
      updateMask: create(FieldMaskSchema, { paths }),
    });
    res.json(templateJson(template));
  });

  api.route("delete", "/templates/:templateId", async (req, res, workspaceId) => {
    await templates.deleteTemplate({ workspaceId, templateId: req.params.templateId as string });
    res.status(204).end();
  });
}
