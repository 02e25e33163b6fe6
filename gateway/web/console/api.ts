/**
 * The console's calls to the gateway: JSON in and out, the session's CSRF token sent on every
 * state-changing call, problem details turned into an ApiError the pages can show, and a 401
 * announced once so that the app can ask the user to log in again. `api` is the client typed from
 * the gateway's schema; a document's upload, which reports its progress, is the one call beside it.
 */
import { ApiError, createApiClient, type Problem, UNREACHABLE } from "../shared/api-client";
import type { paths } from "../shared/api-schema";
import { addressOf, embeddedView } from "./embedded/view";

export { ApiError, asApiError, type Problem, type Violation } from "../shared/api-client";

export const SESSION_ENDED = "countersign:session-ended";

/** The session's CSRF token, as log-in or GET /session answered it: in memory only, never a cookie. */
let csrfToken = "";

/** Keeps the token of the session just read or begun ("" when it ended). */
export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

/** Calls made without a session (log-in, an invitation, a password reset): their 401 ends none. */
const ANONYMOUS_PATHS = ["/session", "/invitations/", "/password-reset"];

/** A 401 on a call made with a session ends it, for the app to ask for a log-in again. */
function sessionEnded(path: string): void {
  if (!ANONYMOUS_PATHS.some((p) => path.startsWith(p))) window.dispatchEvent(new Event(SESSION_ENDED));
}

/** The console API's client: paths after /console/api, typed from the gateway's OpenAPI document. */
export const api = createApiClient({
  base: "/console/api",
  csrfToken: () => csrfToken,
  onUnauthorized: sessionEnded,
});
// In an embedded view, the same calls go to the public API with the view's credential.
if (embeddedView) {
  api.use({
    async onRequest({ request }) {
      const { pathname, search } = new URL(request.url);
      const { url, headers } = addressOf(pathname);
      const moved = new Headers(request.headers);
      for (const [name, value] of Object.entries(headers)) moved.set(name, value);
      // Made anew rather than from the request: a body a request already holds is a stream, which
      // a browser sends on only with `duplex`, and not everywhere.
      const body =
        request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      return new Request(new URL(`${url}${search}`, request.url), {
        method: request.method,
        headers: moved,
        body,
        cache: "no-store",
        credentials: "same-origin",
        signal: request.signal,
      });
    },
  });
}

/** A stored file's bytes (a document to draw in an editor); a failed download throws. */
export async function downloadBytes(path: string): Promise<ArrayBuffer> {
  const { url, headers } = addressOf(`/console/api${path}`);
  const response = await fetch(url, { credentials: "same-origin", headers });
  if (!response.ok) throw new Error(`download answered ${response.status}`);
  return response.arrayBuffer();
}

type Uploaded =
  paths["/console/api/workspaces/{workspaceId}/documents/upload"]["post"]["responses"][201]["content"]["application/json"];

/**
 * Posts a document as its own body, reporting the share sent so far (0 to 1): fetch cannot tell how
 * much of a request body has gone, so this one call uses XMLHttpRequest.
 */
export function uploadDocument(
  workspaceId: string,
  file: File,
  type: string,
  onProgress: (sent: number) => void,
): Promise<Uploaded> {
  const path = inWorkspace(workspaceId, `/documents/upload?filename=${encodeURIComponent(file.name)}`);
  const { url, headers } = addressOf(`/console/api${path}`);
  return new Promise<Uploaded>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Content-Type", type);
    xhr.setRequestHeader("X-CSRF-Token", csrfToken);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(0, { title: "Network error", detail: UNREACHABLE }));
    xhr.onload = () => {
      try {
        resolve(answer(path, xhr.status, xhr.responseText, xhr.getResponseHeader("x-request-id")));
      } catch (err) {
        reject(err);
      }
    };
    xhr.send(file);
  });
}

/** The body of a 2xx answer, or the problem it carries as an ApiError (a 401 ends the session). */
function answer(path: string, status: number, text: string, requestId: string | null): Uploaded {
  const parsed = text ? safeJson(text) : undefined;
  if (status >= 200 && status < 300) return parsed as Uploaded;
  const problem = (parsed ?? {}) as Problem;
  if (status === 401) sessionEnded(path);
  throw new ApiError(status, { requestId: requestId ?? undefined, ...problem });
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
