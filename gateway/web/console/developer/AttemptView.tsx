/** One delivery attempt with its diagnostics: status, time, headers, body, or the network error. */
import type { WebhookAttempt } from "../types";
import { When } from "../ui";

export function AttemptView({ attempt, open }: { attempt: WebhookAttempt; open?: boolean }) {
  const headers = Object.entries(attempt.responseHeaders);
  return (
    <details className="attempt" open={open}>
      <summary>
        <span className={`status-code ${attempt.succeeded ? "s2xx" : "s5xx"}`}>
          {attempt.statusCode ?? "no answer"}
        </span>
        <span>{Math.round(attempt.durationMs)} ms</span>
        <span className="muted small">
          {attempt.trigger} · <When at={attempt.attemptedAt} />
        </span>
      </summary>
      {attempt.error ? <p className="note error small">{attempt.error}</p> : null}
      {headers.length > 0 ? (
        <>
          <p className="stacked-label small">Response headers</p>
          <pre className="code small">{headers.map(([k, v]) => `${k}: ${v}`).join("\n")}</pre>
        </>
      ) : null}
      <p className="stacked-label small">Response body</p>
      <pre className="code small">{attempt.responseBody || "(empty)"}</pre>
    </details>
  );
}
