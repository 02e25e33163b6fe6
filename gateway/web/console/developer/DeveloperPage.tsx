/** Settings → Developer: only for Organization Admins of a workspace with API access. */
import { Link } from "wouter";
import { developerBlockedBecause, useWorkspace } from "../workspace";
import { ApiKeysTab } from "./ApiKeysTab";
import { ApiUsageTab } from "./ApiUsageTab";
import { ConfigurationTab } from "./ConfigurationTab";
import { EmbeddingTab } from "./EmbeddingTab";
import { IntegrationsTab } from "./IntegrationsTab";
import { RecentErrorsTab } from "./RecentErrorsTab";
import { WebhooksTab } from "./WebhooksTab";

const TABS = [
  { id: "api-keys", label: "API keys", Panel: ApiKeysTab },
  { id: "webhooks", label: "Webhooks", Panel: WebhooksTab },
  { id: "integrations", label: "Integrations", Panel: IntegrationsTab },
  { id: "configuration", label: "Configuration", Panel: ConfigurationTab },
  { id: "embedding", label: "Embedding", Panel: EmbeddingTab },
  { id: "errors", label: "Recent Errors", Panel: RecentErrorsTab },
  { id: "usage", label: "API Usage", Panel: ApiUsageTab },
] as const;

export function DeveloperPage({ tab, endpointId }: { tab?: string; endpointId?: string }) {
  const workspace = useWorkspace();
  const blocked = developerBlockedBecause(workspace);
  // No tab in the address is the first; a tab that does not exist says so rather than show another.
  const current = tab === undefined ? TABS[0] : TABS.find((t) => t.id === tab);
  return (
    <section aria-labelledby="developer-title">
      <p className="crumb">Settings</p>
      <h1 id="developer-title">Developer</h1>
      {blocked ? (
        <div className="note info" data-testid="developer-blocked">
          <p>{blocked}</p>
        </div>
      ) : (
        <>
          <nav className="tabs" aria-label="Developer settings">
            {TABS.map((t) => (
              <Link
                key={t.id}
                href={`/developer/${t.id}`}
                className="tab"
                aria-current={t.id === current?.id ? "page" : undefined}
              >
                {t.label}
              </Link>
            ))}
          </nav>
          {current?.id === "webhooks" ? (
            <WebhooksTab endpointId={endpointId} />
          ) : current ? (
            <current.Panel />
          ) : (
            <div className="note info" role="alert" data-testid="developer-unknown-tab">
              <p>There is no Developer page at this address. Choose one of the tabs above.</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
