/**
 * Each service answers only the callers that need it, and only the methods they need: the whole
 * matrix of caller × service × method, each pair allowed or refused as written here. A webhooks pod
 * (it parses untrusted HTTP answers) has no token any service accepts; the gateway cannot create a
 * workspace or list a request's signing links; a token nobody was given is unauthenticated.
 */
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { CALLERS, type Caller, type CallerPolicy, type ServiceCallers } from "@countersign/domain";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ConverterService } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { callerInterceptor, parseCallers, tokenDigest } from "@countersign/kit";
import { AUTH_CALLERS } from "../services/auth/src/callers.js";
import { DOCUMENTS_CALLERS } from "../services/documents/src/callers.js";
import { CONVERTER_CALLERS } from "../services/documents/src/converter-callers.js";
import { REQUESTS_CALLERS } from "../services/requests/src/callers.js";
import { TEMPLATES_CALLERS } from "../services/templates/src/callers.js";
import { WEBHOOKS_CALLERS } from "../services/webhooks/src/callers.js";

const tokens = Object.fromEntries(
  CALLERS.map((caller) => [caller, `token-of-${caller}-0123456789abcdef`]),
) as Record<Caller, string>;
const callers = parseCallers(
  CALLERS.map((caller) => `${caller}=${tokenDigest(tokens[caller])}`).join(","),
  CALLERS,
);

const ALL = "every method";
/** What requests needs of documents, its API and its sealer alike: read, store and claim files. */
const STORES_SEALED = [
  "GetDocument",
  "DownloadDocument",
  "UploadDocument",
  "ClaimDocument",
  "ReleaseDocument",
  "ListClaims",
];
/** What each caller may call, per service: the matrix this test holds the code to. */
const MATRIX: [DescService, ServiceCallers, Partial<Record<Caller, readonly string[] | typeof ALL>>][] = [
  [
    AuthService,
    AUTH_CALLERS,
    {
      gateway: [
        "GetWorkspace",
        // An Organization Admin's running of their team and API access, from the console.
        "UpdateWorkspace",
        "ListMembers",
        "UpdateMember",
        "RemoveMember",
        "InviteMember",
        "ListInvitations",
        "RevokeInvitation",
        "GetInvitation",
        "AcceptInvitation",
        "ListAuditEntries",
        "RequestPasswordReset",
        "ResetPassword",
        "CreateSession",
        "GetSession",
        "DeleteSession",
        "GetSingleSignOn",
        "UpdateSingleSignOn",
        "FindSingleSignOn",
        "BeginSingleSignOn",
        "FinishSingleSignOn",
        "CreateApiKey",
        "ListApiKeys",
        "DeleteApiKey",
        "VerifyApiKey",
        // Integrations in Settings → Developer, the consent page and DocuSign's OAuth endpoints.
        "CreateIntegration",
        "ListIntegrations",
        "DeleteIntegration",
        "DescribeConsent",
        "GrantConsent",
        "WithdrawConsent",
        "ExchangeJwtAssertion",
        "GetUserInfo",
        "ListRecentErrors",
        "GetApiUsage",
        "ClaimIdempotencyKey",
        "CompleteIdempotencyKey",
        "ReleaseIdempotencyKey",
      ],
      operator: ALL,
    },
  ],
  [
    DocumentsService,
    DOCUMENTS_CALLERS,
    {
      gateway: [
        "GetDocument",
        "ListDocuments",
        "UploadDocument",
        "DownloadDocument",
        "DeleteDocument",
        "FindText",
      ],
      templates: ["ClaimDocument", "ReleaseDocument", "ListClaims"],
      // Its API deletes the documents of requests the workspace's retention has passed; the sealer does not.
      requests: [...STORES_SEALED, "DeleteDocument"],
      "requests-sealer": STORES_SEALED,
      operator: ALL,
    },
  ],
  // Only the documents service sends the converter files; the converter calls nobody.
  [ConverterService, CONVERTER_CALLERS, { documents: ["ConvertDocument"], operator: ALL }],
  [TemplatesService, TEMPLATES_CALLERS, { gateway: ALL, requests: ["GetTemplate"], operator: ALL }],
  [
    RequestsService,
    REQUESTS_CALLERS,
    {
      gateway: RequestsService.methods.map((m) => m.name).filter((name) => name !== "ListSigningLinks"),
      operator: ALL,
    },
  ],
  [WebhooksService, WEBHOOKS_CALLERS, { gateway: ALL, operator: ALL }],
];

/** How the service's interceptor answers a call of `method` with `token`: "ok" or the refusal's code. */
async function outcome(service: DescService, policy: CallerPolicy, method: string, token: string) {
  const intercept = callerInterceptor({ callers, policy });
  const call = intercept(async () => ({}) as never);
  try {
    await call({
      service: { typeName: service.typeName },
      method: { name: method },
      header: new Headers({ authorization: `Bearer ${token}` }),
    } as never);
    return "ok";
  } catch (err) {
    return Code[ConnectError.from(err).code];
  }
}

test.each(
  MATRIX.map(
    ([service, serviceCallers, expected]) =>
      [service.typeName, service, serviceCallers.policy, expected] as const,
  ),
)(
  "%s: every caller reaches exactly the methods it needs; every other pair is refused",
  async (_name, service, policy, expected) => {
    const got: string[] = [];
    const want: string[] = [];
    for (const caller of CALLERS) {
      for (const { name } of service.methods) {
        const allowed = expected[caller] === ALL || (expected[caller] ?? []).includes(name);
        want.push(`${caller} ${name} ${allowed ? "ok" : "PermissionDenied"}`);
        got.push(`${caller} ${name} ${await outcome(service, policy, name, tokens[caller])}`);
      }
      expect(await outcome(service, policy, service.methods[0]?.name ?? "", "a-token-nobody-was-given")).toBe(
        "Unauthenticated",
      );
    }
    expect(got).toEqual(want);
  },
);
