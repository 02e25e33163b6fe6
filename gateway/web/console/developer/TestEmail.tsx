import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import type { TestEmailResult } from "../types";
import { BusyButton, ErrorNote, TextField, useAction } from "../ui";

/**
 * Sends one e-mail now through the service's mail settings and shows how the exchange ended: the
 * SMTP server's reply, or what failed — a wrong SMTP_URL says so here, not in a signer's silence.
 */
export function TestEmail({ workspaceId, defaultTo }: { workspaceId: string; defaultTo: string }) {
  const [to, setTo] = useState(defaultTo);
  const [result, setResult] = useState<TestEmailResult>();
  const { busy, error, run } = useAction();
  const toError = error?.about("to") ?? (error?.status === 422 ? error.detail : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(undefined);
    void run("send", async () =>
      setResult(
        await ok(
          api.POST("/workspaces/{workspaceId}/test-email", {
            params: { path: { workspaceId } },
            body: { to: to.trim() },
          }),
        ),
      ),
    );
  };
  return (
    <div className="card" data-testid="test-email">
      <h2>E-mail</h2>
      <p className="muted">
        Invitations, reminders and copies of signed documents go out through the service's mail settings
        (SMTP_URL). Send a test e-mail to see that they work.
      </p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <div className="grow">
          <TextField
            label="Send a test e-mail to"
            type="email"
            value={to}
            autoComplete="email"
            onChange={(event) => setTo(event.target.value)}
            error={toError}
          />
        </div>
        <BusyButton type="submit" busy={busy !== undefined} className="button secondary">
          Send test e-mail
        </BusyButton>
      </form>
      {error && !toError ? <ErrorNote error={error} /> : null}
      <div aria-live="polite">
        {result ? (
          <div className="test-outcome" data-testid="test-email-result">
            <p>
              <span className={`status-code ${result.sent ? "s2xx" : "s5xx"}`}>
                {result.sent ? "Sent" : "Not sent"}
              </span>{" "}
              in <strong>{result.durationMs} ms</strong> — {outcomeSentence(result)}
            </p>
            <span className="stacked-label">
              {result.transport === "smtp" ? "The server's reply" : "Where it went"}
            </span>
            <pre className="code" data-testid="test-email-detail">
              {result.detail}
            </pre>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function outcomeSentence(result: TestEmailResult): string {
  if (result.transport === "outbox")
    return "no SMTP server is set (SMTP_URL), so e-mails are written as files in the outbox folder.";
  return result.sent
    ? `${result.server} took the message; check that it arrives.`
    : `${result.server} did not take it: check SMTP_URL and the server's log.`;
}
