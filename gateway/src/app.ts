/**
 * Assembles the gateway: the public API (both families), the MCP tool endpoint, the
 * DocuSign-compatible /restapi, the console's API, the OpenAPI document and the probes. It reaches services only through their generated clients.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { DEFAULT_CONVERSION_TIMEOUT_MS } from "@countersign/domain";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import {
  createLogger,
  type EventBus,
  type Logger,
  MemoryEventBus,
  type Unsubscribe,
  warnWithoutUploadCollection,
} from "@countersign/kit";
import express, { type Express } from "express";
import { Registry } from "prom-client";
import proxyaddr from "proxy-addr";
import { accountLinkRoutes } from "./console/account-links.js";
import { embeddedViewPageRoutes } from "./console/embedded-view-page.js";
import { consentRoutes } from "./console/integrations.js";
import { sessionRoutes } from "./console/session.js";
import { SSO_BASE, singleSignOnLogInRoutes, singleSignOnSearchRoutes } from "./console/single-sign-on.js";
import { consoleWorkspaceRoutes } from "./console/workspace-routes.js";
import { Contract } from "./contract/operation.js";
import { embeddedViews } from "./embedded-views.js";
import { KeyVerifier } from "./key-verifier.js";
import { documentTools } from "./mcp/document-tools.js";
import { IdempotentCalls } from "./mcp/idempotent-calls.js";
import { MCP_BASE, mcpEndpoint } from "./mcp/mcp-endpoint.js";
import { operationTools } from "./mcp/tools.js";
import { accessLog } from "./middleware/access-log.js";
import {
  type AdmissionLimits,
  admission,
  DEFAULT_ADMISSION,
  DEFAULT_KEY_IN_FLIGHT,
} from "./middleware/admission.js";
import { ApiCallRecorder } from "./middleware/api-call-recorder.js";
import { authenticate } from "./middleware/authenticate.js";
import { BodyBudget, DEFAULT_BODY_MEMORY_BYTES } from "./middleware/body-budget.js";
import { notFound, problemHandler } from "./middleware/errors.js";
import { httpMetrics } from "./middleware/http-metrics.js";
import { idempotency } from "./middleware/idempotency.js";
import { KeyInFlight } from "./middleware/key-in-flight.js";
import { requestContext } from "./middleware/request-context.js";
import { OAUTH_BASE, oauthRoutes } from "./oauth/oauth-routes.js";
import { openApiDocument } from "./openapi.js";
import { probeRoutes } from "./probes.js";
import { CONSOLE_WORKSPACE_BASE, PublicApi } from "./public-api.js";
import { RateLimiter } from "./rate-limiter.js";
import { RESTAPI_BASE, restApiRoutes } from "./restapi/restapi-routes.js";
import { accountRoutes } from "./routes/account.js";
import { agreementSetRoutes } from "./routes/agreement-sets.js";
import { brandingRoutes } from "./routes/branding.js";
import { bulkSendRoutes } from "./routes/bulk-sends.js";
import { documentRoutes } from "./routes/documents.js";
import { embeddedViewRoutes } from "./routes/embedded-views.js";
import { embeddingSettingsRoutes } from "./routes/embedding-settings.js";
import { pingRoutes } from "./routes/ping.js";
import { requestExportRoutes } from "./routes/request-exports.js";
import { requestSettingsRoutes } from "./routes/request-settings.js";
import { signatureRequestRoutes } from "./routes/signature-requests.js";
import { templateRoutes } from "./routes/templates.js";
import { verificationRoutes, verifyPageRoutes } from "./routes/verification.js";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.js";
import { signingRoutes } from "./signing/signing-routes.js";
import { TemplatePages } from "./template-pages.js";
import { TemplateVersions } from "./template-versions.js";
import { withConversionTime } from "./upload-deadline.js";
import { appPage, webApp } from "./web-app.js";

export interface GatewayServices {
  auth: Client<typeof AuthService>;
  documents: Client<typeof DocumentsService>;
  templates: Client<typeof TemplatesService>;
  requests: Client<typeof RequestsService>;
  webhooks: Client<typeof WebhooksService>;
}

export interface GatewayLimits {
  jsonBodyBytes: number;
  uploadBytes: number;
  ratePerSecond: number;
  burst: number;
  requestTimeoutMs: number;
  /** How long the converter may take over one upload: an upload's deadline holds this much more. */
  conversionTimeoutMs: number;
  admission: AdmissionLimits;
  /** One key's requests in the works at once, across the public API and /restapi (MCP has its own). */
  keyInFlight: AdmissionLimits;
  /** Memory for request bodies held at once, across all requests (see body-budget.ts). */
  bodyMemoryBytes: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  jsonBodyBytes: 1024 * 1024,
  uploadBytes: 25 * 1024 * 1024,
  ratePerSecond: 50,
  burst: 100,
  requestTimeoutMs: 30_000,
  conversionTimeoutMs: DEFAULT_CONVERSION_TIMEOUT_MS,
  admission: DEFAULT_ADMISSION,
  keyInFlight: DEFAULT_KEY_IN_FLIGHT,
  bodyMemoryBytes: DEFAULT_BODY_MEMORY_BYTES,
};

