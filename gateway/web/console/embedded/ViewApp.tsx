/**
 * The console as an embedded view: one flow — sending, or editing one template — for one
 * workspace, inside an integrator's app. Its pages are the console's own; its routes live in
 * memory (the view's URL opens once, so there is no address to go back to), and what the flow
 * does is told to the framing page, or, in a page of its own, ends at the app's return URL.
 */

import type { ViewMeta } from "@countersign/domain/web";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Route, Router, Switch } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { ok } from "../../shared/api-client";
import { api, SESSION_ENDED } from "../api";
import { newQueryClient } from "../queries";
import { NewRequestPage } from "../requests/NewRequestPage";
import { BusyButton, ErrorNote, Show, useAction, useLoaded } from "../ui";
import { useWorkspace, WorkspaceContext } from "../workspace";
import { returnToApp, tellHost } from "./view";

const TemplateEditorPage = lazy(() =>
  import("../templates/TemplateEditorPage").then((module) => ({ default: module.TemplateEditorPage })),
);
const SendDocumentsPage = lazy(() =>
  import("../requests/SendDocumentsPage").then((module) => ({ default: module.SendDocumentsPage })),
);

/**
 * Where each flow starts: the draft or template it is bound to, the template it sends from, or a
 * new request from documents.
 */
function startOf(view: ViewMeta): { path: string; searchPath?: string } {
  if (view.kind === "template_edit") return { path: `/templates/${view.resourceId}` };
  if (view.resourceId) return { path: `/requests/${view.resourceId}` };
  if (view.templateId) return { path: "/requests/new", searchPath: `templateId=${view.templateId}` };
  return { path: "/requests/send" };
}

export function ViewApp({ view }: { view: ViewMeta }) {
  const [queryClient] = useState(newQueryClient);
  const [location] = useState(() => memoryLocation(startOf(view)));
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    tellHost({ type: "ready" });
    const end = () => {
      setEnded(true);
      tellHost({ type: "session_expired", reason: "view_ended" });
    };
    window.addEventListener(SESSION_ENDED, end);
    return () => window.removeEventListener(SESSION_ENDED, end);
  }, []);
  const workspace = { id: view.workspaceId, name: "", role: "member" as const, apiAccessEnabled: true };
  return (
    <QueryClientProvider client={queryClient}>
      <WorkspaceContext.Provider value={workspace}>
        <main className="content embedded-view">
          {ended ? (
            <p className="note info" role="status">
              This view has ended: it lasts an hour from opening. Open it again from the app that showed it.
            </p>
          ) : (
            <Router hook={location.hook} searchHook={location.searchHook}>
              <Suspense fallback={<p role="status">Loading…</p>}>
                <Switch>
                  <Route path="/requests/send" component={SendDocumentsPage} />
                  <Route path="/requests/new" component={NewRequestPage} />
                  <Route path="/requests/:requestId">
                    {(p) => (
                      <RequestOutcome requestId={p.requestId} bound={view.resourceId === p.requestId} />
                    )}
                  </Route>
                  <Route path="/templates/:templateId">
                    {(p) =>
                      view.kind === "template_edit" && p.templateId === view.resourceId ? (
                        <TemplateEditorPage templateId={p.templateId} onSaved={saved} />
                      ) : (
                        <Outside />
                      )
                    }
                  </Route>
                  <Route component={Outside} />
                </Switch>
              </Suspense>
            </Router>
          )}
        </main>
      </WorkspaceContext.Provider>
    </QueryClientProvider>
  );
}

function saved(templateId: string): void {
  tellHost({ type: "saved", templateId });
  returnToApp("saved", { templateId });
}

/** A page of the console the view does not include (a link of a page leads there). */
function Outside() {
  return (
    <p className="note info" role="status">
      This part of Countersign is not in this view.
    </p>
  );
}

/**
 * A request the flow reached: the draft it is bound to, to review and send; or the request just
 * made, whose outcome is told to the app once.
 */
function RequestOutcome({ requestId, bound }: { requestId: string; bound: boolean }) {
  const workspace = useWorkspace();
  const path = { workspaceId: workspace.id, requestId };
  const [request, reload] = useLoaded(["embedded-request", requestId], () =>
    ok(api.GET("/workspaces/{workspaceId}/signature-requests/{requestId}", { params: { path } })),
  );
  const { busy, error, run } = useAction();
  const told = useRef(false);
  const status = request.state === "ready" ? request.value.status : undefined;
  const reviewing = bound && status === "draft";
  useEffect(() => {
    if (!status || reviewing || told.current) return;
    told.current = true;
    tellHost({ type: "sent", requestId, status });
    returnToApp("sent", { requestId });
  }, [status, reviewing, requestId]);
  return (
    <Show loaded={request} what="the request" onRetry={reload}>
      {(r) => (
        <section className="card narrow" aria-labelledby="outcome-title">
          <h1 id="outcome-title">{r.title}</h1>
          {reviewing ? (
            <>
              <p>Review who signs, then send it.</p>
              <ul>
                {r.recipients.map((recipient) => (
                  <li key={recipient.id}>
                    {recipient.name} · {recipient.email}
                    {recipient.role ? ` · ${recipient.role}` : ""}
                  </li>
                ))}
              </ul>
              {error ? <ErrorNote error={error} /> : null}
              <div className="dialog-actions">
                <BusyButton
                  busy={busy === "send"}
                  onClick={() =>
                    void run("send", async () => {
                      await ok(
                        api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/send", {
                          params: { path },
                        }),
                      );
                      reload();
                    })
                  }
                >
                  Send for signature
                </BusyButton>
              </div>
            </>
          ) : (
            <p className="note success" role="status">
              {r.status === "draft" ? "Kept as a draft." : "Sent for signature."}
            </p>
          )}
        </section>
      )}
    </Show>
  );
}
