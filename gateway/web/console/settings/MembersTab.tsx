/** Settings → Members: who is in the workspace and with what role; invitations by e-mail. */

import { isolate } from "@countersign/domain/web";
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { FormDialog } from "../FormDialog";
import { Rows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import { useSession } from "../session";
import type { Invitation, Member, Role } from "../types";
import {
  BusyButton,
  Confirm,
  Empty,
  ErrorNote,
  SelectField,
  Show,
  TextField,
  useAction,
  useLoaded,
  When,
} from "../ui";
import { useWorkspace } from "../workspace";

const ROLES: { value: Role; label: string }[] = [
  { value: "member", label: "Member" },
  { value: "org_admin", label: "Organization Admin" },
];
const roleLabel = (role: Role) => (role === "org_admin" ? "Organization Admin" : "Member");

export function MembersTab() {
  const workspace = useWorkspace();
  const { current, recheck } = useSession();
  const me = current.state === "signed-in" ? current.session.user.id : "";
  const [members, reloadMembers] = useLoaded(keys.members(workspace.id), () =>
    ok(api.GET("/workspaces/{workspaceId}/members", { params: { path: { workspaceId: workspace.id } } })),
  );
  const invalidate = useInvalidate();
  const [invitations, reloadInvitations] = useLoaded(keys.invitations(workspace.id), () =>
    ok(api.GET("/workspaces/{workspaceId}/invitations", { params: { path: { workspaceId: workspace.id } } })),
  );
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<string>();
  const [removing, setRemoving] = useState<Member>();
  const [withdrawing, setWithdrawing] = useState<Invitation>();
  const rowAction = useAction();

  const changeRole = (member: Member, role: Role) =>
    void rowAction.run(member.userId, async () => {
      await api.PATCH("/workspaces/{workspaceId}/members/{userId}", {
        params: { path: { workspaceId: workspace.id, userId: member.userId } },
        body: { role },
      });
      invalidate(keys.members(workspace.id));
      // Their own role changed: what the console shows them changes with it.
      if (member.userId === me) recheck();
    });
  const resend = (invitation: Invitation) =>
    void rowAction.run(invitation.id, async () => {
      await api.POST("/workspaces/{workspaceId}/invitations", {
        params: { path: { workspaceId: workspace.id } },
        body: { email: invitation.email, role: invitation.role },
      });
      setSent(invitation.email);
      invalidate(keys.invitations(workspace.id));
    });

  return (
    <div className="stack">
      <div className="card">
        <CardHead
          title="Members"
          description="Organization Admins run the workspace: its members, API access and developer settings. Members work with templates and signature requests."
          action={{ label: "Invite people", onClick: () => setInviting(true) }}
        />
        {sent ? (
          <p className="note success" role="status">
            Invitation sent to <bdi>{sent}</bdi>. Its link works once, for seven days.
          </p>
        ) : null}
        {rowAction.error ? <ErrorNote error={rowAction.error} /> : null}
        <Show loaded={members} what="members" onRetry={reloadMembers}>
          {({ items }) => (
            <ul className="rows" data-testid="members">
              {items.map((member) => (
                <li key={member.userId} className="row member-row">
                  <div>
                    <p className="row-title">
                      {member.email}
                      {member.userId === me ? <span className="badge">You</span> : null}
                    </p>
                    <p className="muted small">
                      Joined <When at={member.joinedAt} dateOnly />
                    </p>
                  </div>
                  <div className="row-actions">
                    <SelectField
                      label={`Role of ${member.email}`}
                      small
                      value={member.role}
                      options={ROLES}
                      onChange={(role) => changeRole(member, role)}
                    />
                    <button
                      type="button"
                      className="button secondary small"
                      disabled={rowAction.busy !== undefined}
                      onClick={() => setRemoving(member)}
                      aria-label={`Remove ${member.email}`}
                    >
                      Remove
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Show>
      </div>

      <div className="card">
        <h2>Invitations</h2>
        <Rows
          loaded={invitations}
          what="invitations"
          onRetry={reloadInvitations}
          testId="invitations"
          empty={
            <Empty title="No invitations waiting">People you invite are listed here until they accept.</Empty>
          }
        >
          {(invitation) => (
            <li key={invitation.id} className="row">
              <div>
                <p className="row-title">
                  {invitation.email} <span className="badge">{roleLabel(invitation.role)}</span>{" "}
                  {invitation.expired ? <span className="badge danger">Expired</span> : null}
                </p>
                <p className="muted small">
                  Invited by{" "}
                  {invitation.invitedBy === "operator" ? "the operator (CLI)" : invitation.invitedBy}{" "}
                  <When at={invitation.createdAt} /> · {invitation.expired ? "expired" : "link works until"}{" "}
                  <When at={invitation.expiresAt} />
                </p>
              </div>
              <div className="row-actions">
                <BusyButton
                  className="button secondary small"
                  busy={rowAction.busy === invitation.id}
                  onClick={() => resend(invitation)}
                  aria-label={`Send again: the invitation to ${invitation.email}`}
                >
                  Send again
                </BusyButton>
                <button
                  type="button"
                  className="button secondary small"
                  onClick={() => setWithdrawing(invitation)}
                  aria-label={`Withdraw the invitation to ${invitation.email}`}
                >
                  Withdraw
                </button>
              </div>
            </li>
          )}
        </Rows>
      </div>

      {inviting ? (
        <InviteDialog
          workspaceId={workspace.id}
          onClose={() => setInviting(false)}
          onSent={(email) => {
            setInviting(false);
            setSent(email);
            invalidate(keys.invitations(workspace.id));
          }}
        />
      ) : null}
      {removing ? (
        <Confirm
          title={`Remove ${isolate(removing.email)}?`}
          description={
            removing.userId === me
              ? `You will no longer see “${isolate(workspace.name)}”. Another Organization Admin can invite you again.`
              : `They can no longer open “${isolate(workspace.name)}”; their log-in and other workspaces stay. You can invite them again.`
          }
          confirmLabel="Remove"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/members/{userId}", {
              params: { path: { workspaceId: workspace.id, userId: removing.userId } },
            });
            if (removing.userId === me) recheck();
            else invalidate(keys.members(workspace.id));
          }}
          onClose={() => setRemoving(undefined)}
        />
      ) : null}
      {withdrawing ? (
        <Confirm
          title={`Withdraw the invitation to ${isolate(withdrawing.email)}?`}
          description="Its link stops working at once. You can invite them again later."
          confirmLabel="Withdraw"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/invitations/{invitationId}", {
              params: { path: { workspaceId: workspace.id, invitationId: withdrawing.id } },
            });
            invalidate(keys.invitations(workspace.id));
          }}
          onClose={() => setWithdrawing(undefined)}
        />
      ) : null}
    </div>
  );
}

function InviteDialog({
  workspaceId,
  onClose,
  onSent,
}: {
  workspaceId: string;
  onClose: () => void;
  onSent: (email: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [missing, setMissing] = useState(false);
  const { busy, error, run } = useAction();
  const emailError = missing
    ? "Enter the e-mail address to invite."
    : (error?.about("email") ?? (error?.status === 409 ? error.detail : undefined));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMissing(!email.trim());
    if (!email.trim()) return;
    void run("invite", async () => {
      await api.POST("/workspaces/{workspaceId}/invitations", {
        params: { path: { workspaceId } },
        body: { email: email.trim(), role },
      });
      onSent(email.trim());
    });
  };
  return (
    <FormDialog
      title="Invite people"
      description="They get an e-mail with a link to join; it works once, for seven days."
      onClose={onClose}
      testId="invite-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Send invitation"
    >
      <TextField
        label="E-mail"
        type="email"
        value={email}
        maxLength={320}
        onChange={(e) => setEmail(e.target.value)}
        error={emailError}
        placeholder="colleague@example.com"
      />
      <SelectField label="Role" value={role} options={ROLES} onChange={setRole} />
      {error && !emailError ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}
