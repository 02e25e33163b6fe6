/** /restapi's templates: list them (with DocuSign's search_text) and read one with its roles. */
import type { Template } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { z } from "zod";
import type { ErrorNames } from "./docusign-errors.js";
import { dsTime, present } from "./ds-values.js";
import { NO_OTHER_RECIPIENTS } from "./envelope-json.js";
import { MAX_COUNT, Paging, pageWithin, readAll, resultSet, slice } from "./listing.js";
import { type On, type RestApiServices, read } from "./route.js";

const TEMPLATE: ErrorNames = { notFound: "TEMPLATE_ID_INVALID" };

function templateSummary(template: Template) {
  return present({
    templateId: template.id,
    name: template.name,
    description: template.description,
    emailSubject: template.name,
    created: dsTime(template.createTime),
    lastModified: dsTime(template.updateTime),
    uri: `/templates/${template.id}`,
    shared: "false",
  });
}

export function templateRoutes(
  on: On,
  { templates, documents }: Pick<RestApiServices, "templates" | "documents">,
): void {
  on("get", "/templates", "templates:read", TEMPLATE, async (req, res, caller) => {
    const query = read(Paging.extend({ search_text: z.string().max(200).optional() }), req.query, "query");
    const start = query.start_position ?? 0;
    const count = query.count ?? MAX_COUNT;
    const search = query.search_text?.trim().toLowerCase();
    const pageOf = async (pageIndex: number) => {
      const listed = await templates.listTemplates({
        workspaceId: caller.workspaceId,
        pageIndex,
        pageSize: MAX_COUNT,
      });
      return { items: listed.templates, totalCount: listed.totalCount };
    };
    const found = search
      ? pageWithin(
          (await readAll(pageOf)).filter((t) => `${t.name}\n${t.description}`.toLowerCase().includes(search)),
          start,
          count,
        )
      : await slice(start, count, pageOf);
    res.json({
      ...resultSet(start, found.items.length, found.totalCount),
      envelopeTemplates: found.items.map(templateSummary),
    });
  });

  on("get", "/templates/:templateId", "templates:read", TEMPLATE, async (req, res, caller) => {
    const { template } = await templates.getTemplate({
      workspaceId: caller.workspaceId,
      templateId: String(req.params.templateId),
    });
    if (!template) throw new Error("the templates service answered without a template");
    const { document } = await documents.getDocument({
      workspaceId: caller.workspaceId,
      documentId: template.documentId,
    });
    res.json({
      ...templateSummary(template),
      documents: [
        present({
          documentId: "1",
          name: document?.filename,
          order: "1",
          pages: String(document?.pageCount ?? 0),
          uri: `/templates/${template.id}/documents/1`,
        }),
      ],
      recipients: {
        signers: template.roles.map((role, i) => ({
          roleName: role.name,
          recipientId: String(i + 1),
          routingOrder: String(role.order),
          recipientType: "signer",
        })),
        ...NO_OTHER_RECIPIENTS,
        recipientCount: String(template.roles.length),
      },
    });
  });
}
