/** The frame around every page of a workspace: header with the workspace switcher, navigation, content. */
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, Redirect, Route, Switch, useLocation } from "wouter";
import { type ApiError, asApiError } from "./api";
import { showsTestData, showTestData } from "./data-mode";
import { DeveloperPage } from "./developer/DeveloperPage";
import { BulkSendDetailPage } from "./requests/BulkSendDetailPage";
import { BulkSendPage } from "./requests/BulkSendPage";
import { NewRequestPage } from "./requests/NewRequestPage";
import { RequestDetailPage } from "./requests/RequestDetailPage";
import { RequestsPage } from "./requests/RequestsPage";
import { useSession } from "./session";
import { SettingsPage } from "./settings/SettingsPage";
import { TemplatesPage } from "./templates/TemplatesPage";
import type { Session } from "./types";
import { ErrorNote } from "./ui";
import { CONSOLE_BASE, developerBlockedBecause, WorkspaceContext, workspacePath } from "./workspace";

// pdf.js is most of the editors' weight: it loads when one opens, not with the console.
const TemplateEditorPage = lazy(() =>
  import("./templates/TemplateEditorPage").then((module) => ({ default: module.TemplateEditorPage })),
);
const SendDocumentsPage = lazy(() =>
  import("./requests/SendDocumentsPage").then((module) => ({ default: module.SendDocumentsPage })),
);

const SECTIONS = [
  { path: "/requests", label: "Signature requests" },
  { path: "/templates", label: "Templates" },
  { path: "/developer", label: "Developer" },
  { path: "/settings", label: "Team" },
] as const;

export function Shell({ session, workspaceId }: { session: Session; workspaceId: string }) {
  const [location, navigate] = useLocation();
  const { logOut } = useSession();
  const [logOutError, setLogOutError] = useState<ApiError>();
  const workspace = session.workspaces.find((w) => w.id === workspaceId);
  const current = SECTIONS.find((s) => location.startsWith(s.path)) ?? SECTIONS[0];
  const section = current.path;
  const content = useRef<HTMLElement>(null);
  const first = useRef(true);
  const [testData, setTestData] = useState(showsTestData);

  // A new page is announced as a new page: its title, and focus at the top of its content.
  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of address is a new page, even within a section.
  useEffect(() => {
    document.title = `${current.label} · ${workspace?.name ?? ""} · Countersign`;
    if (first.current) first.current = false;
    else content.current?.focus();
  }, [location, current.label, workspace?.name]);

  if (!workspace) return <Redirect to={`~${CONSOLE_BASE}/`} replace />;
  const switchTo = (id: string) => navigate(workspacePath(id, section));
  const onLogOut = () => logOut().catch((err) => setLogOutError(asApiError(err)));

  return (
    <WorkspaceContext.Provider value={workspace}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/requests" className="brand">
          <span className="brand-mark" aria-hidden="true">
            C
          </span>
          <span className="brand-name">Countersign</span>
        </Link>
        <div className="workspace-switcher">
          <label htmlFor="workspace" className="visually-hidden">
            Workspace
          </label>
          {session.workspaces.length > 1 ? (
            <select id="workspace" value={workspace.id} onChange={(e) => switchTo(e.target.value)}>
              {session.workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name || "Unnamed workspace"}
                </option>
              ))}
            </select>
          ) : (
            <span id="workspace" className="workspace-name">
              {workspace.name}
            </span>
          )}
        </div>
        <div className="account">
          <TestDataSwitch on={testData} onChange={setTestData} />
          <span className="account-email" title={session.user.email}>
            {session.user.email}
          </span>
          <button type="button" className="button secondary small" onClick={onLogOut}>
            Log out
          </button>
        </div>
      </header>
      {testData ? (
        <p className="test-data-banner" role="status" data-testid="test-data-banner">
          Test data: what test keys (<code>sk_test_…</code>) make. Requests made here are test requests —
          e-mailed to the outbox only and sealed “TEST — NOT LEGALLY BINDING”.
        </p>
      ) : null}
      <nav className="sections" aria-label="Sections">
        {SECTIONS.map((s) => (
          <Link
            key={s.path}
            href={s.path}
            className="section-link"
            aria-current={section === s.path ? "page" : undefined}
          >
            {s.label}
            {s.path === "/developer" && developerBlockedBecause(workspace) ? (
              <span className="lock" title="Not available to you in this workspace">
                <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
                  <path
                    fill="currentColor"
                    d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 6V4.5a2 2 0 1 1 4 0V7H6Z"
                  />
                </svg>
                <span className="visually-hidden">(not available)</span>
              </span>
            ) : null}
          </Link>
        ))}
      </nav>
      <main id="content" ref={content} tabIndex={-1} className="content" key={workspace.id}>
        {logOutError ? <ErrorNote error={logOutError} /> : null}
        <Suspense
          fallback={
            <div className="state" role="status">
              <span className="spinner" aria-hidden="true" /> Loading the editor…
            </div>
          }
        >
          <Switch>
            <Route path="/requests" component={RequestsPage} />
            <Route path="/requests/new" component={NewRequestPage} />
            <Route path="/requests/send" component={SendDocumentsPage} />
            <Route path="/requests/bulk" component={BulkSendPage} />
            <Route path="/requests/bulk/:bulkSendId">
              {(p) => <BulkSendDetailPage bulkSendId={p.bulkSendId} />}
            </Route>
            <Route path="/requests/:requestId">{(p) => <RequestDetailPage requestId={p.requestId} />}</Route>
            <Route path="/templates" component={TemplatesPage} />
            <Route path="/templates/new">{() => <TemplateEditorPage />}</Route>
            <Route path="/templates/:templateId">
              {(p) => <TemplateEditorPage templateId={p.templateId} />}
            </Route>
            <Route path="/developer/webhooks/:endpointId">
              {(p) => <DeveloperPage tab="webhooks" endpointId={p.endpointId} />}
            </Route>
            <Route path="/developer/:tab?">{(p) => <DeveloperPage tab={p.tab} />}</Route>
            <Route path="/settings/:tab?">{(p) => <SettingsPage tab={p.tab} />}</Route>
            <Route>
              <Redirect to="/requests" replace />
            </Route>
          </Switch>
        </Suspense>
      </main>
    </WorkspaceContext.Provider>
  );
}

/** Live or test data: switching reads every page again in the other mode. */
function TestDataSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const queryClient = useQueryClient();
  return (
    <label className="test-data-switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        data-testid="test-data-switch"
        onChange={(e) => {
          showTestData(e.target.checked);
          onChange(e.target.checked);
          void queryClient.resetQueries();
        }}
      />
      <span>Test data</span>
    </label>
  );
}
