import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { AccountCard } from "./account/AccountCard";
import {
  SingleSignOnLogIn,
  takeSingleSignOnLink,
  takeSingleSignOnRefusal,
} from "./account/SingleSignOnLogIn";
import { useSession } from "./session";
import { BusyButton, TextField, useAction } from "./ui";

export function LoginPage({ ended }: { ended: boolean }) {
  const [refusal] = useState(takeSingleSignOnRefusal);
  const [linked, setLinked] = useState(takeSingleSignOnLink);
  const [way, setWay] = useState<"password" | "single-sign-on">(
    refusal || linked ? "single-sign-on" : "password",
  );
  const [email, setEmail] = useState("");

  return (
    <AccountCard title="Log in">
      {ended ? (
        <p className="note info" role="status">
          Your session ended. Log in again to continue.
        </p>
      ) : null}
      {refusal ? (
        <p className="note error" role="alert" data-testid="sso-refusal">
          {refusal}
        </p>
      ) : null}
      {way === "password" ? (
        <PasswordLogIn email={email} onEmail={setEmail} />
      ) : (
        <SingleSignOnLogIn email={email} onEmail={setEmail} startUrl={linked} />
      )}
      <p className="or-line" aria-hidden="true">
        or
      </p>
      <button
        type="button"
        className="button secondary wide"
        onClick={() => {
          setLinked(undefined);
          setWay(way === "password" ? "single-sign-on" : "password");
        }}
      >
        {way === "password" ? "Use single sign-on" : "Use your password"}
      </button>
    </AccountCard>
  );
}

function PasswordLogIn({ email, onEmail }: { email: string; onEmail: (email: string) => void }) {
  const { logIn } = useSession();
  const [password, setPassword] = useState("");
  const [shown, setShown] = useState(false);
  const { busy, error, run } = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("log-in", () => logIn(email.trim(), password));
  };

  const message = !error
    ? undefined
    : error.status === 401
      ? "That e-mail and password do not match an account."
      : error.status === 429
        ? "Too many attempts. Wait a minute, then try again."
        : error.detail;

  return (
    <form onSubmit={submit}>
      <TextField
        label="E-mail"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => onEmail(e.target.value)}
      />
      <TextField
        label="Password"
        type={shown ? "text" : "password"}
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <label className="check">
        <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} /> Show password
      </label>
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
      <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
        {busy ? "Logging in…" : "Log in"}
      </BusyButton>
      <p className="small">
        <Link href="/forgot-password" className="link">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}
