/**
 * What an agent's API key proposed, on the request's page: while it awaits approval, who proposed it
 * and what would go to whom, with Approve (it is sent, in the approver's name) and Reject (saying
 * why) for an Organization Admin or the workspace's approver; once decided, who decided and when.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { FormDialog } from "../FormDialog";
import { afterRequestChange, keys, useInvalidate } from "../queries";
import type { SignatureRequest } from "../types";
import { BusyButton, ErrorNote, TextAreaField, useAction, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";

export function ApprovalCard({
  request,
  onDecided,
}: {
  request: SignatureRequest;
  onDecided: (notice: string) => void;
}) {
  const workspace = useWorkspace();
  const [rights] = useLoaded(keys.approvalRights(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/approval-rights", {
        params: { path: { workspaceId: workspace.id } },
      }),
    ),
  );
  const [rejecting, setRejecting] = useState(false);
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const { proposal } = request;
  if (!proposal) return null;
  const params = { path: { workspaceId: workspace.id, requestId: request.id } };
  const decided = (notice: string) => {
    invalidate(...afterRequestChange(workspace.id, request.id));
    onDecided(notice);
  };
  const proposedBy = (
    <>
      Proposed by the API key “{proposal.proposedBy}” <When at={proposal.proposedAt} />
    </>
  );

  if (request.status !== "awaiting_approval") {
    return (
      <p className="note" data-testid="proposal">
        {proposedBy};{" "}
        {proposal.decidedBy ? (
          <>
            {proposal.decision} by {proposal.decidedBy} <When at={proposal.decidedAt} />
            {proposal.reason ? `: ${proposal.reason}` : "."}
          </>
        ) : (
          `${proposal.decision} before anyone decided.`
        )}
      </p>
    );
  }
  const mayApprove = rights.state === "ready" && rights.value.mayApprove;
  const waiting = request.recipients.filter((r) => r.kind !== "cc").length;
  return (
    <section className="card approval" aria-labelledby="approval-title" data-testid="proposal">
      <h2 id="approval-title">{mayApprove ? "Awaiting your approval" : "Awaiting approval"}</h2>
      <p>
        {proposedBy}. Nothing has been sent: no recipient knows of it yet. Approving sends it now to the{" "}
        {waiting === 1 ? "recipient" : `${waiting} recipients`} below, in your name.
      </p>
      <dl className="approval-facts">
        <dt>Title</dt>
        <dd>{request.title}</dd>
        <dt>Message to recipients</dt>
        <dd>{request.message ? <q>{request.message}</q> : <span className="muted">none</span>}</dd>
        <dt>Would go to</dt>
        <dd>
          <ul className="plain">
            {request.recipients.map((r) => (
              <li key={r.id}>
                {r.name} &lt;{r.email}&gt; <span className="muted small">({r.kind})</span>
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      {mayApprove ? (
        <div className="button-row">
          <BusyButton
            busy={busy === "approve"}
            disabled={busy !== undefined}
            onClick={() =>
              run("approve", async () => {
                await api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/approve", {
                  params,
                  body: {},
                });
                decided("Approved and sent. Recipients who sign by e-mail have been notified.");
              })
            }
          >
            Approve and send
          </BusyButton>
          <button type="button" className="button danger" onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      ) : rights.state === "ready" ? (
        <p className="muted">
          An Organization Admin{rights.value.approverUserId ? ", or the workspace's approver," : ""} approves
          or rejects it.
        </p>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
      {rejecting ? (
        <RejectDialog
          onClose={() => setRejecting(false)}
          onReject={async (reason) => {
            await api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/reject", {
              params,
              body: { reason },
            });
            setRejecting(false);
            decided("Rejected. The request is cancelled; no recipient was told of it.");
          }}
        />
      ) : null}
    </section>
  );
}

function RejectDialog({
  onClose,
  onReject,
}: {
  onClose: () => void;
  onReject: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const { busy, error, run } = useAction();
  const reasonError =
    tried && !reason.trim()
      ? "Say why: the agent's user and the audit trail read it."
      : error?.about("reason");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!reason.trim()) return;
    void run("reject", () => onReject(reason.trim()));
  };
  return (
    <FormDialog
      title="Reject this request?"
      onClose={onClose}
      testId="reject-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Reject request"
    >
      <TextAreaField
        label="Why"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
        error={reasonError}
      />
      {error && !reasonError ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}
