import { useState } from "react";
import { Link } from "wouter";
import { call, inWorkspace } from "../api";
import type { Page, SignatureRequest } from "../types";
import { Empty, Pager, SelectField, Show, useLoad, When } from "../ui";
import { useWorkspace } from "../workspace";
import { REQUEST_STATUSES, StatusBadge, statusLabel } from "./status";

export function RequestsPage() {
  const workspace = useWorkspace();
  const [status, setStatus] = useState("");
  const [pageIndex, setPageIndex] = useState(0);
  const query = new URLSearchParams({ pageIndex: String(pageIndex), pageSize: "20" });
  if (status) query.set("status", status);
  const [loaded, reload] = useLoad(
    () => call<Page<SignatureRequest>>(inWorkspace(workspace.id, `/signature-requests?${query}`)),
    [workspace.id, query.toString()],
  );
  return (
    <section aria-labelledby="requests-title">
      <div className="page-head">
        <h1 id="requests-title">Signature requests</h1>
        <Link href="/requests/new" className="button primary">
          New request
        </Link>
      </div>
      <div className="filters">
        <SelectField
          label="Status"
          small
          value={status}
          any="All"
          options={REQUEST_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          onChange={(value) => {
            setStatus(value);
            setPageIndex(0);
          }}
        />
      </div>
      <div className="card flush">
        <Show loaded={loaded} what="signature requests" onRetry={reload}>
          {(page) =>
            page.items.length === 0 ? (
              <Empty title={status ? "No requests in this state" : "No signature requests yet"}>
                Requests made through the API or from a template show here.
              </Empty>
            ) : (
              <>
                <ul className="rows" data-testid="requests">
                  {page.items.map((r) => {
                    const signers = r.recipients.filter((x) => x.kind === "signer");
                    const signed = signers.filter((x) => x.status === "signed").length;
                    return (
                      <li key={r.id} className="row">
                        <div className="row-main">
                          <Link href={`/requests/${r.id}`} className="row-title link">
                            {r.title}
                          </Link>
                          <p className="muted small">
                            {signers.map((x) => x.name).join(", ") || "No signers yet"} · {signed} of{" "}
                            {signers.length} signed · created <When at={r.createdAt} />
                          </p>
                        </div>
                        {r.completionFailure && r.status === "in_progress" ? (
                          <span className="badge danger">Sealing failed</span>
                        ) : (
                          <StatusBadge status={r.status} />
                        )}
                      </li>
                    );
                  })}
                </ul>
                <Pager page={page} onPage={setPageIndex} />
              </>
            )
          }
        </Show>
      </div>
    </section>
  );
}
