import { useState } from "react";
import { Link } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { DeleteButton } from "../DeleteButton";
import { PagedRows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import { Empty, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";

export function TemplatesPage() {
  const workspace = useWorkspace();
  const [pageIndex, setPageIndex] = useState(0);
  const invalidate = useInvalidate();
  const [loaded, reload] = useLoaded(keys.templateList(workspace.id, { pageIndex }), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/templates", {
        params: { path: { workspaceId: workspace.id }, query: { pageIndex, pageSize: 20 } },
      }),
    ),
  );
  return (
    <section aria-labelledby="templates-title">
      <div className="page-head">
        <h1 id="templates-title">Templates</h1>
        <Link href="/templates/new" className="button primary">
          New template
        </Link>
      </div>
      <div className="card flush">
        <PagedRows
          loaded={loaded}
          what="templates"
          onRetry={reload}
          onPage={setPageIndex}
          testId="templates"
          empty={
            <Empty title="No templates yet">
              A template is a PDF with its signer roles and signature fields, reused for every request.
            </Empty>
          }
        >
          {(t, page) => (
            <li key={t.id} className="row">
              <div className="row-main">
                <Link href={`/templates/${t.id}`} className="row-title link">
                  {t.name}
                </Link>
                <p className="muted small">
                  {t.roles.map((r) => r.name).join(", ")} · {t.fields.length} field
                  {t.fields.length === 1 ? "" : "s"} · updated <When at={t.updatedAt} />
                </p>
              </div>
              <div className="row-actions">
                <Link
                  href={`/requests/new?templateId=${t.id}`}
                  className="button primary small"
                  aria-label={`Use the template ${t.name}`}
                >
                  Use
                </Link>
                <DeleteButton
                  kind="template"
                  name={t.name}
                  description="Requests already made from it keep their documents and fields."
                  onDelete={async () => {
                    await api.DELETE("/workspaces/{workspaceId}/templates/{templateId}", {
                      params: { path: { workspaceId: workspace.id, templateId: t.id } },
                    });
                    // The last one of a later page: show the page before, not an empty one.
                    if (page.items.length === 1 && pageIndex > 0) setPageIndex(pageIndex - 1);
                    invalidate(keys.templates(workspace.id));
                  }}
                />
              </div>
            </li>
          )}
        </PagedRows>
      </div>
    </section>
  );
}
