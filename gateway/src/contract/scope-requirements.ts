/**
 * What an operation needs of an API key (docs/api.md "Scopes"), declared with the operation: its
 * scopes, those its body adds when it asks for more (`send: true` also sends), and whether an
 * agent's key may propose where it would send. The same declaration is checked before the
 * operation runs — before an Idempotency-Key could replay an answer — and written into the OpenAPI
 * document and the MCP tool list.
 */
import type { ApiScope } from "@countersign/domain";
import { InsufficientScope } from "../problems.js";

/** A scope an operation needs only when its body asks for something. */
export interface ConditionalScope {
  /** What in the body asks for it, as the documentation says it: "`send: true`". */
  when: string;
  scope: ApiScope;
  /** Whether the body — parsed JSON, before the operation's schema reads it — asks for it. */
  applies(body: unknown): boolean;
}

export interface ScopeRequirement {
  /** Every scope listed is needed; null when any valid key may call it. */
  scope?: ApiScope | readonly ApiScope[] | null;
  conditionalScopes?: readonly ConditionalScope[];
  /**
   * An agent's key (requests:propose) may call it where requests:send is needed: what it would send
   * waits for a person's approval instead.
   */
  proposable?: true;
}

/** A body property that is `true` (what `send: true` and `textTags: true` are read by). */
export const isTrue =
  (property: string) =>
  (body: unknown): boolean =>
    typeof body === "object" && body !== null && (body as Record<string, unknown>)[property] === true;

/** The scopes the operation always needs. */
export function scopesOf({ scope }: ScopeRequirement): readonly ApiScope[] {
  if (scope === null || scope === undefined) return [];
  return typeof scope === "string" ? [scope] : scope;
}

/** The scopes the operation needs for this body: its own and those the body asks for. */
export function scopesNeeded(requirement: ScopeRequirement, body: unknown): ApiScope[] {
  return [
    ...scopesOf(requirement),
    ...(requirement.conditionalScopes ?? []).filter((c) => c.applies(body)).map((c) => c.scope),
  ];
}

/**
 * Refuses a key without every scope needed, naming the first it lacks. A caller without scopes is
 * a console user, whom the member's role holds instead.
 */
export function requireScopes(
  caller: { scopes?: ReadonlySet<ApiScope> },
  needed: readonly ApiScope[],
  { proposable = false }: { proposable?: boolean } = {},
): void {
  const { scopes } = caller;
  if (!scopes) return;
  for (const scope of needed) {
    if (scopes.has(scope)) continue;
    if (proposable && scope === "requests:send" && scopes.has("requests:propose")) continue;
    throw new InsufficientScope(scope);
  }
}

/** Checks a key against an operation's requirement for this body. */
export function requireScopesFor(
  caller: { scopes?: ReadonlySet<ApiScope> },
  requirement: ScopeRequirement,
  body: unknown,
): void {
  requireScopes(caller, scopesNeeded(requirement, body), { proposable: requirement.proposable === true });
}

/** The requirement in words, as the OpenAPI document and the tool list say it. */
export function scopeSentence(requirement: ScopeRequirement): string {
  const always = scopesOf(requirement);
  const sentences = [
    always.length === 0
      ? "Any valid API key may call it, whatever its scopes."
      : `Needs the API key scope${always.length > 1 ? "s" : ""} ${always.map((s) => `\`${s}\``).join(" and ")}.`,
    ...(requirement.conditionalScopes ?? []).map((c) => `${c.when} also needs \`${c.scope}\`.`),
    ...(requirement.proposable
      ? [
          "An agent's key (`requests:propose` instead of `requests:send`) proposes: the request is not sent but waits, `awaiting_approval`, until a person approves it in the console.",
        ]
      : []),
  ];
  return sentences.join(" ");
}
