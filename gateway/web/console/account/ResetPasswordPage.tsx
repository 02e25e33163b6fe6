/** A reset link: a new password, twice; then log-in with it (every session ended). */
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { api } from "../api";
import { BusyButton, ErrorNote, TextField, useAction } from "../ui";
import { AccountCard } from "./AccountCard";
import { useLinkToken } from "./useLinkToken";

export function ResetPasswordPage() {
  const token = useLinkToken();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== again);
    if (password !== again) return;
    void run("reset", async () => {
      await api.POST("/password-reset/complete", { body: { token, password } });
      setDone(true);
    });
  };
  const dead = !token || error?.status === 404;
  return (
    <AccountCard title="Choose a new password">
      {done ? (
        <p className="note success" role="status">
          Your password is changed, and you are logged out everywhere. Log in with the new one.
        </p>
      ) : dead ? (
        <p className="note info" role="alert">
          This link no longer works: it was used, or it expired (a link works for an hour). Ask for a new one.
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error?.about("password")}
          />
          <TextField
            label="The new password again"
            type="password"
            autoComplete="new-password"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            error={mismatch ? "The two passwords differ." : undefined}
          />
          {error && !error.about("password") ? <ErrorNote error={error} /> : null}
          <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
            Set the new password
          </BusyButton>
        </form>
      )}
      <p className="small">
        {dead && !done ? (
          <Link href="/forgot-password" className="link">
            Ask for a new link
          </Link>
        ) : (
          <Link href="/" className="link">
            Go to log-in
          </Link>
        )}
      </p>
    </AccountCard>
  );
}
