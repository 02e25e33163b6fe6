/**
 * The consent page `GET /oauth/auth` opens: a person logged in to the console lets an integration
 * act as them, or declines. Either way the browser goes back to the integration's registered
 * redirect URI with the request's `state`; a link that names an unknown integration or an
 * address it did not register goes nowhere and says why.
 */
import { useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys } from "../queries";
import { BusyButton, ErrorNote, Show, useAction, useLoaded } from "../ui";

const SCOPE_WORDS: Record<string, (workspace: string) => string> = {
  signature: (workspace) =>
    `Create, send and manage signature requests and templates in ${workspace}, through the DocuSign-compatible API.`,
  impersonation: () =>
    "Do so as you, without you being present, until you or an administrator withdraw this consent.",
};

export function ConsentPage() {
  const query = new URLSearchParams(window.location.search);
  const clientId = query.get("client_id") ?? "";
  const redirectUri = query.get("redirect_uri") ?? "";
  const scope = query.get("scope") ?? "signature";
  const state = query.get("state") ?? undefined;
  const [loaded, reload] = useLoaded(keys.consent({ clientId, redirectUri, scope }), () =>
    ok(
      api.GET("/oauth/consent", {
        params: { query: { client_id: clientId, redirect_uri: redirectUri, scope } },
      }),
    ),
  );
  const { busy, error, run } = useAction();
  // An unknown integration, an unregistered address or another workspace: no retry mends these.
  const refused =
    loaded.state === "failed" && (loaded.error.status === 404 || loaded.error.status === 403)
      ? loaded.error
      : undefined;
  const [leaving, setLeaving] = useState(false);

  const allow = () =>
    void run("allow", async () => {
      const { redirect } = await ok(
        api.POST("/oauth/consent", {
          body: { clientId, redirectUri, scope, ...(state === undefined ? {} : { state }) },
        }),
      );
      setLeaving(true);
      window.location.assign(redirect);
    });
  // Declining is OAuth's access_denied, sent to the address the integration registered.
  const decline = () => {
    const back = new URL(redirectUri);
    back.searchParams.set("error", "access_denied");
    if (state !== undefined) back.searchParams.set("state", state);
    setLeaving(true);
    window.location.assign(back.href);
  };

  return (
    <main className="login">
      <div className="card login-card consent-card" data-testid="consent">
        <p className="brand" aria-hidden="true">
          <span className="brand-mark">C</span> Countersign
        </p>
        {refused ? (
          <>
            <h1>This consent link does not work</h1>
            <p className="note error" role="alert">
              {refused.status === 404
                ? `It names an integration or a return address that is not registered (${refused.detail}). Ask the program's developer for the consent link in Settings → Developer → Integrations.`
                : `${refused.detail}. Log in as a member of that workspace, or ask its Organization Admin to add you.`}
            </p>
          </>
        ) : (
          <Show loaded={loaded} what="this consent request" onRetry={reload}>
            {(asked) => (
              <>
                <h1>Allow “{asked.integrationName}” to act as you?</h1>
                <p>
                  In the workspace <strong>{asked.workspaceName}</strong>, it will be able to:
                </p>
                <ul className="scopes">
                  {asked.scopes.map((s) => (
                    <li key={s}>{SCOPE_WORDS[s]?.(asked.workspaceName) ?? s}</li>
                  ))}
                </ul>
                {asked.scopes.every((s) => asked.consentedScopes.includes(s)) ? (
                  <p className="note info" role="status">
                    You already allowed this. Allowing again changes nothing.
                  </p>
                ) : null}
                {error ? <ErrorNote error={error} /> : null}
                <div className="dialog-actions">
                  <button type="button" className="button secondary" onClick={decline} disabled={leaving}>
                    Decline
                  </button>
                  <BusyButton type="button" busy={busy !== undefined || leaving} onClick={allow}>
                    Allow
                  </BusyButton>
                </div>
              </>
            )}
          </Show>
        )}
      </div>
    </main>
  );
}
