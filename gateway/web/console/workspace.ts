import { createContext, useContext } from "react";
import type { Workspace } from "./types";

/** Where the gateway serves the console; wouter's "~" paths start from the site's root. */
export const CONSOLE_BASE = "/console";

/** An absolute in-app path to a page of a workspace. */
export const workspacePath = (workspaceId: string, rest = "") => `~${CONSOLE_BASE}/w/${workspaceId}${rest}`;

export const WorkspaceContext = createContext<Workspace | null>(null);

/** The workspace the page is in (from the address: /console/w/{id}/...). */
export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace outside a workspace");
  return workspace;
}

/** Why Settings → Developer cannot be used in this workspace, or undefined when it can. */
export function developerBlockedBecause(workspace: Workspace): string | undefined {
  if (workspace.role !== "org_admin") {
    return "Settings → Developer is for Organization Admins. Ask one of your workspace's admins for access.";
  }
  if (!workspace.apiAccessEnabled) {
    return "API access is turned off for this workspace, so API keys and webhooks cannot be used. Turn it on in Team → Workspace.";
  }
  return undefined;
}
