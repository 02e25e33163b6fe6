/**
 * The console's calls to the gateway: JSON in and out, the CSRF cookie echoed on every
 * state-changing call, problem details turned into an ApiError the pages can show, and a 401
 * announced once so that the app can ask the user to log in again.
 */

export interface Violation {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: Violation[] = [],
    readonly requestId = "",
  ) {
    super(detail);
  }

  /** The message for a field, by its path in the body ("url", "eventTypes[1]"). */
  about(path: string): string | undefined {
    return this.errors.find((e) => e.path === path || e.path.startsWith(`${path}[`))?.message;
  }
}

/** Whatever a call threw, as an ApiError the pages can show. */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, "unknown", String(error));
}

export const SESSION_ENDED = "countersign:session-ended";

function csrfToken(): string {
  const pair = document.cookie.split("; ").find((c) => c.startsWith("cs_csrf="));
  return pair ? decodeURIComponent(pair.slice("cs_csrf=".length)) : "";
}

interface CallOptions {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (a PDF upload), with its own type. */
  raw?: { body: Blob; type: string };
}

export async function call<T>(path: string, { method = "GET", json, raw }: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (raw) {
    headers["Content-Type"] = raw.type;
    body = raw.body;
  }
  let response: Response;
  try {
    response = await fetch(`/console/api${path}`, { method, headers, body, credentials: "same-origin" });
  } catch {
    throw new ApiError(
      0,
      "network",
      "Countersign could not be reached. Check your connection and try again.",
    );
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed = text ? safeJson(text) : undefined;
  if (response.ok) return parsed as T;
  const problem = (parsed ?? {}) as Partial<{
    code: string;
    detail: string;
    title: string;
    errors: Violation[];
    requestId: string;
  }>;
  const error = new ApiError(
    response.status,
    problem.code ?? "unknown",
    problem.detail ?? problem.title ?? `The server answered ${response.status}.`,
    problem.errors ?? [],
    problem.requestId ?? response.headers.get("x-request-id") ?? "",
  );
  if (response.status === 401 && !path.startsWith("/session")) window.dispatchEvent(new Event(SESSION_ENDED));
  throw error;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The workspace-scoped part of the console API. */
export const inWorkspace = (workspaceId: string, path: string) => `/workspaces/${workspaceId}${path}`;
