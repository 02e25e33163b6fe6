/** Translates TemplatesService RPCs into calls on Templates. */
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { Templates } from "./templates.js";

export function templatesRoutes(templates: Templates) {
  const impl: ServiceImpl<typeof TemplatesService> = {
    createTemplate: async (req) => ({ template: await templates.create(req.template) }),
    getTemplate: async (req) => ({ template: await templates.get(req.workspaceId, req.templateId) }),
    listTemplates: (req) => templates.list(req.workspaceId, req.pageIndex, req.pageSize),
    updateTemplate: async (req) => ({ template: await templates.update(req.template, req.updateMask) }),
    deleteTemplate: async (req) => ({ version: await templates.delete(req.workspaceId, req.templateId) }),
  };
  return (router: ConnectRouter) => router.service(TemplatesService, impl);
}
