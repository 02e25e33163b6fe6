/**
 * Settings → Single sign-on: the workspace's OpenID Connect identity provider, who joins on their
 * first log-in, and whether password log-in stays on. Password log-in is switched off only from a
 * session that came through single sign-on: the page says so rather than offer a switch that
 * would be refused.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api, type Violation } from "../api";
import { keys } from "../queries";
import { useSession } from "../session";
import type { Role, SingleSignOnSettings } from "../types";
import {
  BusyButton,
  CheckField,
  CopyButton,
  ErrorNote,
  SelectField,
  Show,
  TextAreaField,
  TextField,
  useAction,
  useLoaded,
  When,
} from "../ui";
import { useWorkspace } from "../workspace";

interface Draft {
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  newMemberRole: Role;
  passwordLoginEnabled: boolean;
}

const draftOf = (s: SingleSignOnSettings): Draft => ({
  enabled: s.enabled,
  issuer: s.issuer,
  clientId: s.clientId,
  clientSecret: "",
  domains: s.allowedDomains.join("\n"),
  newMemberRole: s.newMemberRole,
  passwordLoginEnabled: s.passwordLoginEnabled,
});

/** One domain a line (or separated by commas or spaces), without a leading "@". */
const domainsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim().replace(/^@/, "").toLowerCase())
    .filter(Boolean);

/** A refused domain named by its text, not by its index in the list sent. */
function domainProblem(errors: Violation[], domains: string[]): string | undefined {
  const violation = errors.find((e) => e.path.startsWith("allowedDomains"));
  if (!violation) return undefined;
  const index = /^allowedDomains\[(\d+)\]/.exec(violation.path)?.[1];
  const domain = index === undefined ? undefined : domains[Number(index)];
  return domain ? `“${domain}” ${violation.message}` : violation.message;
}

export function SingleSignOnTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(
    keys.singleSignOn(workspace.id),
    () =>
      ok(
        api.GET("/workspaces/{workspaceId}/single-sign-on", {
          params: { path: { workspaceId: workspace.id } },
        }),
      ),
    { seedsForm: true },
  );
  return (
    <Show loaded={loaded} what="single sign-on" onRetry={reload}>
      {(settings) => <SingleSignOnForm settings={settings} />}
    </Show>
  );
}

