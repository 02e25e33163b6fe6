/**
 * Talking to a workspace's OpenID Connect identity provider with `openid-client`: its discovery
 * document read once and kept a while (the keys it signs with are fetched, and refetched on an
 * unknown key id, by the client itself), and the library's failures sorted into what the person and
 * the workspace's audit are told. An Organization Admin names the issuer, so every request goes
 * through the kit's outbound client: public addresses only (unless the operator lists a network),
 * each answer capped in bytes and time, no redirects.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { SingleSignOnRefusal } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  type AnswerLimits,
  env,
  type Logger,
  type Network,
  OutboundClient,
  OutboundError,
} from "@countersign/kit";
import ipaddr from "ipaddr.js";
import * as oidc from "openid-client";

/** How long a provider may take to answer one request before the log-in gives up. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** A discovery document is read again after this, so a provider's changed endpoints are seen. */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** Providers' configurations kept at once; the oldest goes first. */
const MAX_CONFIGURATIONS = 200;

/**
 * Every answer a provider gives — discovery document, key set, token, user info — is a few kilobytes
 * (Google's discovery document is 2.5 KB, a token answer with an ID token about 2 KB); 64 KiB leaves
 * room for large claims and many keys, and is all one answer may cost.
 */
export const PROVIDER_ANSWER: AnswerLimits = {
  maxBytes: 64 * 1024,
  timeoutMs: PROVIDER_TIMEOUT_SECONDS * 1000,
  redirects: 0,
};

/** The operator's settings for reaching identity providers. */
export const identityProviderConfig = {
  COUNTERSIGN_IDENTITY_PROVIDER_ALLOW_NETWORKS: env
    .reachableNetworks()
    .describe(
      "CIDRs identity providers may be on although private (a provider inside the cluster), e.g. `10.30.0.0/16`; by default only public addresses",
    ),
};

export interface IdentityProviderOptions {
  /** Networks providers may be on although not public; none by default. */
  allowNetworks?: readonly Network[];
  /** Where refused addresses are written for operators. */
  logger?: Logger;
}

export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * An issuer must be https; plain http only on a loopback address, where nothing crosses a network
 * (a provider beside the service in development and in the tests).
 */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return "must be an absolute URL";
  }
  if (url.search || url.hash) return "must have no query or fragment";
  if (url.username || url.password) return "must not carry credentials";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return undefined;
  return "must be an https URL (http only on a loopback address)";
}

function isLoopback(hostname: string): boolean {
  if (hostname === "localhost") return true;
  const address = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";
}

export class IdentityProviders {
  private readonly configurations = new Map<
    string,
    { at: number; configuration: Promise<oidc.Configuration> }
  >();
  private readonly client: OutboundClient;
  private readonly fetch: ReturnType<OutboundClient["fetcher"]>;

  constructor(options: IdentityProviderOptions = {}) {
    this.client = new OutboundClient({
      purpose: "identity provider",
      reach: "public",
      allowNetworks: options.allowNetworks,
      logger: options.logger,
    });
    this.fetch = this.client.fetcher(PROVIDER_ANSWER);
  }

  /**
   * The provider's configuration for this client, from its discovery document. Throws
   * FAILED_PRECONDITION naming what went wrong when the document cannot be read or names another issuer.
   */
  async configuration(client: ProviderClient): Promise<oidc.Configuration> {
    const key = JSON.stringify([client.issuer, client.clientId, client.clientSecret]);
    const cached = this.configurations.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = this.discover(client);
    this.configurations.set(key, { at: Date.now(), configuration });
    // A failed discovery is not kept: the next log-in tries again.
    configuration.catch(() => this.configurations.delete(key));
    if (this.configurations.size > MAX_CONFIGURATIONS)
      this.configurations.delete(this.configurations.keys().next().value ?? "");
    return configuration;
  }

  close(): void {
    this.client.close();
  }

