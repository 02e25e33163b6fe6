/**
 * Settings → Branding: how the workspace's signing pages and e-mails look to its recipients — its
 * colour, its logo, whether our name shows, the name and address e-mails come from (the address once
 * its domain proved it is the workspace's, by a TXT record this tab states with the SPF and DKIM facts)
 * — with a preview of the page's header and button as they will be. A colour white text cannot be read
 * on is refused as it is typed, in the words the API uses.
 */
import { brandColorOf, brandShades, LOGO_LIMITS, MAX_SENDER_NAME } from "@countersign/domain/web";
import { type CSSProperties, type FormEvent, useId, useRef, useState } from "react";
import { ok } from "../../shared/api-client";
import { onOwnOrigin } from "../../shared/own-origin";
import { api } from "../api";
import { base64Of } from "../files";
import { keys } from "../queries";
import type { Branding } from "../types";
import {
  BusyButton,
  CheckField,
  CopyButton,
  ErrorNote,
  FieldError,
  Show,
  TextField,
  useAction,
  useLoaded,
} from "../ui";
import { useWorkspace } from "../workspace";

/** Our own colour, which a workspace's replaces. */
const OURS = "#2451b7";

export function BrandingTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(
    keys.branding(workspace.id),
    () =>
      ok(api.GET("/workspaces/{workspaceId}/branding", { params: { path: { workspaceId: workspace.id } } })),
    { seedsForm: true },
  );
  return (
    <Show loaded={loaded} what="the branding" onRetry={reload}>
      {(branding) => <BrandingForms loaded={branding} />}
    </Show>
  );
}

function BrandingForms({ loaded }: { loaded: Branding }) {
  const [kept, setKept] = useState(loaded);
  const [color, setColor] = useState(loaded.accentColor ?? "");
  const [hideName, setHideName] = useState(loaded.hideProductName);
  const shown = color.trim() === "" ? undefined : brandColorOf(color);
  const preview = shown && "color" in shown ? shown.color : (kept.accentColor ?? OURS);
  return (
    <div className="stack" data-testid="branding">
      <ColourForm
        kept={kept}
        color={color}
        hideName={hideName}
        problem={shown && "message" in shown ? `The colour ${shown.message}.` : undefined}
        onColor={setColor}
        onHideName={setHideName}
        onSaved={(branding) => {
          setKept(branding);
          setColor(branding.accentColor ?? "");
          setHideName(branding.hideProductName);
        }}
      />
      {kept.emailDomain ? <SendingDomain domain={kept.emailDomain} onVerified={setKept} /> : null}
      <LogoForm kept={kept} onSaved={setKept} />
      <Preview color={preview} logoUrl={kept.logoUrl} hideName={hideName} />
    </div>
  );
}

interface ColourFormProps {
  kept: Branding;
  color: string;
  hideName: boolean;
  problem: string | undefined;
  onColor: (color: string) => void;
  onHideName: (hide: boolean) => void;
  onSaved: (branding: Branding) => void;
}

