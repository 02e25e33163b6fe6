/** One endpoint: its secret, test-fire, and the delivery portal (messages, attempts, retry, replay). */

import { isolate } from "@countersign/domain/web";
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys, useInvalidate } from "../queries";
import { EVENT_TYPES, type EventType, type TestFireResult, type WebhookEndpoint } from "../types";
import { BusyButton, Confirm, CopyButton, ErrorNote, SelectField, useAction } from "../ui";
import { useWorkspace } from "../workspace";
import { AttemptView } from "./AttemptView";
import { EndpointDialog } from "./EndpointDialog";
import { type EndpointIds, MessageLog } from "./MessageLog";
import { testFireOutcome } from "./test-fire-outcome";
import { formatOf } from "./webhook-formats";

export function EndpointDetail({
  endpoint,
  onChanged,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const workspace = useWorkspace();
  const ids: EndpointIds = { workspaceId: workspace.id, endpointId: endpoint.id };
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [secret, setSecret] = useState<string>();
  // Each test event lands in the message log too: the log reads again after each one.
  const { busy, error, run } = useAction();

  return (
    <section className="card" aria-labelledby="endpoint-title" data-testid="endpoint-detail">
      <div className="card-head">
        <div className="row-main">
          <h2 id="endpoint-title" className="mono break">
            {endpoint.url}
          </h2>
          {endpoint.disabled ? (
            <p className="note error small">
              Disabled{endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}. Its messages wait until
              you enable it.
            </p>
          ) : null}
        </div>
        <div className="button-row">
          <button type="button" className="button secondary small" onClick={() => setEditing(true)}>
            Edit
          </button>
          <BusyButton
            className="button secondary small"
            busy={busy === "toggle"}
            onClick={() =>
              run("toggle", async () => {
                await api.PATCH("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}", {
                  params: { path: ids },
                  body: { disabled: !endpoint.disabled },
                });
                onChanged();
              })
            }
          >
            {endpoint.disabled ? "Enable" : "Disable"}
          </BusyButton>
          <button type="button" className="button danger small" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </div>
      {error ? <ErrorNote error={error} /> : null}

      <h3>Signing secret</h3>
      <p className="muted small" data-testid="endpoint-format">
        Format: {formatOf(endpoint).label}. {formatOf(endpoint).verify}
      </p>
      <div className="secret-box">
        <code data-testid="endpoint-secret">{secret ?? "whsec_••••••••••••••••••••••••••••••••"}</code>
        {secret ? (
          <CopyButton text={secret} label="Copy secret" />
        ) : (
          <BusyButton
            className="button secondary small"
            busy={busy === "reveal"}
            onClick={() =>
              run("reveal", async () => {
                const revealed = await ok(
                  api.POST("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/secret/reveal", {
                    params: { path: ids },
                  }),
                );
                setSecret(revealed.secret);
              })
            }
          >
            Reveal
          </BusyButton>
        )}
        <button type="button" className="button secondary small" onClick={() => setRotating(true)}>
          Rotate…
        </button>
      </div>

      <TestFire ids={ids} />
      <MessageLog ids={ids} />

      {editing ? (
        <EndpointDialog
          endpoint={endpoint}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this endpoint?"
          description={`${isolate(endpoint.url)} gets no more events, and its delivery log goes with it.`}
          confirmLabel="Delete endpoint"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}", {
              params: { path: ids },
            });
            onDeleted();
          }}
          onClose={() => setDeleting(false)}
        />
      ) : null}
      {rotating ? (
        <Confirm
          title="Rotate the signing secret?"
          description="A new secret signs every delivery from now on. The old one keeps signing beside it for 24 hours, so you can switch your receiver without losing an event."
          confirmLabel="Rotate secret"
          onConfirm={async () => {
            setSecret(
              (
                await ok(
                  api.POST("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/secret/rotate", {
                    params: { path: ids },
                  }),
                )
              ).secret,
            );
          }}
          onClose={() => setRotating(false)}
        />
      ) : null}
    </section>
  );
}

/** Sends a test event, which the endpoint's message log then lists. */
function TestFire({ ids }: { ids: EndpointIds }) {
  const [type, setType] = useState<EventType>("signature_request.completed");
  const [result, setResult] = useState<TestFireResult>();
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const fire = (event: FormEvent) => {
    event.preventDefault();
    setResult(undefined);
    void run("fire", async () => {
      setResult(
        await ok(
          api.POST("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/test", {
            params: { path: ids },
            body: { eventType: type },
          }),
        ),
      );
      invalidate(keys.webhookMessageLists(ids.workspaceId, ids.endpointId));
    });
  };
  return (
    <div className="subsection">
      <h3>Send a test event</h3>
      <form className="inline-form" onSubmit={fire}>
        <div className="grow">
          <SelectField label="Event type" value={type} options={EVENT_TYPES} onChange={setType} />
        </div>
        <BusyButton type="submit" busy={busy !== undefined}>
          {busy ? "Sending…" : "Send test event"}
        </BusyButton>
      </form>
      {error ? <ErrorNote error={error} /> : null}
      <div aria-live="polite">
        {result ? (
          <div data-testid="test-fire-result">
            <TestFireSentence attempt={result.attempt} />
            <AttemptView attempt={result.attempt} open />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function TestFireSentence({ attempt }: { attempt: TestFireResult["attempt"] }) {
  const { ok, text } = testFireOutcome(attempt);
  return (
    <p className={`note ${ok ? "success" : "error"}`} data-testid="test-fire-outcome">
      {text}
    </p>
  );
}
