/**
 * What the console reads, cached by TanStack Query under keys declared here and nowhere else: a
 * key names its resource first and what narrows it after, so that a change invalidates exactly the
 * reads it makes stale (a request sent: that request, its audit trail and the lists of requests).
 */
import { QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { ApiError } from "./api";

/** What a list read is narrowed by (page, filters), as the route's query takes it. */
type Narrowing = Record<string, unknown>;

const workspace = (workspaceId: string) => ["workspaces", workspaceId] as const;

const requests = (w: string) => [...workspace(w), "signature-requests"] as const;
const request = (w: string, requestId: string) => [...requests(w), "one", requestId] as const;
const templates = (w: string) => [...workspace(w), "templates"] as const;
const bulkSends = (w: string) => [...workspace(w), "bulk-sends"] as const;
const bulkSend = (w: string, bulkSendId: string) => [...bulkSends(w), "one", bulkSendId] as const;
const webhookEndpoints = (w: string) => [...workspace(w), "webhook-endpoints"] as const;

export const keys = {
  requestLists: (w: string) => [...requests(w), "list"] as const,
  requestList: (w: string, query: Narrowing) => [...requests(w), "list", query] as const,
  /** The request, and under it what is read about it (its audit trail). */
  request,
  auditTrail: (w: string, requestId: string) => [...request(w, requestId), "audit-trail"] as const,
  /** A request with its documents, as a new one copies it. */
  requestCopy: (w: string, requestId: string) => [...request(w, requestId), "copy"] as const,
  approvalRights: (w: string) => [...workspace(w), "approval-rights"] as const,

  templates,
  templateList: (w: string, query: Narrowing) => [...templates(w), "list", query] as const,
  /** The templates offered for a new request, with the one its address asks for. */
  templateChoices: (w: string, chosen: string) => [...templates(w), "choices", chosen] as const,
  /** A template with its document, as the editor opens it. */
  templateDraft: (w: string, templateId: string) => [...templates(w), "one", templateId] as const,
  documentList: (w: string, query: Narrowing) => [...workspace(w), "documents", "list", query] as const,

  bulkSends,
  bulkSendList: (w: string, query: Narrowing) => [...bulkSends(w), "list", query] as const,
  /** The batch, and under it its rows. */
  bulkSend,
  bulkSendRows: (w: string, bulkSendId: string, query: Narrowing) =>
    [...bulkSend(w, bulkSendId), "rows", query] as const,

  apiKeys: (w: string) => [...workspace(w), "api-keys"] as const,
  apiUsage: (w: string, days: string) => [...workspace(w), "api-usage", days] as const,
  recentErrors: (w: string) => [...workspace(w), "recent-errors"] as const,
  configuration: (w: string) => [...workspace(w), "configuration"] as const,
  embedding: (w: string) => [...workspace(w), "embedding-settings"] as const,
  branding: (w: string) => [...workspace(w), "branding"] as const,
  sealCertificate: (w: string) => [...workspace(w), "seal-certificate"] as const,
  integrations: (w: string) => [...workspace(w), "integrations"] as const,
  webhookEndpoints,
  webhookMessageLists: (w: string, endpointId: string) =>
    [...webhookEndpoints(w), endpointId, "messages"] as const,
  webhookMessages: (w: string, endpointId: string, query: Narrowing) =>
    [...webhookEndpoints(w), endpointId, "messages", query] as const,

  members: (w: string) => [...workspace(w), "members"] as const,
  invitations: (w: string) => [...workspace(w), "invitations"] as const,
  workspaceAudit: (w: string) => [...workspace(w), "audit"] as const,
  requestSettings: (w: string) => [...workspace(w), "request-settings"] as const,
  singleSignOn: (w: string) => [...workspace(w), "single-sign-on"] as const,

  /** Read without a session, by what the link carries. */
  invitation: (token: string) => ["invitation", token] as const,
  consent: (query: Narrowing) => ["oauth-consent", query] as const,
};

/** What a change to one request makes stale: it with its audit trail, and the lists it shows in. */
export const afterRequestChange = (w: string, requestId: string): QueryKey[] => [
  keys.request(w, requestId),
  keys.requestLists(w),
];

/** A refused call (4xx) answers the same when asked again; a failed server or network may not. */
const worthRetrying = (failures: number, error: Error) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

/**
 * The console's one cache. A tab coming back into focus does not read again (a form being edited
 * would change under its user); pages that follow something in motion poll instead.
 */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: worthRetrying },
      mutations: { retry: false },
    },
  });
}

/** Marks the reads under these keys stale; those on screen read again, keeping what they show meanwhile. */
export function useInvalidate(): (...stale: QueryKey[]) => void {
  const client = useQueryClient();
  return useCallback(
    (...stale: QueryKey[]) => {
      for (const queryKey of stale) void client.invalidateQueries({ queryKey });
    },
    [client],
  );
}
