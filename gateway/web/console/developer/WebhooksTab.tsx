import { useState } from "react";
import { Link, useLocation } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { Rows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import { Empty, Show, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { EndpointDetail } from "./EndpointDetail";
import { EndpointDialog } from "./EndpointDialog";

/** The endpoints, or one endpoint on a page of its own (`/developer/webhooks/<id>`, to link to). */
export function WebhooksTab({ endpointId }: { endpointId?: string }) {
  const workspace = useWorkspace();
  const [, navigate] = useLocation();
  const [loaded, reload] = useLoaded(keys.webhookEndpoints(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/webhook-endpoints", {
        params: { path: { workspaceId: workspace.id }, query: { pageSize: 100 } },
      }),
    ),
  );
  const invalidate = useInvalidate();
  const [creating, setCreating] = useState(false);
  const [createdSecret, setCreatedSecret] = useState<{ id: string; secret: string }>();

  if (endpointId) {
    return (
      <div className="stack">
        <p className="crumb">
          <Link href="/developer/webhooks">All webhook endpoints</Link>
        </p>
        {createdSecret?.id === endpointId ? <CreatedSecret secret={createdSecret.secret} /> : null}
        <Show loaded={loaded} what="the webhook endpoint" onRetry={reload}>
          {({ items }) => {
            const endpoint = items.find((e) => e.id === endpointId);
            return endpoint ? (
              <EndpointDetail
                key={endpoint.id}
                endpoint={endpoint}
                onChanged={() => invalidate(keys.webhookEndpoints(workspace.id))}
                onDeleted={() => {
                  invalidate(keys.webhookEndpoints(workspace.id));
                  navigate("/developer/webhooks");
                }}
              />
            ) : (
              <div className="note info" role="alert">
                <p>There is no webhook endpoint at this address: it may have been deleted.</p>
              </div>
            );
          }}
        </Show>
      </div>
    );
  }
  return (
    <div className="stack">
      <div className="card">
        <CardHead
          title="Webhook endpoints"
          description="Countersign posts each event you subscribe to, signed per Standard Webhooks, and retries for about a day when your endpoint fails."
          action={{ label: "Add endpoint", onClick: () => setCreating(true) }}
        />
        <Rows
          loaded={loaded}
          what="webhook endpoints"
          onRetry={reload}
          testId="webhook-endpoints"
          empty={
            <Empty title="No endpoints yet">
              Add an HTTPS URL of yours to receive events as they happen.
            </Empty>
          }
        >
          {(endpoint) => (
            <li key={endpoint.id} className="row">
              <div className="row-main">
                <p className="row-title mono">{endpoint.url}</p>
                <p className="muted small">
                  {endpoint.description ? `${endpoint.description} · ` : ""}
                  {endpoint.eventTypes.length} of 7 events
                  {endpoint.format === "docusign_connect" ? " · DocuSign Connect" : ""}
                  {endpoint.disabled ? (
                    <span className="badge danger">Disabled</span>
                  ) : (
                    <span className="badge success">Enabled</span>
                  )}
                </p>
              </div>
              <Link
                href={`/developer/webhooks/${endpoint.id}`}
                className="button secondary small"
                aria-label={`Manage ${endpoint.url}`}
              >
                Manage
              </Link>
            </li>
          )}
        </Rows>
      </div>
      {creating ? (
        <EndpointDialog
          onClose={() => setCreating(false)}
          onSaved={(endpoint, secret) => {
            setCreating(false);
            if (secret) setCreatedSecret({ id: endpoint.id, secret });
            navigate(`/developer/webhooks/${endpoint.id}`);
            invalidate(keys.webhookEndpoints(workspace.id));
          }}
        />
      ) : null}
    </div>
  );
}

function CreatedSecret({ secret }: { secret: string }) {
  return (
    <div className="note warning" role="status" data-testid="created-endpoint-secret">
      <p>
        <strong>Endpoint added.</strong> Its signing secret, to verify deliveries (you can reveal it again
        later):
      </p>
      <code className="break">{secret}</code>
    </div>
  );
}
