/** The console's API: log-in, and Settings → Developer (docs/design.md §9). */

import { API_SCOPES, MAX_SEAL_FILE_BYTES, MAX_SEAL_PASSWORD_LENGTH } from "@countersign/domain";
import { z } from "zod";
import { base64Text } from "./base64.js";
import { id, instant, integerInDocuments, optionalTimestamp, text, timestamp } from "./values.js";

export const LogIn = z.strictObject({ email: text(), password: text() }).meta({ id: "LogIn" });

export const ConsoleSession = z
  .strictObject({
    user: z.strictObject({ id: z.uuid(), email: z.string() }),
    workspaces: z.array(
      z.strictObject({
        id: z.uuid(),
        name: z.string(),
        apiAccessEnabled: z.boolean(),
        role: z.enum(["org_admin", "member"]),
      }),
    ),
    singleSignOnWorkspaceId: z.uuid().nullable().meta({
      description:
        "The workspace whose identity provider opened this session, which then covers that workspace only; null for a password log-in.",
    }),
    csrfToken: z.string().meta({
      description:
        "Send in `X-CSRF-Token` on every state-changing console call. It belongs to this session: keep it in memory, not in a cookie.",
    }),
  })
  .meta({ id: "ConsoleSession" });

export const WorkspaceParams = z.object({ workspaceId: id() });
export const KeyParams = z.object({ workspaceId: id(), keyId: id() });

export const Configuration = z
  .strictObject({
    accountId: z.uuid(),
    baseUrls: z.strictObject({
      accountScoped: z.url(),
      resourceStyle: z.url(),
      compatibility: z.url(),
      tools: z.url(),
    }),
  })
  .meta({ id: "Configuration" });

export const SealCertificateInfo = z
  .strictObject({
    certificate: z
      .strictObject({
        subject: z.string().meta({
          description: 'Its attributes in the certificate\'s order, such as "CN=Acme seal,O=Acme".',
        }),
        issuer: z.string(),
        notBefore: timestamp,
        notAfter: timestamp.meta({ description: "A seal made after it is not valid in PDF readers." }),
        padesLevel: z.enum(["B-B", "B-LTA"]).meta({
          description:
            "The PAdES baseline level sealed documents reach (B-LTA with a time-stamping authority).",
        }),
        sha256Fingerprint: z.string(),
        selfSigned: z.boolean().meta({ description: "PDF readers do not trust a self-signed seal." }),
        reportedAt: timestamp.meta({
          description:
            "When the sealing process reported the deployment's, at its start; when the workspace's own was uploaded.",
        }),
        owner: z.enum(["deployment", "workspace"]).meta({
          description:
            "`workspace`: the workspace's own seal, uploaded in the console; `deployment`: the operator's (COUNTERSIGN_SEAL_P12).",
        }),
        uploadedBy: z
          .string()
          .nullable()
          .meta({ description: "Who uploaded the workspace's own seal; null for the deployment's." }),
      })
      .nullable()
      .meta({
        description: "null until a process that seals has started (for a workspace without its own).",
      }),
  })
  .meta({ id: "SealCertificateInfo" });

/** The longest base64 text of a seal file the console may send. */
export const MAX_SEAL_FILE_BASE64_CHARS = Math.ceil(MAX_SEAL_FILE_BYTES / 3) * 4;

export const SealCertificateUpload = z
  .strictObject({
    pkcs12: base64Text().max(MAX_SEAL_FILE_BASE64_CHARS).meta({
      description:
        "The PKCS#12 file (.p12, .pfx), base64: an RSA key of at least 2048 bits and its certificate, with any chain. Checked before it is kept: it must open with the password, be valid now, be no CA's certificate and allow signatures.",
    }),
    password: z.string().max(MAX_SEAL_PASSWORD_LENGTH).meta({
      description: "The file's password; empty for none. Kept encrypted with the file and never shown again.",
    }),
  })
  .meta({ id: "SealCertificateUpload" });

