/** Settings → Workspace: its name, its API access, and the audit of who changed what. */

import { isolate } from "@countersign/domain/web";
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { DataTable } from "../DataTable";
import { keys, useInvalidate } from "../queries";
import { useSession } from "../session";
import { BusyButton, Confirm, Empty, ErrorNote, Show, TextField, useAction, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { auditSentence } from "./audit-words";

export function WorkspaceTab() {
  const workspace = useWorkspace();
  const { recheck } = useSession();
  const [name, setName] = useState(workspace.name);
  const [saved, setSaved] = useState(false);
  const [confirmingOff, setConfirmingOff] = useState(false);
  const rename = useAction();
  const access = useAction();
  const [audit, reloadAudit] = useLoaded(keys.workspaceAudit(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/audit", {
        params: { path: { workspaceId: workspace.id }, query: { limit: 100 } },
      }),
    ),
  );
  const invalidate = useInvalidate();
  const update = (body: { name?: string; apiAccessEnabled?: boolean }) =>
    api
      .PATCH("/workspaces/{workspaceId}/settings", { params: { path: { workspaceId: workspace.id } }, body })
      .then(() => {
        // The header, the switcher and Settings → Developer read the workspace from the session.
        recheck();
        invalidate(keys.workspaceAudit(workspace.id));
      });
  const nameError = rename.error?.about("name");
  const submitName = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void rename.run("rename", async () => {
      await update({ name: name.trim() });
      setSaved(true);
    });
  };
  const switchAccess = (on: boolean) => {
    if (!on) setConfirmingOff(true);
    else void access.run("on", () => update({ apiAccessEnabled: true }));
  };

  return (
    <div className="stack">
      <form className="card" onSubmit={submitName} noValidate>
        <h2>Workspace</h2>
        <div className="inline-form">
          <div className="grow">
            <TextField
              label="Name"
              value={name}
              maxLength={200}
              onChange={(e) => {
                setName(e.target.value);
                setSaved(false);
              }}
              error={nameError}
            />
          </div>
          <BusyButton
            type="submit"
            busy={rename.busy !== undefined}
            disabled={name.trim() === workspace.name}
          >
            Save name
          </BusyButton>
        </div>
        {saved ? (
          <p className="note success" role="status">
            The workspace is now called “{workspace.name}”.
          </p>
        ) : null}
        {rename.error && !nameError ? <ErrorNote error={rename.error} /> : null}
      </form>

      <div className="card">
        <h2>API access</h2>
        <p className="muted">
          With API access on, the workspace's API keys call the API and its webhooks are delivered. Turned
          off, every key is refused at once (403) and Settings → Developer closes; nothing is deleted.
        </p>
        <label className="check switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={workspace.apiAccessEnabled}
            checked={workspace.apiAccessEnabled}
            disabled={access.busy !== undefined}
            onChange={(e) => switchAccess(e.target.checked)}
          />{" "}
          API access is {workspace.apiAccessEnabled ? "on" : "off"}
          {access.busy ? <span className="spinner" aria-hidden="true" /> : null}
        </label>
        {access.error ? <ErrorNote error={access.error} /> : null}
      </div>

      <div className="card">
        <h2>Activity</h2>
        <p className="muted">
          Who changed the workspace's members, invitations, API access and API keys, here or with the CLI.
        </p>
        <Show loaded={audit} what="activity" onRetry={reloadAudit}>
          {({ items }) =>
            items.length === 0 ? (
              <Empty title="No changes yet" />
            ) : (
              <DataTable
                label="Activity"
                testId="audit"
                className="table stacked"
                columns={["When", "What", "Detail"]}
              >
                {items.map((entry) => (
                  <tr key={entry.id}>
                    <td className="nowrap" data-label="When">
                      <When at={entry.timestamp} />
                    </td>
                    <td data-label="What">{auditSentence(entry)}</td>
                    <td className="muted" data-label="Detail">
                      {entry.detail}
                    </td>
                  </tr>
                ))}
              </DataTable>
            )
          }
        </Show>
      </div>

      {confirmingOff ? (
        <Confirm
          title="Turn API access off?"
          description={`Every API key of “${isolate(workspace.name)}” is refused from now on, and webhooks stop. Turn it on again here to restore them; no key or webhook is deleted.`}
          confirmLabel="Turn API access off"
          danger
          onConfirm={() => update({ apiAccessEnabled: false })}
          onClose={() => setConfirmingOff(false)}
        />
      ) : null}
    </div>
  );
}
