/** An invitation's link: what it invites to, then a password (new, or the log-in's own) to accept. */
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys } from "../queries";
import { useSession } from "../session";
import type { InvitationView } from "../types";
import { BusyButton, ErrorNote, Show, TextField, useAction, useLoaded } from "../ui";
import { workspacePath } from "../workspace";
import { AccountCard } from "./AccountCard";
import { useLinkToken } from "./useLinkToken";

export function InvitationPage() {
  const token = useLinkToken();
  const [loaded, reload] = useLoaded(keys.invitation(token), () =>
    ok(api.POST("/invitations/lookup", { body: { token } })),
  );
  if (!token) {
    return (
      <AccountCard title="Invitation">
        <DeadLink />
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Join a workspace">
      {loaded.state === "failed" && loaded.error.status === 404 ? (
        <DeadLink />
      ) : (
        <Show loaded={loaded} what="the invitation" onRetry={reload}>
          {(invitation) => <Accept token={token} invitation={invitation} />}
        </Show>
      )}
    </AccountCard>
  );
}

function DeadLink() {
  return (
    <>
      <p className="note info" role="alert">
        This invitation link no longer works: it was used, withdrawn or replaced by a newer one, or it
        expired. Ask the person who invited you to send it again.
      </p>
      <Link href="/" className="button secondary wide">
        Go to log-in
      </Link>
    </>
  );
}

function Accept({ token, invitation }: { token: string; invitation: InvitationView }) {
  const { adopt } = useSession();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState("");
  const [shown, setShown] = useState(false);
  const { busy, error, run } = useAction();
  const by = invitation.invitedBy === "operator" ? "The operator" : invitation.invitedBy;
  const role = invitation.role === "org_admin" ? "an Organization Admin" : "a Member";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("accept", async () => {
      const session = await ok(api.POST("/invitations/accept", { body: { token, password } }));
      const joined =
        session.workspaces.find((w) => w.name === invitation.workspaceName) ?? session.workspaces[0];
      adopt(session);
      navigate(joined ? workspacePath(joined.id, "/requests") : "/");
    });
  };
  const message =
    error?.status === 401
      ? "That is not the password of this log-in."
      : error?.status === 429
        ? "Too many attempts. Wait a minute, then try again."
        : error?.about("password");
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {by} invited <strong>{invitation.email}</strong> to <strong>{invitation.workspaceName}</strong> as{" "}
        {role}.
      </p>
      <p className="muted small">
        {invitation.hasLogIn
          ? "This address has a Countersign log-in: enter its password to join."
          : "Choose a password for your new log-in: at least 10 characters."}
      </p>
      <TextField
        label={invitation.hasLogIn ? "Password" : "New password"}
        type={shown ? "text" : "password"}
        autoComplete={invitation.hasLogIn ? "current-password" : "new-password"}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={message}
      />
      <label className="check">
        <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} /> Show password
      </label>
      {error && !message ? <ErrorNote error={error} /> : null}
      <BusyButton type="submit" busy={busy !== undefined} className="button primary wide">
        Join {invitation.workspaceName}
      </BusyButton>
    </form>
  );
}
