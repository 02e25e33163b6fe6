/** Settings → Members, Workspace, Requests, Branding and Single sign-on: running the workspace, for Organization Admins. */
import { Link } from "wouter";
import { useWorkspace } from "../workspace";
import { BrandingTab } from "./BrandingTab";
import { MembersTab } from "./MembersTab";
import { RequestsTab } from "./RequestsTab";
import { SingleSignOnTab } from "./SingleSignOnTab";
import { WorkspaceTab } from "./WorkspaceTab";

const TABS = [
  { id: "members", label: "Members", Panel: MembersTab },
  { id: "workspace", label: "Workspace", Panel: WorkspaceTab },
  { id: "requests", label: "Requests", Panel: RequestsTab },
  { id: "branding", label: "Branding", Panel: BrandingTab },
  { id: "single-sign-on", label: "Single sign-on", Panel: SingleSignOnTab },
] as const;

export function SettingsPage({ tab }: { tab?: string }) {
  const workspace = useWorkspace();
  const current = tab === undefined ? TABS[0] : TABS.find((t) => t.id === tab);
  return (
    <section aria-labelledby="settings-title">
      <p className="crumb">Settings</p>
      <h1 id="settings-title">Team and workspace</h1>
      {workspace.role !== "org_admin" ? (
        <div className="note info" data-testid="settings-blocked">
          <p>
            The workspace's members and settings are run by its Organization Admins. Ask one of them to invite
            someone or change a role.
          </p>
        </div>
      ) : (
        <>
          <nav className="tabs" aria-label="Workspace settings">
            {TABS.map((t) => (
              <Link
                key={t.id}
                href={`/settings/${t.id}`}
                className="tab"
                aria-current={t.id === current?.id ? "page" : undefined}
              >
                {t.label}
              </Link>
            ))}
          </nav>
          {current ? (
            <current.Panel />
          ) : (
            <div className="note info" role="alert">
              <p>There is no settings page at this address. Choose one of the tabs above.</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
