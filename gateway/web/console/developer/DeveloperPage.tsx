/** Settings → Developer: only for Organization Admins of a workspace with API access. */
import { Link } from "wouter";
import { developerBlockedBecause, useWorkspace } from "../workspace";
import { ApiKeysTab } from "./ApiKeysTab";
import { ApiUsageTab } from "./ApiUsageTab";
import { ConfigurationTab } from "./ConfigurationTab";
import { RecentErrorsTab } from "./RecentErrorsTab";
import { WebhooksTab } from "./WebhooksTab";

const TABS = [
  { id: "api-keys", label: "API keys", Panel: ApiKeysTab },
  { id: "webhooks", label: "Webhooks", Panel: WebhooksTab },
  { id: "configuration", label: "Configuration", Panel: ConfigurationTab },
  { id: "errors", label: "Recent Errors", Panel: RecentErrorsTab },
  { id: "usage", label: "API Usage", Panel: ApiUsageTab },
] as const;

export function DeveloperPage({ tab }: { tab?: string }) {
  const workspace = useWorkspace();
  const blocked = developerBlockedBecause(workspace);
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
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
                aria-current={t.id === current.id ? "page" : undefined}
              >
                {t.label}
              </Link>
            ))}
          </nav>
          <current.Panel />
        </>
      )}
    </section>
  );
}
