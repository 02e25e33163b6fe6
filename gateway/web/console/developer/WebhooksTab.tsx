import { useState } from "react";
import { call, inWorkspace } from "../api";
import type { Page, WebhookEndpoint } from "../types";
import { Empty, Show, useLoad } from "../ui";
import { useWorkspace } from "../workspace";
import { EndpointDetail } from "./EndpointDetail";
import { EndpointDialog } from "./EndpointDialog";

export function WebhooksTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoad(
    () => call<Page<WebhookEndpoint>>(inWorkspace(workspace.id, "/webhook-endpoints?pageSize=100")),
    [workspace.id],
  );
  const [creating, setCreating] = useState(false);
  const [createdSecret, setCreatedSecret] = useState<{ id: string; secret: string }>();
  const [openId, setOpenId] = useState<string>();

  return (
    <div className="stack">
      <div className="card">
        <div className="card-head">
          <div>
            <h2>Webhook endpoints</h2>
            <p className="muted">
              Countersign posts each event you subscribe to, signed per Standard Webhooks, and retries for
              about a day when your endpoint fails.
            </p>
          </div>
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            Add endpoint
          </button>
        </div>
        <Show loaded={loaded} what="webhook endpoints" onRetry={reload}>
          {({ items }) =>
            items.length === 0 ? (
              <Empty title="No endpoints yet">
                Add an HTTPS URL of yours to receive events as they happen.
              </Empty>
            ) : (
              <ul className="rows" data-testid="webhook-endpoints">
                {items.map((endpoint) => (
                  <li key={endpoint.id} className={`row${openId === endpoint.id ? " selected" : ""}`}>
                    <div className="row-main">
                      <p className="row-title mono">{endpoint.url}</p>
                      <p className="muted small">
                        {endpoint.description ? `${endpoint.description} · ` : ""}
                        {endpoint.eventTypes.length} of 7 events
                        {endpoint.disabled ? (
                          <span className="badge danger">Disabled</span>
                        ) : (
                          <span className="badge success">Enabled</span>
                        )}
                      </p>
                    </div>
                    <button
                      type="button"
                      className="button secondary small"
                      aria-expanded={openId === endpoint.id}
                      onClick={() => setOpenId(openId === endpoint.id ? undefined : endpoint.id)}
                    >
                      {openId === endpoint.id ? "Close" : "Manage"}
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
      </div>
      {createdSecret ? (
        <div className="note warning" role="status" data-testid="created-endpoint-secret">
          <p>
            <strong>Endpoint added.</strong> Its signing secret, to verify deliveries (you can reveal it again
            later):
          </p>
          <code className="break">{createdSecret.secret}</code>
        </div>
      ) : null}
      {openId && loaded.state === "ready" && loaded.value.items.some((e) => e.id === openId) ? (
        <EndpointDetail
          key={openId}
          endpoint={loaded.value.items.find((e) => e.id === openId) as WebhookEndpoint}
          onChanged={reload}
          onDeleted={() => {
            setOpenId(undefined);
            reload();
          }}
        />
      ) : null}
      {creating ? (
        <EndpointDialog
          onClose={() => setCreating(false)}
          onSaved={(endpoint, secret) => {
            setCreating(false);
            if (secret) setCreatedSecret({ id: endpoint.id, secret });
            setOpenId(endpoint.id);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}