export const TestEmailInput = z
  .strictObject({
    to: z.email().max(254).meta({ description: "Who receives the test e-mail." }),
  })
  .meta({ id: "TestEmailInput" });

export const TestEmailResult = z
  .strictObject({
    sent: z
      .boolean()
      .meta({ description: "Whether the mail server (or the outbox folder) took the message." }),
    transport: z.enum(["smtp", "outbox"]).meta({
      description: "`smtp` through SMTP_URL's server; `outbox`: no SMTP_URL, the e-mail is an .eml file.",
    }),
    server: z.string().meta({ description: "The SMTP server's host and port, or the outbox folder." }),
    detail: z.string().meta({ description: "The server's reply, or what failed, in words." }),
    durationMs: z.int().min(0),
  })
  .meta({ id: "TestEmailResult" });

export const ApprovalRights = z
  .strictObject({
    mayApprove: z.boolean().meta({
      description: "Whether the user may approve or reject what agents' API keys propose in this workspace.",
    }),
    approverUserId: z.uuid().nullable().meta({
      description: "The member who approves besides the Organization Admins; null for the admins alone.",
    }),
  })
  .meta({ id: "ApprovalRights" });

export const ApiKeyInput = z
  .strictObject({
    name: text().meta({ description: "A label only; it has no effect on permissions." }),
    expiresAt: instant(
      "When the key stops working: in the future, at most ten years ahead. Without it the key works until deleted.",
    ).optional(),
    scopes: z.array(z.enum(API_SCOPES)).min(1).optional().meta({
      description:
        "What the key may do, each scope named once (every operation names the scope it needs). Without it the key has full access.",
    }),
    test: z.boolean().optional().meta({
      description:
        "A test key (`sk_test_…`): its requests are test data, apart from live data, e-mailed to the outbox only and sealed as not legally binding. Fixed at creation.",
    }),
  })
  .meta({ id: "ApiKeyInput" });

const keyFacts = {
  hint: z.string().meta({
    description: "The secret's last four characters, to tell keys apart; empty for keys made before hints.",
  }),
  expiresAt: optionalTimestamp.meta({ description: "When the key stops working; null if it never does." }),
  scopes: z.array(z.enum(API_SCOPES)).meta({ description: "What the key may do." }),
  fullAccess: z.boolean().meta({
    description:
      "Made without scopes (as every key made before scopes was): it may do everything, now and later.",
  }),
  test: z.boolean().meta({ description: "A test key: it makes and sees test data only." }),
};

export const ApiKey = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    createdAt: timestamp,
    ...keyFacts,
    lastUsedAt: optionalTimestamp.meta({
      description: "When a call last presented the key (reported within seconds); null if never.",
    }),
  })
  .meta({ id: "ApiKey" });

export const ApiKeyList = z.strictObject({ items: z.array(ApiKey) }).meta({ id: "ApiKeyList" });

export const ApiKeyCreated = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    secret: z.string().meta({ description: "Shown once." }),
    accountId: z.uuid(),
    createdAt: timestamp,
    ...keyFacts,
  })
  .meta({ id: "ApiKeyCreated" });

export const RecentErrorsQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, "must be a whole number from 1 to 500")
    .transform(Number)
    .pipe(z.number().min(1, "must be from 1 to 500").max(500, "must be from 1 to 500"))
    .optional()
    .transform((value) => value ?? 100)
    .meta({ override: integerInDocuments(1, 500, 100) }),
});

export const RecentErrors = z
  .strictObject({
    items: z.array(
      z.strictObject({
        timestamp,
        source: z.enum(["api", "sealing", "email"]).meta({
          description:
            "`api` for a call that answered 4xx or 5xx; `sealing` for a failed attempt to seal a fully signed request; `email` for a failed try to e-mail a recipient.",
        }),
        method: z.string().meta({ description: "Empty for sealing and e-mail." }),
        path: z.string().meta({ description: "For sealing and e-mail, the signature request's path." }),
        status: z.int().min(400).max(599),
        code: z.string(),
        detail: z.string().meta({
          description:
            "For sealing and e-mail, what failed (with the SMTP server's reply) and when the next attempt is, in words; empty for a call.",
        }),
        requestId: z
          .string()
          .meta({ description: "The call's X-Request-Id; for sealing and e-mail, the attempt's id." }),
        keyName: z.string().meta({
          description:
            "The name of the key that made the call, as it was then; empty for sealing and e-mail.",
        }),
        problem: z.string().meta({
          description:
            "The body the call answered as the caller got it (problem+json, or DocuSign's error on /restapi; at most 4 KiB); empty for sealing and e-mail.",
        }),
      }),
    ),
  })
  .meta({ id: "RecentErrors" });

