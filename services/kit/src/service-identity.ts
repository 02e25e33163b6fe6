/**
 * Who calls a service, and what they may call. Each process that calls another has a token of its
 * own (COUNTERSIGN_SERVICE_TOKEN, from a Secret no other pod mounts); a service knows its callers
 * only by the SHA-256 of their tokens (COUNTERSIGN_CALLERS, public values), so no pod holds a token
 * it could call as another with. Each service names, in code, the methods each caller may call (its
 * policy): a compromised pod that parses untrusted HTTP answers holds no token the others accept.
 * Which callers there are is the services' to say (@countersign/domain's CALLERS), not the kit's.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { ConfigError } from "./config.js";

/** Per caller's name, the methods (as in the .proto, "GetDocument") it may call; "*" for every one. */
export type MethodPolicy = Readonly<Partial<Record<string, readonly string[] | "*">>>;

/** What a service's server checks a call's token against: callers by token digest, and the policy. */
export interface ServiceAccess {
  /** Each caller's token digests: two while its token is being rotated. */
  callers: ReadonlyMap<string, readonly Buffer[]>;
  policy: MethodPolicy;
}

const HEALTH_SERVICE = "grpc.health.v1.Health";

/** The SHA-256 of a caller's token, in hex: what a service it calls is configured with. */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Reads COUNTERSIGN_CALLERS, "gateway=<sha256 hex>,requests=<sha256 hex>", naming what is wrong. A
 * caller named twice has two tokens that work: the old and the new while its token is rotated.
 */
export function parseCallers(value: string, known: readonly string[]): Map<string, Buffer[]> {
  const callers = new Map<string, Buffer[]>();
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name = "", digest = ""] = entry.split("=").map((part) => part.trim());
    if (!known.includes(name))
      throw new ConfigError(
        `COUNTERSIGN_CALLERS: "${name}" is not a caller; callers are ${known.join(", ")}`,
      );
    if (!/^[0-9a-f]{64}$/.test(digest))
      throw new ConfigError(
        `COUNTERSIGN_CALLERS: ${name}'s value must be the SHA-256 of its token, 64 hex digits (cli identities)`,
      );
    callers.set(name, [...(callers.get(name) ?? []), Buffer.from(digest, "hex")]);
  }
  return callers;
}

/** Access for one caller holding `token` with every method: the standalone admin port's operator. */
export function operatorOnly(token: string): ServiceAccess {
  return {
    callers: new Map([["operator", [Buffer.from(tokenDigest(token), "hex")]]]),
    policy: { operator: "*" },
  };
}

/**
 * Refuses a call whose token is no known caller's (UNAUTHENTICATED) and one whose caller may not
 * call its method (PERMISSION_DENIED); health checks stay open for probes.
 */
export function callerInterceptor(access: ServiceAccess): Interceptor {
  return (next) => (req) => {
    if (req.service.typeName === HEALTH_SERVICE) return next(req);
    const token = /^Bearer (.+)$/.exec(req.header.get("authorization") ?? "")?.[1];
    const caller = token ? callerOf(access.callers, token) : undefined;
    if (!caller) throw new ConnectError("missing or unknown service token", Code.Unauthenticated);
    const allowed = access.policy[caller];
    if (allowed !== "*" && !allowed?.includes(req.method.name)) {
      throw new ConnectError(`${caller} may not call ${req.method.name}`, Code.PermissionDenied);
    }
    return next(req);
  };
}

/** Client side: presents this process's own token on every call. */
export function presentServiceToken(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

function callerOf(callers: ReadonlyMap<string, readonly Buffer[]>, token: string): string | undefined {
  const presented = createHash("sha256").update(token, "utf8").digest();
  let found: string | undefined;
  // Every digest is compared, in constant time each, whichever matches.
  for (const [name, digests] of callers) {
    for (const digest of digests) if (timingSafeEqual(presented, digest)) found ??= name;
  }
  return found;
}