function ColourForm({ kept, color, hideName, problem, onColor, onHideName, onSaved }: ColourFormProps) {
  const workspace = useWorkspace();
  const save = useAction();
  const [saved, setSaved] = useState(false);
  const id = useId();
  const errorId = useId();
  const [senderName, setSenderName] = useState(kept.emailSenderName ?? "");
  const [senderAddress, setSenderAddress] = useState(kept.emailSenderAddress ?? "");
  const typed = color.trim().toLowerCase();
  const changed =
    typed !== (kept.accentColor ?? "") ||
    hideName !== kept.hideProductName ||
    senderName.trim() !== (kept.emailSenderName ?? "") ||
    senderAddress.trim() !== (kept.emailSenderAddress ?? "");
  const error = problem ?? save.error?.about("accentColor");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setSaved(false);
    void save.run("save", async () => {
      const answer = await ok(
        api.PUT("/workspaces/{workspaceId}/branding", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            accentColor: typed === "" ? null : typed,
            hideProductName: hideName,
            emailSenderName: senderName.trim() === "" ? null : senderName.trim(),
            emailSenderAddress: senderAddress.trim() === "" ? null : senderAddress.trim(),
          },
        }),
      );
      onSaved(answer);
      setSenderName(answer.emailSenderName ?? "");
      setSenderAddress(answer.emailSenderAddress ?? "");
      setSaved(true);
    });
  };
  const picked = typed.match(/^#[0-9a-f]{6}$/) ? typed : (kept.accentColor ?? OURS);
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="branding-colour">
      <h2>Colour and names</h2>
      <p className="muted">
        The signing page's buttons, links and focus rings take your colour. White text must read on it (a
        contrast of 4.5:1 or more), so a light colour is refused: choose a darker shade of it.
      </p>
      <label className="stacked-label" htmlFor={id}>
        Colour <span className="required-word">(#rrggbb; empty for ours)</span>
      </label>
      <div className="colour-row">
        <input
          type="color"
          className="colour-swatch"
          aria-label="Pick the colour"
          value={picked}
          onChange={(e) => {
            onColor(e.target.value);
            setSaved(false);
          }}
        />
        <input
          id={id}
          className="input"
          value={color}
          placeholder={OURS}
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            onColor(e.target.value);
            setSaved(false);
          }}
        />
      </div>
      <FieldError id={errorId} message={error} />
      <CheckField
        checked={hideName}
        onChange={(hide) => {
          onHideName(hide);
          setSaved(false);
        }}
      >
        Leave Countersign's name off the signing pages and e-mails
      </CheckField>
      <TextField
        label="Name e-mails come from"
        maxLength={MAX_SENDER_NAME}
        value={senderName}
        placeholder="Acme Leasing"
        onChange={(e) => {
          setSenderName(e.target.value);
          setSaved(false);
        }}
        error={save.error?.about("emailSenderName")}
      />
      <p className="muted" data-testid="sender-facts">
        Needed to leave our name off; empty, e-mails come from “<em>sender</em> via Countersign”. Replies go
        to the person who sent the request.
      </p>
      <TextField
        label="Address e-mails come from"
        type="email"
        maxLength={254}
        value={senderAddress}
        placeholder="contracts@acme.example"
        onChange={(e) => {
          setSenderAddress(e.target.value);
          setSaved(false);
        }}
        error={save.error?.about("emailSenderAddress")}
      />
      <p className="muted">
        Empty, e-mails come from this deployment's own address, which needs nothing of your DNS. Your own
        address is used once its domain proves it is yours, by a TXT record shown after you save.
      </p>
      <div className="button-row">
        <BusyButton type="submit" busy={save.busy !== undefined} disabled={!changed}>
          Save
        </BusyButton>
      </div>
      {saved ? (
        <p className="note success" role="status">
          Saved. Signing pages opened and e-mails sent from now on show it.
        </p>
      ) : null}
      {save.error && !error ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}

type EmailDomain = NonNullable<Branding["emailDomain"]>;

/** The record a sending domain publishes, the facts its SPF and DKIM need, and the check. */
function SendingDomain({
  domain,
  onVerified,
}: {
  domain: EmailDomain;
  onVerified: (branding: Branding) => void;
}) {
  const workspace = useWorkspace();
  const verify = useAction();
  return (
    <section className="card" data-testid="sending-domain" aria-labelledby="sending-domain-title">
      <h2 id="sending-domain-title">
        Sending domain <code>{domain.domain}</code>{" "}
        {domain.verified ? (
          <span className="badge success">Verified</span>
        ) : (
          <span className="badge warning">Not verified</span>
        )}
      </h2>
      <p className="muted">
        {domain.verified
          ? "E-mails to recipients come from your address. Changing its domain asks for a new record."
          : "Until the record below is found, e-mails come from this deployment's own address."}
      </p>
      <dl className="facts">
        <dt>TXT record</dt>
        <dd>
          <code className="break">{domain.txtName}</code>{" "}
          <CopyButton text={domain.txtName} label="Copy name" />
        </dd>
        <dt>Its value</dt>
        <dd>
          <code className="break">{domain.txtValue}</code>{" "}
          <CopyButton text={domain.txtValue} label="Copy value" />
        </dd>
        <dt>SPF</dt>
        <dd>
          {domain.relay ? (
            <>
              Mail is handed to <code>{domain.relay}</code>: your domain's SPF record must allow its senders —
              add the <code>include:</code> your mail provider gives you.
            </>
          ) : (
            "This deployment writes e-mails to its outbox: nothing is sent yet."
          )}
        </dd>
        <dt>DKIM</dt>
        <dd>
          Ask the provider to sign mail for <code>{domain.domain}</code> and publish the key it gives you, so
          that DMARC accepts your address in the From line.
        </dd>
        <dt>Bounces</dt>
        <dd>
          Go to <code>{domain.bounceAddress}</code>, the deployment's own address.
        </dd>
      </dl>
      <div className="button-row">
        <BusyButton
          type="button"
          busy={verify.busy !== undefined}
          onClick={() =>
            void verify.run("verify", async () =>
              onVerified(
                await ok(
                  api.POST("/workspaces/{workspaceId}/branding/email-domain/verify", {
                    params: { path: { workspaceId: workspace.id } },
                  }),
                ),
              ),
            )
          }
        >
          {domain.verified ? "Check again" : "Verify"}
        </BusyButton>
      </div>
      {verify.error ? <ErrorNote error={verify.error} /> : null}
    </section>
  );
}