const day = z.iso.date().refine((value) => value >= "1970-01-01", "must be from 1970-01-01 on");

export const ApiUsageQuery = z.object({
  from: day.optional().meta({ description: "First day (UTC), default 29 days before `to`." }),
  to: day.optional().meta({ description: "Last day (UTC), default today." }),
});

export const UsageFigures = z
  .strictObject({
    calls: z.int().min(0),
    errors: z.int().min(0),
    errorRate: z.number().min(0).max(1),
    p50Ms: z.number().min(0).meta({ description: "Median latency, estimated from a histogram." }),
    p95Ms: z.number().min(0),
  })
  .meta({ id: "UsageFigures" });

export const ApiUsage = z
  .strictObject({
    from: day,
    to: day,
    total: UsageFigures,
    days: z.array(z.strictObject({ day, ...UsageFigures.shape })),
    routes: z.array(z.strictObject({ method: z.string(), route: z.string(), ...UsageFigures.shape })),
    callers: z
      .array(
        z.strictObject({
          id: z.uuid(),
          name: z.string().meta({ description: "The key's or integration's name now; empty once deleted." }),
          kind: z.enum(["api_key", "integration", "deleted"]),
          calls: z.int().min(0),
          errors: z.int().min(0),
        }),
      )
      .meta({ description: "Each API key's and integration's calls over the range, busiest first." }),
  })
  .meta({ id: "ApiUsage" });

const role = z.enum(["org_admin", "member"]).meta({
  description:
    "`org_admin` runs the workspace (team, API access, developer settings); `member` works with templates and requests.",
});

export const MemberParams = z.object({ workspaceId: id(), userId: id() });
export const InvitationParams = z.object({ workspaceId: id(), invitationId: id() });

export const Member = z
  .strictObject({
    userId: z.uuid(),
    email: z.string(),
    role,
    joinedAt: timestamp,
  })
  .meta({ id: "Member" });

export const MemberList = z.strictObject({ items: z.array(Member) }).meta({ id: "MemberList" });

export const MemberUpdate = z.strictObject({ role }).meta({ id: "MemberUpdate" });

export const InvitationInput = z
  .strictObject({
    email: text().meta({ description: "Where the invitation goes; its link works for seven days, once." }),
    role,
  })
  .meta({ id: "InvitationInput" });

export const Invitation = z
  .strictObject({
    id: z.uuid(),
    email: z.string(),
    role,
    invitedBy: z.string().meta({ description: "Who invited: a person's e-mail, or `operator` for the CLI." }),
    createdAt: timestamp,
    expiresAt: timestamp,
    expired: z.boolean().meta({ description: "The link no longer works; invite again to send a new one." }),
  })
  .meta({ id: "Invitation" });

export const InvitationList = z.strictObject({ items: z.array(Invitation) }).meta({ id: "InvitationList" });

export const WorkspaceSettingsInput = z
  .strictObject({
    name: text().optional(),
    apiAccessEnabled: z.boolean().optional().meta({
      description:
        "Off: every API key of the workspace answers 403 at once, and the Developer settings close.",
    }),
  })
  .meta({ id: "WorkspaceSettingsInput" });

export const WorkspaceSettings = z
  .strictObject({ id: z.uuid(), name: z.string(), apiAccessEnabled: z.boolean() })
  .meta({ id: "WorkspaceSettings" });

