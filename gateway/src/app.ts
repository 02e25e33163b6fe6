/**
 * Assembles the gateway: the public API (both families), the console's API, the OpenAPI document
 * and the probes. It reaches services only through their generated clients.
 */
import { readFileSync } from "node:fs";
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { EventBus, Logger, Unsubscribe } from "@countersign/kit";
import express, { type Express } from "express";
import { developerRoutes } from "./console/developer.js";
import { sessionRoutes } from "./console/session.js";
import { KeyVerifier } from "./key-verifier.js";
import { accessLog } from "./middleware/access-log.js";
import { ApiCallRecorder } from "./middleware/api-call-recorder.js";
import { authenticate } from "./middleware/authenticate.js";
import { notFound, problemHandler } from "./middleware/errors.js";
import { idempotency } from "./middleware/idempotency.js";
import { requestContext } from "./middleware/request-context.js";
import { ApiProblem } from "./problems.js";
import { PublicApi } from "./public-api.js";
import { RateLimiter } from "./rate-limiter.js";
import { accountRoutes } from "./routes/account.js";
import { agreementSetRoutes } from "./routes/agreement-sets.js";
import { documentRoutes } from "./routes/documents.js";
import { pingRoutes } from "./routes/ping.js";
import { signatureRequestRoutes } from "./routes/signature-requests.js";
import { templateRoutes } from "./routes/templates.js";

export interface GatewayServices {
  auth: Client<typeof AuthService>;
  documents: Client<typeof DocumentsService>;
  templates: Client<typeof TemplatesService>;
  requests: Client<typeof RequestsService>;
}

export interface GatewayLimits {
  jsonBodyBytes: number;
  uploadBytes: number;
  ratePerSecond: number;
  burst: number;
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  jsonBodyBytes: 1024 * 1024,
  uploadBytes: 25 * 1024 * 1024,
  ratePerSecond: 50,
  burst: 100,
  requestTimeoutMs: 30_000,
};

export interface GatewayOptions {
  services: GatewayServices;
  bus: EventBus;
  logger: Logger;
  /** The base URL clients reach us at: in links, cURL commands and the OpenAPI document. */
  publicUrl: string;
  limits?: Partial<GatewayLimits>;
  keyCacheTtlMs?: number;
  /** Resolves when what the gateway depends on answers (GET /readyz). */
  ready: () => Promise<void>;
}

export interface Gateway {
  app: Express;
  verifier: KeyVerifier;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const OPENAPI = JSON.parse(
  readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

function isPublicApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/") || path === "/api/v1" || path.startsWith("/api/v1/");
}

export function buildGateway(options: GatewayOptions): Gateway {
  const { services, bus, logger, publicUrl } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const verifier = new KeyVerifier(services.auth, { ttlMs: options.keyCacheTtlMs });
  const recorder = new ApiCallRecorder(bus, logger);
  const api = new PublicApi(
    limits.jsonBodyBytes,
    [authenticate(verifier, new RateLimiter(limits.ratePerSecond, limits.burst))],
    [idempotency(services.auth, logger, { uploadBytes: limits.uploadBytes })],
  );
  pingRoutes(api);
  accountRoutes(api, services.auth);
  documentRoutes(api, services.documents, limits.uploadBytes);
  templateRoutes(api, services.templates);
  signatureRequestRoutes(api, services.requests);
  agreementSetRoutes(api, services.requests);

  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use(
    requestContext(limits.requestTimeoutMs, [accessLog(logger), (req, res) => recorder.record(req, res)]),
  );

  // Not mounted under a prefix: handlers see the full path, which API Usage records.
  app.use((req, res, next) => (isPublicApiPath(req.path) ? api.router(req, res, next) : next()));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    await options.ready().catch((err: unknown) => {
      logger.warn({ err }, "not ready");
      throw new ApiProblem("unavailable", "a service or the event bus is not answering");
    });
    res.json({ status: "ok" });
  });
  const openapi = JSON.stringify({ ...OPENAPI, servers: [{ url: publicUrl }] });
  app.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(openapi);
  });

  app.use(
    "/console/api",
    sessionRoutes({ auth: services.auth, publicUrl, loginLimiter: new RateLimiter(0.2, 10) }),
  );
  app.use(
    "/console/api/workspaces/:workspaceId",
    developerRoutes({ auth: services.auth, verifier, publicUrl }),
  );
  app.use(notFound);
  app.use(problemHandler(logger));

  let stopListening: Unsubscribe | undefined;
  return {
    app,
    verifier,
    async start() {
      stopListening = await verifier.listen(bus);
    },
    async stop() {
      await stopListening?.();
      await recorder.flush();
    },
  };
}