export interface GatewayOptions {
  services: GatewayServices;
  bus: EventBus;
  logger: Logger;
  /** The base URL clients reach us at: in links, cURL commands and the OpenAPI document. */
  publicUrl: string;
  limits?: Partial<GatewayLimits>;
  keyCacheTtlMs?: number;
  /** How long a page of templates is kept at most when no change is heard of. */
  templatePagesTtlMs?: number;
  /** Resolves when what the gateway depends on answers (GET /readyz). */
  ready: () => Promise<void>;
  /**
   * Addresses or CIDR blocks of the proxies in front of the gateway (an ingress): their
   * X-Forwarded-For is believed, so the audit trail and the log-in limiter see the client's address.
   */
  trustedProxies?: string[];
  /** Where the built web apps are, `sign/` and `console/` (gateway/web/dist unless told). */
  webRoot?: string;
  /** Where the gateway's Prometheus metrics are registered (a registry of its own unless told). */
  metrics?: Registry;
  /**
   * The directory of the documents service's filesystem blob store, where the gateway shares its
   * machine (standalone mode): downloads read the stored files instead of taking them over the RPC.
   */
  blobFiles?: string;
  /**
   * The documents service's spool directory, where the gateway shares its machine (standalone
   * mode): uploads are written there and handed over by name instead of crossing the RPC.
   */
  uploadSpool?: string;
}

export interface Gateway {
  app: Express;
  verifier: KeyVerifier;
  /** The OpenAPI document GET /openapi.json serves. */
  openapi: Record<string, unknown>;
  /** The gateway's Prometheus metrics (served apart from the public port). */
  metrics: Registry;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function isPublicApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/") || path === "/api/v1" || path.startsWith("/api/v1/");
}

/**
 * The OpenAPI document exactly as GET /openapi.json serves it, from a gateway with no service
 * behind it: the tests check answers against it.
 */
export function describeApi(publicUrl: string): Record<string, unknown> {
  return buildGateway({
    services: unconnectedServices(),
    bus: new MemoryEventBus(),
    logger: createLogger({ name: "gateway", level: "silent" }),
    publicUrl,
    ready: async () => {},
  }).openapi;
}

/** Clients of services that are not there (every call fails): for a gateway that only describes or refuses. */
export function unconnectedServices(): GatewayServices {
  const unconnected = createRouterTransport(() => {});
  return {
    auth: createClient(AuthService, unconnected),
    documents: createClient(DocumentsService, unconnected),
    templates: createClient(TemplatesService, unconnected),
    requests: createClient(RequestsService, unconnected),
    webhooks: createClient(WebhooksService, unconnected),
  };
}