function LogoForm({ kept, onSaved }: { kept: Branding; onSaved: (branding: Branding) => void }) {
  const workspace = useWorkspace();
  const upload = useAction();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const inputId = useId();
  const errorId = useId();
  const path = { params: { path: { workspaceId: workspace.id } } };
  const choose = (file: File | undefined) => {
    setDone(undefined);
    if (!file) return;
    if (file.size > LOGO_LIMITS.bytes) {
      setProblem(`${file.name} is ${Math.ceil(file.size / 1024)} KiB; a logo may be at most 100 KiB.`);
      return;
    }
    setProblem(undefined);
    void upload.run("upload", async () => {
      const image = await base64Of(file);
      onSaved(await ok(api.PUT("/workspaces/{workspaceId}/branding/logo", { ...path, body: { image } })));
      setDone("The logo is saved. Signing pages opened from now on show it.");
    });
  };
  const remove = () =>
    void upload.run("remove", async () => {
      onSaved(await ok(api.DELETE("/workspaces/{workspaceId}/branding/logo", path)));
      setDone("The logo is removed.");
    });
  const error = problem ?? upload.error?.about("logo");
  return (
    <div className="card" data-testid="branding-logo">
      <h2>Logo</h2>
      <p className="muted">
        Shown at the top of the signing page, up to 2rem high. A PNG or JPEG of at most 100 KiB, up to 1200 ×
        400 pixels; a transparent PNG sits best on the page.
      </p>
      {kept.logoUrl ? (
        <img
          className="logo-preview"
          src={onOwnOrigin(kept.logoUrl)}
          alt="The workspace's logo"
          data-testid="logo-preview"
        />
      ) : (
        <p className="muted">
          No logo yet: the page shows our name, or the name e-mails come from if you leave ours off.
        </p>
      )}
      <label className="stacked-label" htmlFor={inputId}>
        {kept.logoUrl ? "Replace the logo" : "Upload a logo"}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/png,image/jpeg"
        disabled={upload.busy !== undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          choose(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      <FieldError id={errorId} message={error ? `The logo ${error.replace(/^The logo /, "")}` : undefined} />
      {upload.busy === "upload" ? (
        <p className="muted" role="status">
          Uploading…
        </p>
      ) : null}
      {kept.logoUrl ? (
        <div className="button-row">
          <BusyButton
            type="button"
            className="button secondary"
            busy={upload.busy === "remove"}
            onClick={remove}
          >
            Remove the logo
          </BusyButton>
        </div>
      ) : null}
      {done ? (
        <p className="note success" role="status">
          {done}
        </p>
      ) : null}
      {upload.error && !error ? <ErrorNote error={upload.error} /> : null}
    </div>
  );
}

/** The signing page's header and its main button, as a signer will see them. */
function Preview({ color, logoUrl, hideName }: { color: string; logoUrl: string | null; hideName: boolean }) {
  const workspace = useWorkspace();
  const shades = brandShades(color);
  const style = { "--accent": shades.accent, "--accent-strong": shades.strong, "--accent-soft": shades.soft };
  return (
    <div className="card" data-testid="branding-preview">
      <h2>Preview</h2>
      <div className="brand-preview" style={style as CSSProperties}>
        <p className="brand-preview-name">
          {logoUrl ? (
            <img className="logo-preview" src={onOwnOrigin(logoUrl)} alt={workspace.name} />
          ) : hideName ? (
            workspace.name
          ) : (
            "Countersign"
          )}
        </p>
        <p className="brand-preview-title">Tenancy agreement</p>
        <p className="muted">
          From {workspace.name}. <span className="brand-preview-link">Review the documents</span>
        </p>
        <span className="button primary brand-preview-button">Finish signing</span>
      </div>
    </div>
  );
}