  private async discover(client: ProviderClient): Promise<oidc.Configuration> {
    const issuer = new URL(client.issuer);
    let configuration: oidc.Configuration;
    try {
      configuration = await oidc.discovery(
        issuer,
        client.clientId,
        undefined,
        oidc.ClientSecretBasic(client.clientSecret),
        {
          timeout: PROVIDER_TIMEOUT_SECONDS,
          execute: issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [],
          // Every later request of this configuration (keys, token, user info) goes the same way.
          [oidc.customFetch]: this.fetch,
        },
      );
    } catch (error) {
      throw new ConnectError(
        `the identity provider's discovery document could not be read at ${discoveryUrl(client.issuer)}: ${reasonOf(error)}`,
        Code.FailedPrecondition,
      );
    }
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
    const problem = authorizationEndpointProblem(configuration, issuer);
    if (problem)
      throw new ConnectError(
        `the identity provider's discovery document at ${discoveryUrl(client.issuer)} ${problem}`,
        Code.FailedPrecondition,
      );
    return configuration;
  }
}

/**
 * People's browsers are sent to the authorization endpoint, so it must be a web page reached as
 * safely as the issuer: https (http only where the issuer itself is allowed plain http), with no
 * credentials in it.
 */
function authorizationEndpointProblem(configuration: oidc.Configuration, issuer: URL): string | undefined {
  const endpoint = configuration.serverMetadata().authorization_endpoint;
  if (endpoint === undefined) return "names no authorization_endpoint";
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "names an authorization_endpoint that is not a URL";
  }
  if (url.username || url.password) return "names an authorization_endpoint that carries credentials";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && issuer.protocol === "http:" && isLoopback(url.hostname)) return undefined;
  return "names an authorization_endpoint that is not https";
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
}

/** What went wrong, in words fit for an administrator; never a secret, which no error here carries. */
export function reasonOf(error: unknown): string {
  const unanswered = outboundErrorIn(error);
  if (unanswered) return unanswered.message;
  if (error instanceof oidc.ResponseBodyError) {
    return `the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`;
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return `the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`;
  }
  if (error instanceof Error) {
    const claim = claimOf(error);
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return claim ? `${error.message} (claim “${claim}”)` : `${error.message}${cause}`.slice(0, 500);
  }
  return String(error);
}

/** The outbound client's own failure (refused address, too large, timed out), however the library wrapped it. */
function outboundErrorIn(error: unknown): OutboundError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof OutboundError) return e;
  return undefined;
}

/** The ID token claim a failed check names, where the library says which one. */
function claimOf(error: Error): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const claim = (e.cause as { claim?: unknown } | undefined)?.claim;
    if (typeof claim === "string") return claim;
  }
  return undefined;
}

/**
 * Why a callback did not become a session. The provider's own error answer (the person cancelled,
 * the client is refused) is the provider's; a failed check of the answer (state, PKCE, the ID
 * token's signature, issuer, audience, expiry, nonce) is a rejected answer; a provider that could
 * not be reached is unavailable.
 */
export function refusalOf(error: unknown): SingleSignOnRefusal {
  if (outboundErrorIn(error)) return SingleSignOnRefusal.UNAVAILABLE;
  if (error instanceof oidc.AuthorizationResponseError) return SingleSignOnRefusal.PROVIDER_ERROR;
  if (error instanceof oidc.ResponseBodyError) {
    return error.error === "invalid_client" || error.error === "unauthorized_client"
      ? SingleSignOnRefusal.PROVIDER_ERROR
      : SingleSignOnRefusal.ANSWER_REJECTED;
  }
  if (error instanceof ConnectError) return SingleSignOnRefusal.UNAVAILABLE;
  if (error instanceof oidc.ClientError || error instanceof oidc.WWWAuthenticateChallengeError) {
    return SingleSignOnRefusal.ANSWER_REJECTED;
  }
  return SingleSignOnRefusal.UNAVAILABLE;
}
