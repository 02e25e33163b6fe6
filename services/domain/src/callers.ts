/**
 * The identities that call Countersign's services: the processes that have clients, and the
 * operator's CLI. Each has a token of its own, and each service's policy (its callers.ts) names the
 * methods each may call; the kit's service identity checks calls against them.
 */
export const CALLERS = [
  "gateway",
  "templates",
  "documents",
  "requests",
  "requests-sealer",
  "operator",
] as const;
export type Caller = (typeof CALLERS)[number];

/** Per caller, the methods (as in the .proto, "GetDocument") it may call; "*" for every one. */
export type CallerPolicy = Partial<Record<Caller, readonly string[] | "*">>;

/** A service's callers as serviceMain takes them: every name there is, and the service's policy. */
export interface ServiceCallers {
  known: readonly Caller[];
  policy: CallerPolicy;
}

export function callersOf(policy: CallerPolicy): ServiceCallers {
  return { known: CALLERS, policy };
}
