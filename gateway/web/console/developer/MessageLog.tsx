/** The delivery portal: an endpoint's messages with their attempts, filters, retry and replay. */
import { type FormEvent, useId, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys, useInvalidate } from "../queries";
import { EVENT_TYPES, type WebhookMessage } from "../types";
import { BusyButton, Empty, ErrorNote, Pager, SelectField, Show, useAction, useLoaded, When } from "../ui";
import { AttemptView } from "./AttemptView";

const PAGE_SIZE = 20;
const STATUSES: { value: WebhookMessage["status"]; label: string }[] = [
  { value: "pending", label: "Pending" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
];

/** The workspace and the webhook endpoint whose messages these are. */
export interface EndpointIds {
  workspaceId: string;
  endpointId: string;
}

export function MessageLog({ ids }: { ids: EndpointIds }) {
  const [status, setStatus] = useState<WebhookMessage["status"] | "">("");
  const [eventType, setEventType] = useState<WebhookMessage["eventType"] | "">("");
  const [pageIndex, setPageIndex] = useState(0);
  const query = {
    pageIndex,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(eventType ? { eventType } : {}),
  };
  const [loaded, reload] = useLoaded(keys.webhookMessages(ids.workspaceId, ids.endpointId, query), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/messages", {
        params: { path: ids, query },
      }),
    ),
  );
  const invalidate = useInvalidate();
  const [notice, setNotice] = useState<string>();
  const { busy, error, run } = useAction();
  const filter =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setPageIndex(0);
    };

  const retry = async (message: WebhookMessage) => {
    const done = await run(message.id, () =>
      api.POST("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/messages/{messageId}/retry", {
        params: { path: { ...ids, messageId: message.id } },
      }),
    );
    if (!done) return;
    setNotice(`Message ${message.id.slice(0, 8)}… is queued to be delivered again.`);
    invalidate(keys.webhookMessageLists(ids.workspaceId, ids.endpointId));
  };

  return (
    <div className="subsection">
      <div className="card-head">
        <h3>Deliveries</h3>
        <button type="button" className="button secondary small" onClick={reload}>
          Refresh
        </button>
      </div>
      <div className="filters">
        <SelectField
          label="Status"
          small
          value={status}
          any="All"
          options={STATUSES}
          onChange={filter(setStatus)}
        />
        <SelectField
          label="Event type"
          small
          value={eventType}
          any="All"
          options={EVENT_TYPES}
          onChange={filter(setEventType)}
        />
      </div>
      <div aria-live="polite">{notice ? <p className="note success small">{notice}</p> : null}</div>
      {error ? <ErrorNote error={error} /> : null}
      <Show loaded={loaded} what="deliveries" onRetry={reload}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No deliveries match">
              Events of the types this endpoint receives will show here.
            </Empty>
          ) : (
            <>
              <ul className="messages" data-testid="webhook-messages">
                {page.items.map((m) => (
                  <li key={m.id} className="message">
                    <details>
                      <summary>
                        <span
                          className={`badge ${m.status === "succeeded" ? "success" : m.status === "failed" ? "danger" : "neutral"}`}
                        >
                          {m.status}
                        </span>
                        <code>{m.eventType}</code>
                        <span className="muted small">
                          <When at={m.createdAt} /> · {m.attemptCount} attempt
                          {m.attemptCount === 1 ? "" : "s"}
                          {m.nextAttemptAt ? (
                            <>
                              {" "}
                              · next <When at={m.nextAttemptAt} />
                            </>
                          ) : null}
                        </span>
                      </summary>
                      <p className="muted small">
                        webhook-id <code>{m.id}</code>
                      </p>
                      <BusyButton
                        className="button secondary small"
                        busy={busy === m.id}
                        onClick={() => retry(m)}
                      >
                        Retry now
                      </BusyButton>
                      <p className="stacked-label small">Payload</p>
                      <pre className="code small">{JSON.stringify(m.payload, null, 2)}</pre>
                      {m.attempts.map((a) => (
                        <AttemptView key={a.id} attempt={a} />
                      ))}
                    </details>
                  </li>
                ))}
              </ul>
              <Pager page={page} onPage={setPageIndex} />
            </>
          )
        }
      </Show>
      <Replay
        ids={ids}
        onReplayed={(count) => {
          setNotice(`${count} message${count === 1 ? "" : "s"} queued to be delivered again.`);
          invalidate(keys.webhookMessageLists(ids.workspaceId, ids.endpointId));
        }}
      />
    </div>
  );
}

function Replay({ ids, onReplayed }: { ids: EndpointIds; onReplayed: (count: number) => void }) {
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600_000)));
  const [onlyFailed, setOnlyFailed] = useState(true);
  const { busy, error, run } = useAction();
  const sinceId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("replay", async () => {
      const { replayedCount } = await ok(
        api.POST("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/replay", {
          params: { path: ids },
          body: { since: new Date(since).toISOString(), onlyFailed },
        }),
      );
      onReplayed(replayedCount);
    });
  };
  return (
    <form className="replay" onSubmit={submit}>
      <h4>Replay</h4>
      <p className="muted small">
        Deliver again every message made since a time — for a receiver that lost what it got.
      </p>
      <div className="inline-form">
        <div>
          <label className="stacked-label small" htmlFor={sinceId}>
            Since (your time)
          </label>
          <input
            id={sinceId}
            className="input"
            type="datetime-local"
            value={since}
            required
            onChange={(e) => setSince(e.target.value)}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={onlyFailed} onChange={(e) => setOnlyFailed(e.target.checked)} />{" "}
          Only failed messages
        </label>
        <BusyButton type="submit" className="button secondary" busy={busy !== undefined} disabled={!since}>
          Replay
        </BusyButton>
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </form>
  );
}

/** A Date as a datetime-local input's value, in the browser's time zone. */
function localInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
