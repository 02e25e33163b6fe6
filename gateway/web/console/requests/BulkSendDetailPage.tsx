/**
 * One bulk send as it runs: how many of its rows are sent, failed or waiting, followed every few
 * seconds until it ends; its rows with the request each made or why it failed, by line; and
 * Cancel, which stops the rows not yet sent.
 */
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { DataTable } from "../DataTable";
import { keys, useInvalidate } from "../queries";
import type { BulkSend, BulkSendRow } from "../types";
import { Confirm, Empty, Pager, SelectField, Show, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";

const FOLLOW_MS = 2000;

const BATCH_LABELS: Record<BulkSend["status"], [label: string, tone: string]> = {
  running: ["Sending", "info"],
  completed: ["Completed", "success"],
  cancelled: ["Cancelled", "neutral"],
};

const ROW_LABELS: Record<BulkSendRow["status"], [label: string, tone: string]> = {
  pending: ["Waiting", "neutral"],
  sent: ["Sent", "success"],
  failed: ["Failed", "danger"],
  cancelled: ["Cancelled", "neutral"],
};

export function BulkStatusBadge({ status }: { status: BulkSend["status"] }) {
  const [label, tone] = BATCH_LABELS[status];
  return <span className={`badge ${tone}`}>{label}</span>;
}

function RowBadge({ status }: { status: BulkSendRow["status"] }) {
  const [label, tone] = ROW_LABELS[status];
  return <span className={`badge ${tone}`}>{label}</span>;
}

export function BulkSendDetailPage({ bulkSendId }: { bulkSendId: string }) {
  const workspace = useWorkspace();
  const params = { path: { workspaceId: workspace.id, bulkSendId } };
  const [status, setStatus] = useState<BulkSendRow["status"] | "">("");
  const [pageIndex, setPageIndex] = useState(0);
  const [cancelling, setCancelling] = useState(false);
  // While it runs, the page follows it, its rows too (not while the tab is hidden).
  const [loaded, reload] = useLoaded(
    keys.bulkSend(workspace.id, bulkSendId),
    () => ok(api.GET("/workspaces/{workspaceId}/bulk-sends/{bulkSendId}", { params })),
    { refetchInterval: (batch) => (batch?.status === "running" ? FOLLOW_MS : false) },
  );
  const running = loaded.state === "ready" && loaded.value.status === "running";
  const [rows, reloadRows] = useLoaded(
    keys.bulkSendRows(workspace.id, bulkSendId, { pageIndex, status }),
    () =>
      ok(
        api.GET("/workspaces/{workspaceId}/bulk-sends/{bulkSendId}/rows", {
          params: {
            ...params,
            query: {
              pageIndex,
              pageSize: 50,
              ...(status ? { status } : {}),
            },
          },
        }),
      ),
    { refetchInterval: running ? FOLLOW_MS : false },
  );
  // The rows' last poll may have come before the batch's last row was sent: once the batch ends they
  // are read once more, or a finished batch would show a row still waiting.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) reloadRows();
    wasRunning.current = running;
  }, [running, reloadRows]);
  const invalidate = useInvalidate();

  return (
    <section aria-labelledby="bulk-send-title">
      <p className="crumb">
        <Link href="/requests/bulk">Bulk send</Link>
      </p>
      <Show loaded={loaded} what="the bulk send" onRetry={reload}>
        {(batch) => {
          const done = batch.sent + batch.failed + batch.cancelled;
          return (
            <div className="stack">
              <div className="page-head">
                <div>
                  <h1 id="bulk-send-title">{batch.title}</h1>
                  <p className="muted">
                    <BulkStatusBadge status={batch.status} /> Started <When at={batch.createdAt} />
                    {batch.createdBy ? ` by ${batch.createdBy}` : ""}
                    {batch.endedAt ? (
                      <>
                        {" "}
                        · ended <When at={batch.endedAt} />
                      </>
                    ) : null}
                  </p>
                </div>
                {batch.status === "running" ? (
                  <div className="button-row">
                    <button type="button" className="button danger" onClick={() => setCancelling(true)}>
                      Cancel the rest
                    </button>
                  </div>
                ) : null}
              </div>
              <div className="card">
                <label className="stacked-label" htmlFor="bulk-progress">
                  {batch.status === "running"
                    ? `Sending: ${done} of ${batch.total} done`
                    : `${done} of ${batch.total} done`}
                </label>
                <progress id="bulk-progress" className="bulk-progress" max={batch.total} value={done} />
                <dl className="bulk-counts" data-testid="bulk-counts">
                  <div>
                    <dt>Sent</dt>
                    <dd>{batch.sent}</dd>
                  </div>
                  <div>
                    <dt>Failed</dt>
                    <dd>{batch.failed}</dd>
                  </div>
                  <div>
                    <dt>Waiting</dt>
                    <dd>{batch.pending}</dd>
                  </div>
                  <div>
                    <dt>Cancelled</dt>
                    <dd>{batch.cancelled}</dd>
                  </div>
                </dl>
              </div>
            </div>
          );
        }}
      </Show>
      <section aria-labelledby="bulk-rows-title" className="stack">
        <div className="page-head">
          <h2 id="bulk-rows-title">Rows</h2>
          <SelectField
            label="Show"
            small
            value={status}
            any="All rows"
            options={(Object.keys(ROW_LABELS) as BulkSendRow["status"][]).map((s) => ({
              value: s,
              label: ROW_LABELS[s][0],
            }))}
            onChange={(value) => {
              setStatus(value);
              setPageIndex(0);
            }}
          />
        </div>
        <div className="card flush">
          <Show loaded={rows} what="the rows" onRetry={reloadRows}>
            {(page) =>
              page.items.length === 0 ? (
                <Empty title="No rows">No row is in this state.</Empty>
              ) : (
                <>
                  <DataTable
                    label="Rows of the bulk send"
                    testId="bulk-rows"
                    columns={["Line", "Recipients", "Status", "Request or problem"]}
                  >
                    {page.items.map((row) => (
                      <tr key={row.line}>
                        <td data-label="Line">{row.line}</td>
                        <td data-label="Recipients">{row.recipients.join(", ")}</td>
                        <td data-label="Status">
                          <RowBadge status={row.status} />
                        </td>
                        <td data-label="Request or problem">
                          {row.signatureRequestId ? (
                            <Link href={`/requests/${row.signatureRequestId}`} className="link">
                              Open the request
                            </Link>
                          ) : (
                            (row.error ?? "")
                          )}
                        </td>
                      </tr>
                    ))}
                  </DataTable>
                  <Pager page={page} onPage={setPageIndex} />
                </>
              )
            }
          </Show>
        </div>
      </section>
      {cancelling ? (
        <Confirm
          title="Cancel the rest of this bulk send?"
          description="The rows not yet sent are not sent. Requests already sent stay sent: cancel them one by one if you need to."
          confirmLabel="Cancel the rest"
          danger
          onConfirm={async () => {
            await api.POST("/workspaces/{workspaceId}/bulk-sends/{bulkSendId}/cancel", { params });
            invalidate(keys.bulkSends(workspace.id));
          }}
          onClose={() => setCancelling(false)}
        />
      ) : null}
    </section>
  );
}
