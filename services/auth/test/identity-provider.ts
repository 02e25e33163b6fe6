/**
 * For single sign-on tests: a real OpenID provider in its own process (oidc-provider-process.ts),
 * and a browser's part of a log-in played with fetch — a cookie jar per origin, redirects followed
 * one at a time so that a test can stop at the callback and tamper with it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROCESS = fileURLToPath(new URL("./oidc-provider-process.ts", import.meta.url));

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startProvider(options: {
  clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  fault?: "expired" | "wrong-audience";
}): Promise<TestProvider> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", PROCESS, JSON.stringify(options)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the provider did not start: ${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the provider exited (${code}): ${output}`));
    });
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A browser without a screen: cookies kept per origin, each redirect a step of its own. */
export class FetchBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (init.form) headers["content-type"] = "application/x-www-form-urlencoded";
    const response = await fetch(target, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0\b/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(new URL(origin).origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string | undefined): void {
    const jar = this.jars.get(new URL(origin).origin) ?? new Map<string, string>();
    this.jars.set(new URL(origin).origin, jar);
    if (value === undefined) jar.delete(name);
    else jar.set(name, value);
  }
}

export function locationOf(response: Response, base: string): string {
  const location = response.headers.get("location");
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base).href;
}

/**
 * From the provider's authorization URL to the redirect back to the relying party, which is
 * answered (not followed): the person logs in at the provider's page with their e-mail, or cancels.
 */
export async function authorizeAtProvider(
  browser: FetchBrowser,
  authorizationUrl: string,
  email: string | "cancel",
): Promise<string> {
  let url = authorizationUrl;
  const issuerOrigin = new URL(authorizationUrl).origin;
  for (let step = 0; step < 10; step++) {
    const response = await browser.go(url);
    if (response.status === 200) {
      const uid = /action="\/interaction\/([\w-]+)\/login"/.exec(await response.text())?.[1];
      if (!uid) throw new Error("the provider's page has no log-in form");
      const submitted =
        email === "cancel"
          ? await browser.go(`${issuerOrigin}/interaction/${uid}/abort`, { form: {} })
          : await browser.go(`${issuerOrigin}/interaction/${uid}/login`, { form: { email } });
      url = locationOf(submitted, issuerOrigin);
      continue;
    }
    const next = locationOf(response, url);
    if (new URL(next).origin !== issuerOrigin) return next;
    url = next;
  }
  throw new Error("the provider never sent the browser back");
}
