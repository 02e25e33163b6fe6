import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { useSession } from "./session";
import { BusyButton, TextField, useAction } from "./ui";

export function LoginPage({ ended }: { ended: boolean }) {
  const { logIn } = useSession();
  const [email, setEmail] = useState("");
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
    <main className="login">
      <form className="card login-card" onSubmit={submit}>
        <p className="brand" aria-hidden="true">
          <span className="brand-mark">C</span> Countersign
        </p>
        <h1>Log in</h1>
        {ended ? (
          <p className="note info" role="status">
            Your session ended. Log in again to continue.
          </p>
        ) : null}
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
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
    </main>
  );
}
