import { call, inWorkspace } from "../api";
import type { RecentError } from "../types";
import { Empty, Show, useLoad, When } from "../ui";
import { useWorkspace } from "../workspace";

export function RecentErrorsTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoad(
    () => call<{ items: RecentError[] }>(inWorkspace(workspace.id, "/recent-errors?limit=100")),
    [workspace.id],
  );
  return (
    <div className="card">
      <div className="card-head">
        <div>
          <h2>Recent Errors</h2>
          <p className="muted">
            The API calls of this workspace that answered 4xx or 5xx, attempts to seal a signed request that
            failed, and e-mails to recipients that the mail server did not take, newest first.
          </p>
        </div>
        <button type="button" className="button secondary small" onClick={reload}>
          Refresh
        </button>
      </div>
      <Show loaded={loaded} what="recent errors" onRetry={reload}>
        {({ items }) =>
          items.length === 0 ? (
            <Empty title="No errors recently">Calls that fail will show here with their request ID.</Empty>
          ) : (
            <div className="table-wrap">
              <table data-testid="recent-errors">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Method</th>
                    <th scope="col">Path</th>
                    <th scope="col">Status</th>
                    <th scope="col">Request ID</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((e) => (
                    <tr key={e.requestId + e.timestamp}>
                      <td>
                        <When at={e.timestamp} />
                      </td>
                      <td>
                        {e.source !== "api" ? (
                          <span className="badge neutral">
                            {e.source === "sealing" ? "Sealing" : "E-mail"}
                          </span>
                        ) : (
                          <code>{e.method}</code>
                        )}
                      </td>
                      <td className="path">
                        <code>{e.path}</code>
                        {e.detail && <p className="small error-detail">{e.detail}</p>}
                      </td>
                      <td>
                        <span className={`status-code s${Math.floor(e.status / 100)}xx`}>{e.status}</span>{" "}
                        <span className="muted small">{e.code}</span>
                      </td>
                      <td>
                        <code className="small">{e.requestId}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </div>
  );
}
