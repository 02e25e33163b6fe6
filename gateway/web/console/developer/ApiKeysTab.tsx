import { API_SCOPES, type ApiScope, isolate, SCOPE_DESCRIPTIONS } from "@countersign/domain/web";
import { type FormEvent, useId, useState } from "react";
import { ok } from "../../shared/api-client";
import { Modal } from "../../shared/Modal";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { DeleteButton } from "../DeleteButton";
import { FormDialog } from "../FormDialog";
import { Rows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import type { ApiKey, CreatedApiKey } from "../types";
import {
  Confirm,
  CopyButton,
  Empty,
  ErrorNote,
  FieldError,
  SelectField,
  TextField,
  useAction,
  useLoaded,
  When,
} from "../ui";
import { useWorkspace } from "../workspace";
import { KeyTest } from "./KeyTest";

export function ApiKeysTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(keys.apiKeys(workspace.id), () =>
    ok(api.GET("/workspaces/{workspaceId}/api-keys", { params: { path: { workspaceId: workspace.id } } })),
  );
  const invalidate = useInvalidate();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();

  return (
    <div className="stack">
      <div className="card">
        <CardHead
          title="API keys"
          description="A key acts for this whole workspace. Keep it on your server, never in a browser or an app."
          action={{ label: "Create API key", onClick: () => setCreating(true) }}
        />
        <Rows
          loaded={loaded}
          what="API keys"
          onRetry={reload}
          testId="api-keys"
          empty={<Empty title="No API keys yet">Create one to call the API from your own code.</Empty>}
        >
          {(key) => (
            <li key={key.id} className="row">
              <div>
                <p className="row-title">
                  <bdi>{key.name}</bdi>
                  {key.hint ? (
                    <code className="key-hint">
                      {" "}
                      {key.test ? "sk_test_" : "sk_"}…{key.hint}
                    </code>
                  ) : null}{" "}
                  {key.test ? <span className="badge test">Test</span> : null}{" "}
                  {expired(key) ? <span className="badge danger">Expired</span> : null}
                </p>
                <KeyScopes apiKey={key} />
                <p className="muted small">
                  Created <When at={key.createdAt} dateOnly /> ·{" "}
                  {key.lastUsedAt ? (
                    <>
                      last used <When at={key.lastUsedAt} />
                    </>
                  ) : (
                    "never used"
                  )}
                  {key.expiresAt ? (
                    <>
                      {" "}
                      · {expired(key) ? "expired" : "expires"} <When at={key.expiresAt} />
                    </>
                  ) : null}
                </p>
              </div>
              <DeleteButton
                kind="key"
                name={key.name}
                description="Calls made with this key are refused from now on, everywhere. This cannot be undone."
                onDelete={async () => {
                  await api.DELETE("/workspaces/{workspaceId}/api-keys/{keyId}", {
                    params: { path: { workspaceId: workspace.id, keyId: key.id } },
                  });
                  invalidate(keys.apiKeys(workspace.id));
                }}
              />
            </li>
          )}
        </Rows>
      </div>
      <KeyTest />
      {creating ? (
        <CreateKeyDialog
          workspaceId={workspace.id}
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            invalidate(keys.apiKeys(workspace.id));
          }}
        />
      ) : null}
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(undefined)} /> : null}
    </div>
  );
}

/** What a key may do: "Full access", or its scopes. */
function KeyScopes({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.fullAccess) {
    return (
      <p className="small key-scopes">
        <span className="badge neutral">Full access</span>
      </p>
    );
  }
  return (
    <ul className="key-scopes small" aria-label={`Scopes of ${apiKey.name}`}>
      {apiKey.scopes.map((scope) => (
        <li key={scope} title={SCOPE_DESCRIPTIONS[scope]}>
          <code>{scope}</code>
        </li>
      ))}
    </ul>
  );
}

const expired = (key: ApiKey) => key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();

