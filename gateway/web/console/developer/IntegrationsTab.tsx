/**
 * Settings → Developer → Integrations: programs written for DocuSign that log in with its JWT
 * grant. An admin registers the program's public key and gets its integration key; each person it
 * acts as consents once through the consent link; consents can be withdrawn, integrations deleted.
 */

import { isolate } from "@countersign/domain/web";
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { FormDialog } from "../FormDialog";
import { Rows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import type { Integration } from "../types";
import {
  Confirm,
  CopyButton,
  Empty,
  ErrorNote,
  TextAreaField,
  TextField,
  useAction,
  useLoaded,
  When,
} from "../ui";
import { useWorkspace } from "../workspace";

type Consent = Integration["consents"][number];

export function IntegrationsTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(keys.integrations(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/integrations", {
        params: { path: { workspaceId: workspace.id } },
      }),
    ),
  );
  const invalidate = useInvalidate();
  const [registering, setRegistering] = useState(false);
  const [deleting, setDeleting] = useState<Integration>();
  const [withdrawing, setWithdrawing] = useState<{ integration: Integration; consent: Consent }>();

  return (
    <div className="stack">
      <div className="card">
        <CardHead
          title="Integrations"
          description={
            <>
              Programs written for DocuSign log in here unchanged, with its JWT grant: set the client's OAuth
              base path to <code>{window.location.host}</code> and use the integration key below.
            </>
          }
          action={{ label: "Register integration", onClick: () => setRegistering(true) }}
        />
        <Rows
          loaded={loaded}
          what="integrations"
          onRetry={reload}
          testId="integrations"
          empty={
            <Empty title="No integrations yet">
              Register a program by its RSA public key to let it sign in as DocuSign's client does.
            </Empty>
          }
        >
          {(integration) => (
            <IntegrationRow
              key={integration.integrationKey}
              integration={integration}
              onDelete={() => setDeleting(integration)}
              onWithdraw={(consent) => setWithdrawing({ integration, consent })}
            />
          )}
        </Rows>
      </div>
      {registering ? (
        <RegisterDialog
          workspaceId={workspace.id}
          onClose={() => setRegistering(false)}
          onRegistered={() => {
            setRegistering(false);
            invalidate(keys.integrations(workspace.id));
          }}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title={`Delete “${isolate(deleting.name)}”?`}
          description="Its consents end and every access token it holds is refused from now on. This cannot be undone."
          confirmLabel="Delete integration"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/integrations/{integrationId}", {
              params: { path: { workspaceId: workspace.id, integrationId: deleting.integrationKey } },
            });
            invalidate(keys.integrations(workspace.id));
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
      {withdrawing ? (
        <Confirm
          title={`Withdraw ${isolate(withdrawing.consent.email)}'s consent?`}
          description={`“${isolate(withdrawing.integration.name)}” can no longer act as them; its tokens for them are refused from now on. They can consent again through the consent link.`}
          confirmLabel="Withdraw consent"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/integrations/{integrationId}/consents/{userId}", {
              params: {
                path: {
                  workspaceId: workspace.id,
                  integrationId: withdrawing.integration.integrationKey,
                  userId: withdrawing.consent.userId,
                },
              },
            });
            invalidate(keys.integrations(workspace.id));
          }}
          onClose={() => setWithdrawing(undefined)}
        />
      ) : null}
    </div>
  );
}

/** The link a person opens to consent, as DocuSign's documentation builds it. */
function consentLink(integration: Integration): string {
  const query = new URLSearchParams({
    response_type: "code",
    scope: "signature impersonation",
    client_id: integration.integrationKey,
    redirect_uri: integration.redirectUris[0] ?? "",
  });
  return `${window.location.origin}/oauth/auth?${query}`;
}

