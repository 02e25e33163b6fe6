/**
 * What an API key may do (docs/api-keys.md): auth stores a key's scopes and checks new ones against
 * this list, the gateway refuses an operation whose scope the caller lacks, and the console offers
 * them. A key made without scopes — every key made before there were any — has full access.
 */
export const API_SCOPES = [
  "templates:read",
  "templates:write",
  "documents:read",
  "documents:write",
  "requests:read",
  "requests:write",
  "requests:send",
  "requests:propose",
  "webhooks:manage",
  "settings:manage",
] as const;

export type ApiScope = (typeof API_SCOPES)[number];

/** What each scope allows, as the OpenAPI document, the console and the CLI's help say it. */
export const SCOPE_DESCRIPTIONS: Record<ApiScope, string> = {
  "templates:read": "Read templates and the CSV file of a bulk send.",
  "templates:write": "Create, change and delete templates.",
  "documents:read": "List, read and download documents; verify a signed PDF.",
  "documents:write": "Upload and delete documents.",
  "requests:read":
    "Read signature requests, their audit trails and evidence, agreement sets, bulk sends and the request settings.",
  "requests:write":
    "Create draft requests and agreement sets, cancel requests and bulk sends, place and release legal holds.",
  "requests:send":
    "Put a request in front of people: send, resend, remind, correct recipients, bulk-send, embedded and in-person signing.",
  "requests:propose":
    "An agent's, instead of requests:send: what it would send waits for a person's approval in the console, and is sent only once approved.",
  "webhooks:manage": "Register, change, test and delete webhook endpoints; read and replay their messages.",
  "settings:manage":
    "Change the workspace's settings: for requests (reminders, expiry, retention), embedding and branding.",
};

/**
 * What a key made without scopes may do (every key made before scopes): everything but proposing,
 * which sending makes needless.
 */
export const FULL_ACCESS: readonly ApiScope[] = API_SCOPES.filter((scope) => scope !== "requests:propose");

/**
 * DocuSign's `signature` scope (an integration's access token on /restapi): the eSignature API,
 * which is templates, documents and requests — not webhooks or the workspace's settings.
 */
export const DOCUSIGN_SIGNATURE_SCOPES: readonly ApiScope[] = FULL_ACCESS.filter(
  (scope) =>
    scope.startsWith("templates:") || scope.startsWith("documents:") || scope.startsWith("requests:"),
);

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/** Why a key cannot be given these scopes, or undefined when it can (none at all is full access). */
export function scopesProblem(scopes: readonly string[]): string | undefined {
  const unknown = scopes.filter((scope) => !isApiScope(scope));
  if (unknown.length > 0) {
    return `unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.map((s) => `"${s}"`).join(", ")}: the scopes are ${API_SCOPES.join(", ")}`;
  }
  if (new Set(scopes).size !== scopes.length) return "names a scope twice";
  if (scopes.includes("requests:send") && scopes.includes("requests:propose"))
    return "requests:send and requests:propose exclude each other: an agent's key proposes what it would send";
  return undefined;
}

/** A key's scopes as stored (none for full access) → what it may do. */
export function grantedScopes(stored: readonly string[]): ReadonlySet<ApiScope> {
  return new Set(stored.length === 0 ? FULL_ACCESS : stored.filter(isApiScope));
}

/** A key's scopes as the console and the CLI show them: what it may do, and whether that is everything. */
export function keyAccess(stored: readonly string[]): { scopes: ApiScope[]; fullAccess: boolean } {
  return { scopes: [...grantedScopes(stored)], fullAccess: stored.length === 0 };
}

/** Whether the key is an agent's: it may propose what it would send, not send it. */
export function proposes(scopes: ReadonlySet<string> | undefined): boolean {
  return scopes?.has("requests:propose") === true && !scopes.has("requests:send");
}