export function buildGateway(options: GatewayOptions): Gateway {
  const { services, bus, logger, publicUrl } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const documents = withConversionTime(services.documents, limits);
  const verifier = new KeyVerifier(services.auth, { ttlMs: options.keyCacheTtlMs });
  const templatePages = new TemplatePages(services.templates, { ttlMs: options.templatePagesTtlMs });
  const versions = new TemplateVersions();
  const templates = versions.noting(templatePages.client);
  const requests = versions.asking(services.requests);
  const recorder = new ApiCallRecorder(bus, logger);
  const contract = new Contract();
  const keyLimiter = new RateLimiter(limits.ratePerSecond, limits.burst);
  const keyInFlight = new KeyInFlight(limits.keyInFlight);
  const bodies = new BodyBudget(limits.bodyMemoryBytes, limits.admission.maxWaitMs);
  const api = new PublicApi(
    contract,
    { limitBytes: limits.jsonBodyBytes, budget: bodies },
    [authenticate(verifier, keyLimiter, keyInFlight, { acceptViewCredentials: true })],
    [idempotency(services.auth, logger, { uploadBytes: limits.uploadBytes })],
  );
  pingRoutes(api);
  accountRoutes(api, services.auth);
  documentRoutes(api, documents, {
    maxUploadBytes: limits.uploadBytes,
    blobFiles: options.blobFiles,
    uploadSpool: options.uploadSpool,
  });
  templateRoutes(api, templates, documents);
  signatureRequestRoutes(api, requests, documents);
  requestExportRoutes(api, requests, documents);
  requestSettingsRoutes(api, requests, services.auth);
  embeddingSettingsRoutes(api, requests);
  const makeView = embeddedViews({ auth: services.auth, requests, templates, publicUrl });
  embeddedViewRoutes(api, makeView);
  brandingRoutes(api, requests, publicUrl);
  agreementSetRoutes(api, requests);
  bulkSendRoutes(api, requests, templates);
  webhookEndpointRoutes(api, services.webhooks);
  verificationRoutes(api, requests, limits.uploadBytes, bodies);

  const webRoot = options.webRoot ?? fileURLToPath(new URL("../web/dist", import.meta.url));
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  // Without trusted proxies, X-Forwarded-For is ignored: anyone could write it.
  app.set("trust proxy", proxyaddr.compile(options.trustedProxies ?? []));
  const metrics = options.metrics ?? new Registry();
  bodies.measure(metrics);
  app.use(
    requestContext(limits.requestTimeoutMs, [
      accessLog(logger),
      httpMetrics(metrics),
      (req, res) => recorder.record(req, res),
    ]),
  );
  app.use(admission(limits.admission, metrics));

  // Not mounted under a prefix: handlers see the full path, which API Usage records.
  app.use((req, res, next) => (isPublicApiPath(req.path) ? api.router(req, res, next) : next()));
  app.use(
    MCP_BASE,
    mcpEndpoint({
      tools: [...operationTools(api), ...documentTools(documents, limits.uploadBytes, publicUrl)],
      verifier,
      limiter: keyLimiter,
      recorder,
      logger,
      jsonBodyBytes: limits.jsonBodyBytes,
      uploadBytes: limits.uploadBytes,
      bodies,
      idempotency: new IdempotentCalls(services.auth, logger),
    }),
  );
  app.use(
    RESTAPI_BASE,
    restApiRoutes({
      requests,
      templates,
      documents,
      makeView,
      verifier,
      limiter: keyLimiter,
      inFlight: keyInFlight,
      logger,
      uploadBytes: limits.uploadBytes,
      bodies,
    }),
  );
  app.use(OAUTH_BASE, oauthRoutes({ auth: services.auth, publicUrl }));
  app.use(probeRoutes(contract, options.ready, logger));
  // Log-in, accepting an invitation and resetting a password share one budget per client address.
  const loginLimiter = new RateLimiter(0.2, 10);
  app.use("/console/api", sessionRoutes({ auth: services.auth, contract, publicUrl, loginLimiter }));
  app.use(
    "/console/api",
    accountLinkRoutes({ auth: services.auth, contract, publicUrl, limiter: loginLimiter }),
  );
  app.use("/console/api", consentRoutes({ auth: services.auth, contract, publicUrl }));
  // A log-in through an identity provider: a few a second per address is more than a person needs.
  const ssoLimiter = new RateLimiter(1, 20);
  app.use(
    "/console/api",
    singleSignOnSearchRoutes({ auth: services.auth, contract, publicUrl, limiter: ssoLimiter }),
  );
  app.use(
    SSO_BASE,
    singleSignOnLogInRoutes({ auth: services.auth, contract, publicUrl, limiter: ssoLimiter, logger }),
  );
  app.use(
    CONSOLE_WORKSPACE_BASE,
    consoleWorkspaceRoutes({
      auth: services.auth,
      requests,
      api,
      contract,
      verifier,
      publicUrl,
    }),
  );
  app.use(
    "/sign",
    signingRoutes({
      requests,
      documents,
      blobFiles: options.blobFiles,
      contract,
      publicUrl,
      linkLimiter: new RateLimiter(0.5, 30),
      // Three copies at once, then one a minute, per session.
      copyLimiter: new RateLimiter(1 / 60, 3),
      bodies,
      webRoot: join(webRoot, "sign"),
    }),
  );
  app.use(
    "/verify",
    verifyPageRoutes({
      requests,
      contract,
      // Ten files at once, then one each 5 s, from one address: the page is for people, the API for programs.
      limiter: new RateLimiter(0.2, 10),
      maxUploadBytes: limits.uploadBytes,
      bodies,
      webRoot: join(webRoot, "verify"),
    }),
  );
  const consolePage = { dir: join(webRoot, "console"), name: "console" };
  const sendConsolePage = appPage(consolePage);
  app.use(
    "/console",
    embeddedViewPageRoutes({
      auth: services.auth,
      contract,
      sendPage: sendConsolePage,
      limiter: new RateLimiter(0.5, 30),
    }),
  );
  app.use(
    "/console",
    webApp(
      {
        ...consolePage,
        // Every path of the app is a page; /console/api/... that no route took stays a 404 problem,
        // however it is spelled (routing ignores case).
        pages: /^\/(?!api(\/|$)|assets\/).*$/i,
      },
      sendConsolePage,
    ),
  );
  app.get("/", (_req, res) => res.redirect(302, "/console/"));
  const openapi = openApiDocument(contract, publicUrl);
  const served = JSON.stringify(openapi);
  app.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(served);
  });
  app.use(notFound);
  app.use(problemHandler(logger));

  let stopListening: Unsubscribe[] = [];
  return {
    app,
    verifier,
    openapi,
    metrics,
    async start() {
      warnWithoutUploadCollection(logger);
      stopListening = [await verifier.listen(bus), await templatePages.listen(bus)];
    },
    async stop() {
      for (const stop of stopListening) await stop();
      await recorder.flush();
    },
  };
}
