/** A small HTTP client for the suites: JSON in, parsed JSON (or text) out, nothing hidden. */
export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface CallOptions {
  key?: string;
  method?: string;
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** "manual" answers a redirect itself instead of following it. */
  redirect?: "follow" | "manual";
}

export async function call(base: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${base}${path}`, {
    method: options.method ?? "GET",
    headers,
    body,
    redirect: options.redirect ?? "follow",
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Polls until check returns a value that is not undefined, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A console session: cookies kept, the log-in answer's CSRF token sent on state-changing calls. */
export class ConsoleClient {
  private cookies = new Map<string, string>();
  /** The session's CSRF token, from the log-in answer ("" before a log-in succeeds). */
  csrfToken = "";

  constructor(readonly base: string) {}

  async logIn(email: string, password: string): Promise<Reply> {
    const reply = await this.call("/console/api/session", { method: "POST", json: { email, password } });
    for (const cookie of reply.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const index = pair.indexOf("=");
      this.cookies.set(pair.slice(0, index), decodeURIComponent(pair.slice(index + 1)));
    }
    if (reply.status === 201) this.csrfToken = (reply.body as { csrfToken: string }).csrfToken;
    return reply;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  call(path: string, options: CallOptions & { csrf?: boolean } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
    if (this.csrfToken && options.csrf !== false && options.method && options.method !== "GET")
      headers["x-csrf-token"] = this.csrfToken;
    return call(this.base, path, { ...options, headers });
  }
}