function SingleSignOnForm({ settings: initial }: { settings: SingleSignOnSettings }) {
  const workspace = useWorkspace();
  const { current } = useSession();
  const [settings, setSettings] = useState(initial);
  const [draft, setDraft] = useState(() => draftOf(initial));
  /** What the last save said: whether it asked the provider, which a change of provider does. */
  const [saved, setSaved] = useState<"asked provider" | "saved" | false>(false);
  /** The domains as last sent, which a refusal's index points into. */
  const [sentDomains, setSentDomains] = useState<string[]>([]);
  const save = useAction();
  const viaSso = current.state === "signed-in" && current.session.singleSignOnWorkspaceId === workspace.id;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  };
  const error = (path: string) => save.error?.about(path);
  const domainsError = domainProblem(save.error?.errors ?? [], sentDomains);
  const providerChanged =
    !settings.enabled ||
    draft.issuer.trim() !== settings.issuer ||
    draft.clientId.trim() !== settings.clientId ||
    draft.clientSecret !== "";
  // Switching password log-in off is offered where the server would allow it; switching it on, always.
  const mayTurnPasswordOff = !settings.passwordLoginEnabled || (viaSso && draft.enabled && !providerChanged);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const domains = domainsOf(draft.domains);
    const askedProvider = draft.enabled && providerChanged;
    setSentDomains(domains);
    void save.run("save", async () => {
      const next = await ok(
        api.PUT("/workspaces/{workspaceId}/single-sign-on", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            enabled: draft.enabled,
            issuer: draft.issuer.trim(),
            clientId: draft.clientId.trim(),
            ...(draft.clientSecret ? { clientSecret: draft.clientSecret } : {}),
            allowedDomains: domains,
            newMemberRole: draft.newMemberRole,
            passwordLoginEnabled: draft.passwordLoginEnabled,
          },
        }),
      );
      setSettings(next);
      setDraft(draftOf(next));
      setSaved(askedProvider ? "asked provider" : "saved");
    });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="single-sign-on">
      <div className="card">
        <h2>Single sign-on</h2>
        <p className="muted">
          Members log in through your identity provider with OpenID Connect (Okta, Microsoft Entra ID, Google
          Workspace, Keycloak, Authentik…). Register Countersign there as a web application with this redirect
          URI, then enter the issuer, client ID and client secret it gives you.
        </p>
        <p className="stacked-label">Redirect URI</p>
        <div className="secret-box">
          <code className="breakable" data-testid="redirect-uri">
            {settings.redirectUri}
          </code>
          <CopyButton text={settings.redirectUri} label="Copy URI" />
        </div>
        <CheckField
          checked={draft.enabled}
          onChange={(on) => {
            set("enabled", on);
            // Without single sign-on, passwords are the only way in.
            if (!on) set("passwordLoginEnabled", true);
          }}
        >
          Members may log in through the identity provider
        </CheckField>
        <TextField
          label="Issuer URL"
          type="url"
          placeholder="https://login.example.com/realms/acme"
          value={draft.issuer}
          maxLength={500}
          onChange={(e) => set("issuer", e.target.value)}
          error={error("issuer")}
        />
        <TextField
          label="Client ID"
          value={draft.clientId}
          maxLength={255}
          autoComplete="off"
          onChange={(e) => set("clientId", e.target.value)}
          error={error("clientId")}
        />
        <TextField
          label="Client secret"
          type="password"
          autoComplete="new-password"
          placeholder={settings.clientSecretSet ? "Stored — leave empty to keep it" : ""}
          value={draft.clientSecret}
          maxLength={1024}
          onChange={(e) => set("clientSecret", e.target.value)}
          error={error("clientSecret")}
        />
        {settings.enabled ? (
          <>
            <p className="stacked-label">Log-in link for members</p>
            <div className="secret-box">
              <code className="breakable">{settings.startUrl}</code>
              <CopyButton text={settings.startUrl} label="Copy link" />
            </div>
          </>
        ) : null}
      </div>

      <div className="card">
        <h2>Who may join</h2>
        <p className="muted">
          People whose e-mail is at one of these domains become members on their first log-in. Anyone else
          logs in through the identity provider only once they are a member (invite them under Members).
        </p>
        <TextAreaField
          label="E-mail domains allowed to join, one a line"
          rows={3}
          placeholder="example.com"
          value={draft.domains}
          onChange={(e) => set("domains", e.target.value)}
          error={domainsError}
        />
        <SelectField
          label="They join as"
          value={draft.newMemberRole}
          options={[
            { value: "member", label: "Member" },
            { value: "org_admin", label: "Organization Admin" },
          ]}
          onChange={(role) => set("newMemberRole", role)}
        />
      </div>

      <div className="card">
        <h2>Password log-in</h2>
        <label className="check switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={draft.passwordLoginEnabled}
            checked={draft.passwordLoginEnabled}
            disabled={draft.passwordLoginEnabled && !mayTurnPasswordOff}
            aria-describedby="password-login-note"
            onChange={(e) => set("passwordLoginEnabled", e.target.checked)}
          />{" "}
          Members may also log in with a password
        </label>
        <p className="muted small" id="password-login-note">
          {!draft.passwordLoginEnabled
            ? "Off: passwords stop working for this workspace at once, in sessions already open too. The operator can switch them back on with the CLI."
            : mayTurnPasswordOff
              ? "Switched off, passwords stop working for this workspace at once, in sessions already open too; members log in through the identity provider only."
              : "To switch it off, save single sign-on, log out, log in again with “Use single sign-on”, and switch it off here: that proves the settings work, so nobody is locked out."}
        </p>
      </div>

      {save.error && !error("issuer") && !error("clientId") && !error("clientSecret") && !domainsError ? (
        <ErrorNote error={save.error} />
      ) : null}
      {saved ? (
        <p className="note success" role="status">
          Saved.{" "}
          {!settings.enabled
            ? "Single sign-on is off."
            : saved === "asked provider"
              ? "The identity provider answered, and members can log in through it."
              : ""}
        </p>
      ) : null}
      <div className="button-row">
        <BusyButton type="submit" busy={save.busy !== undefined} className="button primary">
          {save.busy ? "Checking the identity provider…" : "Save single sign-on"}
        </BusyButton>
        {settings.updatedAt ? (
          <span className="muted small">
            Last saved <When at={settings.updatedAt} />
          </span>
        ) : null}
      </div>
    </form>
  );
}
