import { Fragment, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { DataTable } from "../DataTable";
import { prettyJson } from "../pretty-json";
import { keys } from "../queries";
import type { RecentError } from "../types";
import { CopyButton, Empty, Show, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { BreakablePath } from "./BreakablePath";

export function RecentErrorsTab() {
  const workspace = useWorkspace();
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpened((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const [loaded, reload] = useLoaded(keys.recentErrors(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/recent-errors", {
        params: { path: { workspaceId: workspace.id }, query: { limit: 100 } },
      }),
    ),
  );
  return (
    <div className="card">
      <CardHead
        title="Recent Errors"
        description="The API calls of this workspace that answered 4xx or 5xx, attempts to seal a signed request that failed, and e-mails to recipients that the mail server did not take, newest first."
        action={{ label: "Refresh", onClick: reload, quiet: true }}
      />
      <Show loaded={loaded} what="recent errors" onRetry={reload}>
        {({ items }) =>
          items.length === 0 ? (
            <Empty title="No errors recently">Calls that fail will show here with their request ID.</Empty>
          ) : (
            <DataTable
              label="Recent errors"
              testId="recent-errors"
              columns={["Time", "Method", "Path", "Status", "Request ID"]}
            >
              {items.map((e) => {
                const id = e.requestId + e.timestamp;
                const open = opened.has(id);
                return (
                  <Fragment key={id}>
                    <tr>
                      <td data-label="Time">
                        <button
                          type="button"
                          className="link-button"
                          aria-expanded={open}
                          aria-controls={`error-${e.requestId}`}
                          onClick={() => toggle(id)}
                        >
                          <span aria-hidden="true">{open ? "▾" : "▸"}</span> <When at={e.timestamp} />
                        </button>
                      </td>
                      <td data-label="Method">
                        {e.source !== "api" ? (
                          <span className="badge neutral">
                            {e.source === "sealing" ? "Sealing" : "E-mail"}
                          </span>
                        ) : (
                          <code>{e.method}</code>
                        )}
                      </td>
                      <td className="path" data-label="Path">
                        <code>
                          <BreakablePath path={e.path} />
                        </code>
                        {e.detail && <p className="small error-detail">{e.detail}</p>}
                      </td>
                      <td data-label="Status">
                        <span className={`status-code s${Math.floor(e.status / 100)}xx`}>{e.status}</span>{" "}
                        <span className="muted small">{e.code}</span>
                      </td>
                      <td data-label="Request ID">
                        <code className="small">{e.requestId}</code>
                      </td>
                    </tr>
                    {open ? (
                      <tr className="error-details-row">
                        <td colSpan={5} id={`error-${e.requestId}`}>
                          <ErrorDetails error={e} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </DataTable>
          )
        }
      </Show>
    </div>
  );
}

/** What the caller got, read as a problem: its title and detail, and each field error by its path. */
function readProblem(
  body: string,
):
  | { title?: string; detail?: string; message?: string; errors: { path: string; message: string }[] }
  | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const errors = Array.isArray(parsed.errors)
      ? parsed.errors.filter(
          (e): e is { path: string; message: string } =>
            typeof e?.path === "string" && typeof e?.message === "string",
        )
      : [];
    const text = (key: string) => (typeof parsed[key] === "string" ? (parsed[key] as string) : undefined);
    return { title: text("title"), detail: text("detail"), message: text("message"), errors };
  } catch {
    return undefined;
  }
}

function ErrorDetails({ error }: { error: RecentError }) {
  const problem = error.problem ? readProblem(error.problem) : undefined;
  return (
    <div className="error-details" data-testid="error-details">
      <dl className="facts">
        <dt>Time</dt>
        <dd>
          <When at={error.timestamp} /> <span className="muted small">({error.timestamp})</span>
        </dd>
        {error.source === "api" ? (
          <>
            <dt>Call</dt>
            <dd>
              <code>
                {error.method} {error.path}
              </code>
            </dd>
            <dt>Key</dt>
            <dd>{error.keyName || <span className="muted">unknown</span>}</dd>
          </>
        ) : (
          <>
            <dt>Request</dt>
            <dd>
              <code>{error.path}</code>
            </dd>
          </>
        )}
        <dt>Answer</dt>
        <dd>
          {error.status} <code>{error.code}</code>
          {problem?.title ? ` — ${problem.title}` : null}
        </dd>
        <dt>Request ID</dt>
        <dd className="copy-line">
          <code>{error.requestId}</code>
          <CopyButton text={error.requestId} label="Copy request ID" />
        </dd>
      </dl>
      {error.detail || problem?.detail || problem?.message ? (
        <p className="error-detail">{error.detail || problem?.detail || problem?.message}</p>
      ) : null}
      {problem && problem.errors.length > 0 ? (
        <ul className="field-errors" data-testid="error-fields">
          {problem.errors.map((e) => (
            <li key={e.path + e.message}>
              <code>{e.path || "(the body)"}</code>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {error.problem ? (
        <>
          <div className="code-head">
            <span className="stacked-label">What the caller got</span>
            <CopyButton text={error.problem} label="Copy body" />
          </div>
          <pre className="code">{prettyJson(error.problem)}</pre>
        </>
      ) : null}
    </div>
  );
}
