/** An audit entry of the workspace's administration as a sentence: who did what to whom. */
import type { WorkspaceAuditEntry } from "../types";

const VERBS: Record<string, (target: string) => string> = {
  "member.added": (t) => `added ${t}`,
  "member.invited": (t) => `invited ${t}`,
  "member.joined": () => "joined the workspace",
  "member.role_changed": (t) => `changed the role of ${t}`,
  "member.removed": (t) => `removed ${t}`,
  "invitation.revoked": (t) => `withdrew the invitation of ${t}`,
  "workspace.renamed": (t) => `renamed the workspace “${t}”`,
  "workspace.api_access_enabled": () => "turned API access on",
  "workspace.api_access_disabled": () => "turned API access off",
  "api_key.created": (t) => `created the API key “${t}”`,
  "api_key.deleted": (t) => `deleted the API key “${t}”`,
  "integration.created": (t) => `registered the integration “${t}”`,
  "integration.deleted": (t) => `deleted the integration “${t}”`,
  "integration.consent_granted": (t) => `consented to the integration “${t}” acting as them`,
  "integration.consent_withdrawn": (t) => `withdrew a consent to the integration “${t}”`,
  "single_sign_on.changed": () => "changed single sign-on",
  "single_sign_on.refused": (t) =>
    t ? `was refused log-in through ${t}` : "was refused log-in through single sign-on",
};

/** The operator (the CLI) has no e-mail; it is named as what it is. */
export const actorName = (actor: string) => (actor === "operator" ? "The operator (CLI)" : actor);

export function auditSentence(entry: Pick<WorkspaceAuditEntry, "actor" | "action" | "target">): string {
  const verb = VERBS[entry.action];
  return `${actorName(entry.actor)} ${verb ? verb(entry.target) : `${entry.action} ${entry.target}`}`;
}
