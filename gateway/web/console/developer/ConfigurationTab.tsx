import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys } from "../queries";
import { useSession } from "../session";
import { CopyButton, Show, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { SealCertificateCard } from "./SealCertificateCard";
import { TestEmail } from "./TestEmail";

export function ConfigurationTab() {
  const workspace = useWorkspace();
  const { current } = useSession();
  const userEmail = current.state === "signed-in" ? current.session.user.email : "";
  const [loaded, reload] = useLoaded(keys.configuration(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/configuration", {
        params: { path: { workspaceId: workspace.id } },
      }),
    ),
  );
  return (
    <Show loaded={loaded} what="the configuration" onRetry={reload}>
      {(config) => (
        <div className="stack">
          <div className="card">
            <h2>Account ID</h2>
            <p className="muted">
              Every API call names it in the path, and the DocuSign-compatible API calls it the account.
            </p>
            <div className="copy-row">
              <code data-testid="account-id">{config.accountId}</code>
              <CopyButton text={config.accountId} label="Copy Account ID" />
            </div>
          </div>
          <div className="card">
            <h2>Base URLs</h2>
            <dl className="base-urls">
              {(
                [
                  ["Account-scoped API", config.baseUrls.accountScoped],
                  ["Resource-style API", config.baseUrls.resourceStyle],
                  ["DocuSign-compatible API", config.baseUrls.compatibility],
                  ["MCP tool endpoint", config.baseUrls.tools],
                ] as const
              ).map(([label, url]) => (
                <div key={label} className="copy-row">
                  <dt>{label}</dt>
                  <dd>
                    <code>{url}</code>
                    <CopyButton text={url} label={`Copy ${label} URL`} className="button link" />
                  </dd>
                </div>
              ))}
            </dl>
          </div>
          <SealCertificateCard />
          <TestEmail workspaceId={workspace.id} defaultTo={userEmail} />
        </div>
      )}
    </Show>
  );
}
