/** Asks for a reset link by e-mail; says the same whether or not the address has a log-in. */
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { api } from "../api";
import { BusyButton, ErrorNote, TextField, useAction } from "../ui";
import { AccountCard } from "./AccountCard";

export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string>();
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("send", async () => {
      await api.POST("/password-reset", { body: { email: email.trim() } });
      setSentTo(email.trim());
    });
  };
  const message =
    error?.status === 429 ? "Too many attempts. Wait a minute, then try again." : error?.about("email");
  return (
    <AccountCard title="Forgot your password?">
      {sentTo ? (
        <p className="note success" role="status">
          If {sentTo} has a Countersign log-in, an e-mail with a link to choose a new password is on its way.
          The link works once, for an hour.
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p className="muted small">Enter your log-in's e-mail. We send a link to choose a new password.</p>
          <TextField
            label="E-mail"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={message}
          />
          {error && !message ? <ErrorNote error={error} /> : null}
          <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
            Send the link
          </BusyButton>
        </form>
      )}
      <p className="small">
        <Link href="/" className="link">
          Back to log-in
        </Link>
      </p>
    </AccountCard>
  );
}