/** How long a new key works, in days; 0 for until deleted. */
const LIFETIMES = [
  { value: "0", label: "Never (until deleted)" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
];

function CreateKeyDialog({
  workspaceId,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const [name, setName] = useState("");
  const [lifetime, setLifetime] = useState("0");
  const [limited, setLimited] = useState(false);
  const [test, setTest] = useState(false);
  const [scopes, setScopes] = useState<ReadonlySet<ApiScope>>(new Set());
  const [tried, setTried] = useState(false);
  const { busy, error, run } = useAction();
  const scopesErrorId = useId();
  const nameError =
    tried && !name.trim()
      ? "Give the key a name."
      : (error?.about("name") ??
        (error?.status === 422 && !error.about("scopes") ? error.detail : undefined));
  const scopesError =
    tried && limited && scopes.size === 0 ? "Choose at least one scope." : error?.about("scopes");
  const toggle = (scope: ApiScope) => {
    const next = new Set(scopes);
    if (!next.delete(scope)) next.add(scope);
    setScopes(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!name.trim() || (limited && scopes.size === 0)) return;
    void run("create", async () =>
      onCreated(
        await ok(
          api.POST("/workspaces/{workspaceId}/api-keys", {
            params: { path: { workspaceId } },
            body: {
              name: name.trim(),
              ...(lifetime !== "0"
                ? { expiresAt: new Date(Date.now() + Number(lifetime) * 86_400_000).toISOString() }
                : {}),
              // In the list's order, whichever order they were ticked in.
              ...(limited ? { scopes: API_SCOPES.filter((scope) => scopes.has(scope)) } : {}),
              ...(test ? { test: true } : {}),
            },
          }),
        ),
      ),
    );
  };
  return (
    <FormDialog
      title="Create an API key"
      description="The name is for you: say where the key is used."
      onClose={onClose}
      testId="create-key-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Create key"
    >
      <TextField
        label="Name"
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        error={nameError}
        placeholder="Billing service (production)"
      />
      <SelectField label="Expires" value={lifetime} options={LIFETIMES} onChange={setLifetime} />
      <fieldset className="checks" data-testid="key-mode">
        <legend className="stacked-label">Mode</legend>
        <label className="check choice">
          <input type="radio" name="mode" checked={!test} onChange={() => setTest(false)} />
          <span>
            Live
            <span className="muted small event-description">
              Real requests: e-mails go to their recipients and completed documents are legally binding.
            </span>
          </span>
        </label>
        <label className="check choice">
          <input type="radio" name="mode" checked={test} onChange={() => setTest(true)} />
          <span>
            Test (<code>sk_test_…</code>)
            <span className="muted small event-description">
              For building an integration: e-mails only to the outbox, documents sealed “TEST — NOT LEGALLY
              BINDING”, and none of it mixed with live data.
            </span>
          </span>
        </label>
      </fieldset>
      <fieldset className="checks" data-testid="key-access">
        <legend className="stacked-label">Access</legend>
        <label className="check choice">
          <input type="radio" name="access" checked={!limited} onChange={() => setLimited(false)} />
          <span>
            Full access
            <span className="muted small event-description">
              Everything this workspace can do through the API, including what later versions add.
            </span>
          </span>
        </label>
        <label className="check choice">
          <input type="radio" name="access" checked={limited} onChange={() => setLimited(true)} />
          <span>
            Only the scopes I choose
            <span className="muted small event-description">
              Any other call answers 403 naming the scope it needs.
            </span>
          </span>
        </label>
      </fieldset>
      {limited ? (
        <fieldset
          className="checks"
          data-testid="key-scopes"
          aria-describedby={scopesError ? scopesErrorId : undefined}
        >
          <legend className="stacked-label">Scopes</legend>
          {API_SCOPES.map((scope) => (
            <label key={scope} className="check event-type">
              <input type="checkbox" checked={scopes.has(scope)} onChange={() => toggle(scope)} />
              <span>
                <code>{scope}</code>
                <span className="muted small event-description">{SCOPE_DESCRIPTIONS[scope]}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <FieldError id={scopesErrorId} message={scopesError} />
      {error && !nameError && !scopesError ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}

/** The secret, once; closing before it was copied asks first, for it cannot be shown again. */
function CreatedKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const close = () => (copied ? onClose() : setAsking(true));
  if (asking) {
    return (
      <Confirm
        title="Close without copying the secret?"
        description={`The secret of “${isolate(created.name)}” is never shown again. If it is not stored anywhere, delete the key and create another.`}
        confirmLabel="Close anyway"
        danger
        onConfirm={async () => onClose()}
        onClose={() => setAsking(false)}
      />
    );
  }
  return (
    <Modal title="Copy your new key now" onClose={close} testId="created-key-dialog">
      <p className="note warning" role="alert">
        This is the only time the secret is shown. Store it in your secret manager before you close this
        window; if it is lost, delete the key and create another.
      </p>
      <p className="stacked-label">
        Secret of “<bdi>{created.name}</bdi>”
      </p>
      <div className="secret-box">
        <code data-testid="new-key-secret">{created.secret}</code>
        <CopyButton
          text={created.secret}
          label="Copy secret"
          className="button primary small"
          onCopied={() => setCopied(true)}
        />
      </div>
      {created.expiresAt ? (
        <p className="muted small">
          It works until <When at={created.expiresAt} />.
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={close}>
          I have stored it
        </button>
      </div>
    </Modal>
  );
}