function IntegrationRow({
  integration,
  onDelete,
  onWithdraw,
}: {
  integration: Integration;
  onDelete: () => void;
  onWithdraw: (consent: Consent) => void;
}) {
  return (
    <li className="row integration">
      <div className="integration-facts">
        <p className="row-title">{integration.name}</p>
        <p className="muted small">
          Registered <When at={integration.createdAt} dateOnly /> ·{" "}
          {integration.lastUsedAt ? (
            <>
              last used <When at={integration.lastUsedAt} />
            </>
          ) : (
            "never used"
          )}
        </p>
        <p className="stacked-label">Integration key</p>
        <div className="secret-box">
          <code data-testid="integration-key">{integration.integrationKey}</code>
          <CopyButton text={integration.integrationKey} label="Copy key" />
        </div>
        <p className="stacked-label">Consent link</p>
        <div className="secret-box">
          <code className="breakable">{consentLink(integration)}</code>
          <CopyButton text={consentLink(integration)} label="Copy link" />
        </div>
        <p className="stacked-label">Redirect URIs</p>
        <ul className="plain-list small">
          {integration.redirectUris.map((uri) => (
            <li key={uri}>
              <code className="breakable">{uri}</code>
            </li>
          ))}
        </ul>
        <p className="stacked-label">Consented</p>
        {integration.consents.length === 0 ? (
          <p className="muted small">Nobody yet: send the consent link to the people it acts as.</p>
        ) : (
          <ul className="plain-list" data-testid="consents">
            {integration.consents.map((consent) => (
              <li key={consent.userId} className="consent">
                <span>
                  {consent.email}{" "}
                  <span className="muted small">
                    ({consent.scopes.join(", ")}) since <When at={consent.grantedAt} dateOnly />
                  </span>
                  <br />
                  <span className="muted small">
                    User ID, the assertion's <code>sub</code>:{" "}
                    <code className="breakable">{consent.userId}</code>
                  </span>{" "}
                  <CopyButton text={consent.userId} label="Copy ID" className="button link small" />
                </span>
                <button
                  type="button"
                  className="button secondary small"
                  onClick={() => onWithdraw(consent)}
                  aria-label={`Withdraw the consent of ${consent.email}`}
                >
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <button
        type="button"
        className="button secondary small"
        onClick={onDelete}
        aria-label={`Delete the integration ${integration.name}`}
      >
        Delete
      </button>
    </li>
  );
}

function RegisterDialog({
  workspaceId,
  onClose,
  onRegistered,
}: {
  workspaceId: string;
  onClose: () => void;
  onRegistered: () => void;
}) {
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const [redirects, setRedirects] = useState("");
  const [missing, setMissing] = useState<string[]>([]);
  const { busy, error, run } = useAction();
  const uris = redirects
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const about = (path: string) =>
    error?.errors.find((e) => e.path === path || e.path.startsWith(`${path}.`))?.message;
  const nameMessage = missing.includes("name") ? "Give the integration a name." : about("name");
  const keyMessage = missing.includes("publicKey")
    ? "Paste the program's RSA public key."
    : about("publicKey");
  const redirectsMessage = missing.includes("redirectUris")
    ? "Give at least one address the consent page may return to."
    : about("redirectUris");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const absent = [
      ...(name.trim() ? [] : ["name"]),
      ...(publicKey.trim() ? [] : ["publicKey"]),
      ...(uris.length > 0 ? [] : ["redirectUris"]),
    ];
    setMissing(absent);
    if (absent.length > 0) return;
    void run("register", async () => {
      await api.POST("/workspaces/{workspaceId}/integrations", {
        params: { path: { workspaceId } },
        body: { name: name.trim(), publicKey, redirectUris: uris },
      });
      onRegistered();
    });
  };
  return (
    <FormDialog
      title="Register an integration"
      description="A program that logs in with DocuSign's JWT grant. Its private key stays with it: paste only the public key."
      onClose={onClose}
      testId="register-integration-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Register"
    >
      <TextField
        label="Name"
        value={name}
        maxLength={100}
        onChange={(e) => setName(e.target.value)}
        error={nameMessage}
        placeholder="CRM (production)"
      />
      <TextAreaField
        label="RSA public key (PEM)"
        className="input mono"
        rows={6}
        value={publicKey}
        spellCheck={false}
        onChange={(e) => setPublicKey(e.target.value)}
        placeholder="-----BEGIN PUBLIC KEY-----"
        error={keyMessage}
      />
      <TextAreaField
        label="Redirect URIs, one per line"
        rows={2}
        value={redirects}
        spellCheck={false}
        onChange={(e) => setRedirects(e.target.value)}
        placeholder="https://crm.example.com/docusign/callback"
        error={redirectsMessage}
      />
      {error && !nameMessage && !keyMessage && !redirectsMessage ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}