export const SingleSignOnInput = z
  .strictObject({
    enabled: z.boolean().meta({ description: "On: members may log in through the identity provider." }),
    issuer: text()
      .max(500)
      .meta({
        description:
          "The identity provider's issuer URL; its discovery document (`/.well-known/openid-configuration`) is read when saved. https, or http on a loopback address.",
        examples: ["https://login.example.com/realms/acme"],
      }),
    clientId: text().max(255),
    clientSecret: text().max(1024).optional().meta({
      description: "Replaces the stored secret; leave it out to keep it. It is never answered back.",
      writeOnly: true,
    }),
    allowedDomains: z
      .array(text().max(253))
      .max(50)
      .meta({
        description:
          "E-mail domains whose people become members on their first log-in, with `newMemberRole`. Others log in only when they are members already.",
        examples: [["example.com"]],
      }),
    newMemberRole: role.default("member"),
    passwordLoginEnabled: z.boolean().meta({
      description:
        "Off: the workspace's members log in through the identity provider only. Switched off from a session that logged in through it (which proves the settings work); the operator's CLI can switch it back on.",
    }),
  })
  .meta({ id: "SingleSignOnInput" });

export const SingleSignOnSettings = z
  .strictObject({
    enabled: z.boolean(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.boolean().meta({ description: "A client secret is stored (sealed)." }),
    allowedDomains: z.array(z.string()),
    newMemberRole: role,
    passwordLoginEnabled: z.boolean(),
    updatedAt: optionalTimestamp,
    redirectUri: z.url().meta({ description: "The redirect URI to register at the identity provider." }),
    startUrl: z.url().meta({
      description:
        "A link that starts a log-in through this workspace's identity provider, to share with its members.",
    }),
  })
  .meta({ id: "SingleSignOnSettings" });

export const SingleSignOnSearch = z
  .strictObject({ email: text().max(320) })
  .meta({ id: "SingleSignOnSearch" });

export const SingleSignOnChoices = z
  .strictObject({
    items: z.array(z.strictObject({ workspaceId: z.uuid(), name: z.string(), startUrl: z.url() })),
  })
  .meta({
    id: "SingleSignOnChoices",
    description: "Workspaces whose single sign-on people of the e-mail's domain may use.",
  });

export const WorkspaceAuditEntry = z
  .strictObject({
    id: z.uuid(),
    timestamp: timestamp,
    actor: z
      .string()
      .meta({ description: "Who made the change: a person's e-mail, or `operator` for the CLI." }),
    action: z
      .string()
      .meta({ description: "Such as `member.invited`, `member.role_changed`, `api_key.deleted`." }),
    target: z.string(),
    detail: z.string(),
  })
  .meta({ id: "WorkspaceAuditEntry" });

export const WorkspaceAuditLog = z
  .strictObject({ items: z.array(WorkspaceAuditEntry) })
  .meta({ id: "WorkspaceAuditLog" });

/** The same `limit` as Recent Errors'. */
export const WorkspaceAuditQuery = RecentErrorsQuery;

export const InvitationToken = z
  .strictObject({ token: text().meta({ description: "The token of the invitation e-mail's link." }) })
  .meta({ id: "InvitationToken" });

export const InvitationView = z
  .strictObject({
    email: z.string(),
    role,
    workspaceName: z.string(),
    invitedBy: z.string(),
    expiresAt: timestamp,
    hasLogIn: z.boolean().meta({ description: "The address has a log-in: accepting asks its password." }),
  })
  .meta({ id: "InvitationView" });

export const InvitationAcceptance = z
  .strictObject({
    token: text(),
    password: text().meta({
      description: "A new log-in's password (at least 10 characters), or the existing log-in's.",
    }),
  })
  .meta({ id: "InvitationAcceptance" });

export const PasswordResetRequest = z.strictObject({ email: text() }).meta({ id: "PasswordResetRequest" });

export const PasswordReset = z
  .strictObject({
    token: text().meta({ description: "The token of the reset e-mail's link." }),
    password: text().meta({ description: "The new password, at least 10 characters." }),
  })
  .meta({ id: "PasswordReset" });
