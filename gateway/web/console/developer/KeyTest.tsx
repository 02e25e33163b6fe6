/**
 * Test a key: a real call from this browser to the public API, exactly as a client would make it,
 * showing what came back and the cURL command that makes the same call.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { ApiError, api } from "../api";
import { prettyJson } from "../pretty-json";
import { keys } from "../queries";
import { BusyButton, CopyButton, ErrorNote, Show, TextField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";

const SHOWN_CHARACTERS = 800;
const KEY_SHAPE = /^sk_[0-9A-Za-z]{43}$/;

interface Outcome {
  status: number;
  ms: number;
  body: string;
}

export function KeyTest() {
  const workspace = useWorkspace();
  const [config, reload] = useLoaded(keys.configuration(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/configuration", {
        params: { path: { workspaceId: workspace.id } },
      }),
    ),
  );
  const [secret, setSecret] = useState("");
  const [outcome, setOutcome] = useState<Outcome>();
  const [shapeError, setShapeError] = useState<string>();
  const { busy, error, run, clearError } = useAction();
  /** What was shown belongs to the secret tested: a new secret, or a new run, starts clean. */
  const forget = () => {
    setOutcome(undefined);
    setShapeError(undefined);
    clearError();
  };

  return (
    <div className="card" data-testid="key-test">
      <h2>Test a key</h2>
      <p className="muted">
        Paste a secret to make a real call with it: the first page of templates, from this browser to the
        public API.
      </p>
      <Show loaded={config} what="the API address" onRetry={reload}>
        {({ baseUrls }) => {
          const url = `${baseUrls.accountScoped}/templates?pageIndex=0&pageSize=5`;
          const key = secret.trim();
          const curlWith = (shown: string) => `curl -sS "${url}" \\\n  -H "Authorization: Bearer ${shown}"`;
          // Shown with the secret cut short (the input hides it too); copied whole, ready to run.
          const curl = curlWith(key || "sk_…");
          const shownCurl = curlWith(key ? `${key.slice(0, 7)}…` : "sk_…");
          // The public API answers other origins no CORS preflight; from one, the call goes to this
          // gateway instead, by the same path.
          const target =
            new URL(url).origin === window.location.origin
              ? url
              : new URL(url).pathname + new URL(url).search;
          const test = (event: FormEvent) => {
            event.preventDefault();
            forget();
            if (!KEY_SHAPE.test(key)) {
              setShapeError("A secret starts with sk_ followed by 43 letters and digits.");
              return;
            }
            void run("test", async () => {
              const started = performance.now();
              const response = await fetch(target, {
                headers: { Authorization: `Bearer ${key}` },
                credentials: "omit",
                cache: "no-store",
              }).catch(() => {
                throw new ApiError(0, {
                  title: "Network error",
                  detail: `The browser could not reach ${baseUrls.accountScoped}. Is COUNTERSIGN_PUBLIC_URL right?`,
                });
              });
              const body = await response.text();
              setOutcome({
                status: response.status,
                ms: Math.round(performance.now() - started),
                body: prettyJson(body),
              });
            });
          };
          return (
            <>
              <form onSubmit={test} className="inline-form" noValidate>
                <div className="grow">
                  <TextField
                    label="Secret"
                    className="input mono"
                    type="password"
                    autoComplete="off"
                    spellCheck={false}
                    value={secret}
                    onChange={(e) => {
                      setSecret(e.target.value);
                      forget();
                    }}
                    placeholder="sk_…"
                    error={shapeError}
                  />
                </div>
                <BusyButton type="submit" busy={busy !== undefined}>
                  Send test call
                </BusyButton>
              </form>
              {error ? <ErrorNote error={error} /> : null}
              <div aria-live="polite">
                {outcome ? (
                  <div className="test-outcome" data-testid="key-test-outcome">
                    <p>
                      <span
                        className={`status-code s${Math.floor(outcome.status / 100)}xx`}
                        data-testid="key-test-status"
                      >
                        {outcome.status}
                      </span>{" "}
                      in <strong data-testid="key-test-ms">{outcome.ms} ms</strong>
                      {outcome.status === 200
                        ? " — the key works."
                        : outcome.status === 401
                          ? " — this key is unknown or deleted."
                          : null}
                    </p>
                    <div className="code-head">
                      <span className="stacked-label">
                        Response body
                        {outcome.body.length > SHOWN_CHARACTERS
                          ? ` (first ${SHOWN_CHARACTERS} characters)`
                          : ""}
                      </span>
                      <CopyButton text={outcome.body} label="Copy full body" />
                    </div>
                    <pre className="code" data-testid="key-test-body">
                      {outcome.body.slice(0, SHOWN_CHARACTERS)}
                      {outcome.body.length > SHOWN_CHARACTERS ? "…" : ""}
                    </pre>
                  </div>
                ) : null}
              </div>
              {target !== url ? (
                <p className="muted small">
                  The public URL is another origin than this page, so the test called this gateway by the same
                  path.
                </p>
              ) : null}
              <div className="code-head">
                <span className="stacked-label">The same call with cURL</span>
                <CopyButton text={curl} label="Copy cURL" />
              </div>
              <pre className="code" data-testid="key-test-curl">
                {shownCurl}
              </pre>
            </>
          );
        }}
      </Show>
    </div>
  );
}
