/**
 * A request's place in the workspace's retention, on its page: a legal hold placed (with a reason)
 * or released, the hold shown with who placed it and why, and once retention has deleted the
 * documents, when — with the certificate of completion kept on its own, when it was.
 */
import { type FormEvent, useState } from "react";
import { api } from "../api";
import { FormDialog } from "../FormDialog";
import { afterRequestChange, useInvalidate } from "../queries";
import type { SignatureRequest } from "../types";
import { Confirm, ErrorNote, TextAreaField, useAction, When } from "../ui";
import { useWorkspace } from "../workspace";

const MAX_REASON = 500;

/** Places or releases the request's hold; either changes the request and its audit trail. */
function useLegalHold(request: SignatureRequest) {
  const workspace = useWorkspace();
  const invalidate = useInvalidate();
  const params = { path: { workspaceId: workspace.id, requestId: request.id } };
  const changed = () => invalidate(...afterRequestChange(workspace.id, request.id));
  return {
    place: (reason: string) =>
      api
        .POST("/workspaces/{workspaceId}/signature-requests/{requestId}/legal-hold", {
          params,
          body: { reason },
        })
        .then(changed),
    release: () =>
      api
        .DELETE("/workspaces/{workspaceId}/signature-requests/{requestId}/legal-hold", { params })
        .then(changed),
  };
}

export function RetentionCard({
  request,
  download,
}: {
  request: SignatureRequest;
  download: (documentId: string) => string;
}) {
  const { release } = useLegalHold(request);
  const [placing, setPlacing] = useState(false);
  const [releasing, setReleasing] = useState(false);
  const { legalHold, documentsDeletedAt, certificateDocumentId } = request;
  if (documentsDeletedAt) {
    return (
      <div className="note info" role="status" data-testid="retention">
        <p>
          <strong>Documents deleted</strong> <When at={documentsDeletedAt} /> under the workspace's retention.
          The audit trail says which, and whether it was deleted with them.
        </p>
        {certificateDocumentId ? (
          <p>
            The certificate of completion was kept:{" "}
            <a href={`/console/api${download(certificateDocumentId)}`} download>
              download it
            </a>
            .
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="card" data-testid="retention">
      <div className="card-head">
        <h2>Legal hold</h2>
        <div className="card-actions">
          {legalHold ? (
            <button type="button" className="button secondary small" onClick={() => setReleasing(true)}>
              Release hold
            </button>
          ) : (
            <button type="button" className="button secondary small" onClick={() => setPlacing(true)}>
              Place legal hold
            </button>
          )}
        </div>
      </div>
      {legalHold ? (
        <p>
          <span className="badge warning">On hold</span> since <When at={legalHold.placedAt} />, placed by{" "}
          {legalHold.placedBy}: “{legalHold.reason}”. The workspace's retention leaves its documents and audit
          trail alone until the hold is released.
        </p>
      ) : (
        <p className="muted small">
          A hold keeps this request's documents and audit trail from the workspace's retention (Settings →
          Requests), for a dispute or an audit, until it is released.
        </p>
      )}
      {placing ? <PlaceHoldDialog request={request} onClose={() => setPlacing(false)} /> : null}
      {releasing ? (
        <Confirm
          title="Release the legal hold?"
          description="The workspace's retention takes its course again: if its time has passed, the documents are deleted at its next sweep."
          confirmLabel="Release hold"
          onConfirm={async () => {
            await release();
          }}
          onClose={() => setReleasing(false)}
        />
      ) : null}
    </div>
  );
}

function PlaceHoldDialog({ request, onClose }: { request: SignatureRequest; onClose: () => void }) {
  const { place } = useLegalHold(request);
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    if (await run("hold", () => place(reason.trim()))) onClose();
  };
  const problem = missing ? "Say why the request is held." : error?.about("reason");
  return (
    <FormDialog
      title="Place a legal hold"
      description="Its documents and audit trail stay, whatever the workspace's retention, until the hold is released. The reason is written to the audit trail."
      onClose={onClose}
      testId="legal-hold-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Place hold"
    >
      <TextAreaField
        label="Reason"
        rows={3}
        maxLength={MAX_REASON}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          setMissing(false);
        }}
        error={problem}
      />
      {error && !error.about("reason") ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}
