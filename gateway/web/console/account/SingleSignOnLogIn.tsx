/**
 * The log-in page's way through an identity provider: the person gives their work e-mail, the
 * workspaces whose single sign-on takes its domain are found, and the browser goes to the one they
 * choose (straight on when there is one). A log-in the gateway refused comes back here with a word
 * for why in `?sso_error=`, said in full.
 */
import { type FormEvent, useState } from "react";
import { call } from "../api";
import type { SingleSignOnChoices } from "../types";
import { BusyButton, TextField, useAction } from "../ui";

const REFUSALS: Record<string, string> = {
  expired: "That log-in took too long, or was started in another browser or tab. Start it again from here.",
  provider:
    "Your identity provider did not log you in. If you cancelled there, start again; otherwise ask your Organization Admin.",
  rejected:
    "Your identity provider's answer did not pass our security checks, so you were not logged in. Your Organization Admin can see why in Settings → Workspace.",
  not_allowed:
    "You are not a member of that workspace, and your e-mail's domain may not join it. Ask an Organization Admin to invite you.",
  unavailable:
    "Single sign-on is not available right now: the identity provider did not answer, or it was switched off. Try again, or log in with your password.",
  busy: "Too many log-in attempts. Wait a minute, then try again.",
};

/** The refusal the gateway sent the browser back with, read once: a reload does not show it again. */
export function takeSingleSignOnRefusal(): string | undefined {
  const url = new URL(window.location.href);
  const word = url.searchParams.get("sso_error");
  if (word === null) return undefined;
  url.searchParams.delete("sso_error");
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  return REFUSALS[word] ?? "Single sign-on did not log you in. Try again, or ask your Organization Admin.";
}

export function SingleSignOnLogIn({ email, onEmail }: { email: string; onEmail: (email: string) => void }) {
  const [choices, setChoices] = useState<SingleSignOnChoices["items"]>();
  const { busy, error, run } = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("find", async () => {
      const found = await call<SingleSignOnChoices>("/single-sign-on/search", {
        method: "POST",
        json: { email: email.trim() },
      });
      if (found.items.length === 1 && found.items[0]) window.location.assign(found.items[0].startUrl);
      else setChoices(found.items);
    });
  };

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
      {choices && choices.length > 1 ? (
        <fieldset className="stack plain-fieldset">
          <legend className="small">Choose the workspace to log in to:</legend>
          {choices.map((choice) => (
            <a key={choice.workspaceId} className="button secondary wide" href={choice.startUrl}>
              {choice.name}
            </a>
          ))}
        </fieldset>
      ) : null}
      <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
        {busy ? "Finding your workspace…" : "Continue with single sign-on"}
      </BusyButton>
    </form>
  );
}
