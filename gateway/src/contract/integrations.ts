/**
 * The console's integrations (Settings → Developer → API keys): programs that log in with DocuSign's
 * JWT grant, and the consent a person gives one on the consent page (docs/restapi.md "OAuth").
 */
import { z } from "zod";
import { id, optionalTimestamp, text, timestamp } from "./values.js";

export const SCOPES = ["signature", "impersonation"] as const;
const scope = z.enum(SCOPES).meta({
  description: "`signature` calls the eSignature API; `impersonation` lets the JWT grant act as the person.",
});

export const IntegrationParams = z.object({ workspaceId: id(), integrationId: id() });
export const ConsentParams = z.object({ workspaceId: id(), integrationId: id(), userId: id() });

export const IntegrationInput = z
  .strictObject({
    name: text().meta({ description: "How API Usage and the audit trail name it, 1 to 100 characters." }),
    publicKey: z
      .string()
      .max(16 * 1024)
      .meta({
        description:
          "The RSA public key (2048 bits or more) the program's assertions are checked with: PEM, `-----BEGIN PUBLIC KEY-----` or `-----BEGIN RSA PUBLIC KEY-----`, or a certificate. Never the private key.",
      }),
    redirectUris: z.array(z.string().max(2000)).max(10).meta({
      description: "Where the consent page may send the browser back to: 1 to 10 absolute http(s) URLs.",
    }),
  })
  .meta({ id: "IntegrationInput" });

export const Integration = z
  .strictObject({
    integrationKey: z
      .uuid()
      .meta({ description: "The assertion's `iss`, and `client_id` on the consent page." }),
    name: z.string(),
    publicKey: z.string().meta({ description: "As kept: SPKI PEM." }),
    redirectUris: z.array(z.string()),
    createdAt: timestamp,
    lastUsedAt: optionalTimestamp.meta({
      description: "When a call last presented one of its tokens; null if never.",
    }),
    consents: z.array(
      z.strictObject({
        userId: z.uuid(),
        email: z.string(),
        scopes: z.array(z.string()),
        grantedAt: timestamp,
      }),
    ),
  })
  .meta({ id: "Integration" });

export const IntegrationList = z
  .strictObject({ items: z.array(Integration) })
  .meta({ id: "IntegrationList" });

/** The consent page's query, as `GET /oauth/auth` passed it on. */
export const ConsentQuery = z.object({
  client_id: z.string().max(100),
  redirect_uri: z.string().max(2000),
  scope: z.string().max(200).optional(),
  state: z.string().max(2000).optional(),
});

export const ConsentDescription = z
  .strictObject({
    integrationName: z.string(),
    workspaceId: z.uuid(),
    workspaceName: z.string(),
    scopes: z.array(scope).meta({ description: "What the integration asks for." }),
    consentedScopes: z.array(z.string()).meta({ description: "What the person already consented to." }),
  })
  .meta({ id: "ConsentDescription" });

export const ConsentInput = z
  .strictObject({
    clientId: z.string().max(100),
    redirectUri: z.string().max(2000),
    scope: z.string().max(200),
    state: z.string().max(2000).optional(),
  })
  .meta({ id: "ConsentInput" });

export const ConsentGranted = z
  .strictObject({
    redirect: z
      .url()
      .meta({ description: "Where to send the browser: the integration's redirect URI, with `state`." }),
  })
  .meta({ id: "ConsentGranted" });
