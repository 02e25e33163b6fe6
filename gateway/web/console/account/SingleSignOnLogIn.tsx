/**
 * The log-in page's way through an identity provider: the person gives their work e-mail, the
 * workspaces whose single sign-on takes its domain are found, and the browser goes to the one they
 * choose — by name, always by a click: a domain names no workspace for certain. A log-in the gateway
 * refused comes back here with a word for why in `?sso_error=`, said in full; a workspace's log-in
 * link followed from another site comes back with `?sso_workspace=`, to be confirmed here.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import type { SingleSignOnChoices } from "../types";
import { BusyButton, TextField, useAction } from "../ui";

const REFUSALS: Record<string, string> = {
  expired: "That log-in took too long, or was started in another browser or tab. Start it again from here.",
  provider:
    "Your identity provider did not log you in. If you cancelled there, start again; otherwise ask your Organization Admin.",
  rejected:
    "Your identity provider's answer did not pass our security checks, so you were not logged in. Your Organization Admin can see why in Settings → Workspace, under Activity.",
  not_allowed:
    "You are not a member of that workspace, and your e-mail's domain may not join it. Ask an Organization Admin to invite you.",
  unavailable:
    "Single sign-on is not available right now: the identity provider did not answer, or it was switched off. Try again, or log in with your password.",
  busy: "Too many log-in attempts. Wait a minute, then try again.",
};

/** A parameter of the page's address, read once and taken out of it: a reload does not see it again. */
function takeParameter(name: string): string | null {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  url.searchParams.delete(name);
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  return value;
}

/** The refusal the gateway sent the browser back with, in a sentence. */
export function takeSingleSignOnRefusal(): string | undefined {
  const word = takeParameter("sso_error");
  if (word === null) return undefined;
  return REFUSALS[word] ?? "Single sign-on did not log you in. Try again, or ask your Organization Admin.";
}

/** The log-in link of a workspace that another site sent the browser to, to be confirmed by a click. */
export function takeSingleSignOnLink(): string | undefined {
  const workspaceId = takeParameter("sso_workspace");
  if (workspaceId === null || !/^[0-9a-f-]{36}$/i.test(workspaceId)) return undefined;
  return `/console/sso/start?workspace=${workspaceId}`;
}

export function SingleSignOnLogIn({
  email,
  onEmail,
  startUrl,
}: {
  email: string;
  onEmail: (email: string) => void;
  /** A workspace's log-in link to confirm, when another site sent the browser here with one. */
  startUrl?: string;
}) {
  const [choices, setChoices] = useState<SingleSignOnChoices["items"]>();
  const { busy, error, run } = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("find", async () => {
      const found = await ok(api.POST("/single-sign-on/search", { body: { email: email.trim() } }));
      setChoices(found.items);
    });
  };

  if (startUrl) {
    return (
      <div className="stack" data-testid="sso-confirm">
        <p className="note info">
          A link asks to log you in through your workspace's identity provider. Continue only if you followed
          it yourself.
        </p>
        <a className="button primary wide" href={startUrl}>
          Continue with single sign-on
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={submit} data-testid="sso-form">
      <TextField
        label="Work e-mail"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => {
          onEmail(e.target.value);
          setChoices(undefined);
        }}
        error={error?.status === 429 ? "Too many attempts. Wait a minute, then try again." : error?.detail}
      />
      {choices && choices.length === 0 ? (
        <p className="note info" role="status">
          No workspace logs in people of {email.split("@")[1] || "that domain"} through single sign-on. Log in
          with your password, or ask your Organization Admin for the workspace's log-in link.
        </p>
      ) : null}
      {choices && choices.length > 0 ? (
        <fieldset className="stack plain-fieldset" data-testid="sso-choices">
          <legend className="small">
            {choices.length === 1 ? "Your workspace:" : "Choose the workspace to log in to:"}
          </legend>
          {choices.map((choice) => (
            <a key={choice.workspaceId} className="button primary wide" href={choice.startUrl}>
              Continue to {choice.name}
            </a>
          ))}
        </fieldset>
      ) : null}
      {choices && choices.length > 0 ? null : (
        <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
          {busy ? "Finding your workspace…" : "Find my workspace"}
        </BusyButton>
      )}
    </form>
  );
}
