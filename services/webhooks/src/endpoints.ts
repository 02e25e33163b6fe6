/**
 * Webhook endpoints: registered, changed and removed by a workspace, each with a signing secret that
 * is returned only at creation and when revealed, and that rotates with a 24-hour overlap.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { isWebhookFormat, WEBHOOK_FORMATS } from "@countersign/domain";
import type {
  CreateEndpointRequest,
  UpdateEndpointRequest,
} from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import {
  type Database,
  type FieldViolation,
  isUuid,
  notFound,
  type Queryable,
  type SecretBox,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { endpointUrlProblem, type Network } from "./delivery/guarded-client.js";
import { generateSecret } from "./endpoint-secrets.js";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js";
import { type EndpointRow, store } from "./store.js";

const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION_LENGTH = 1000;
/** How long a replaced secret keeps signing beside the new one (docs/design.md §6). */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface EndpointsOptions {
  db: Database;
  secrets: SecretBox;
  allowNetworks: readonly Network[];
}

/** The workspace's endpoint (locked for the transaction when asked), or not_found. */
export async function endpointOf(
  db: Queryable,
  workspaceId: string,
  endpointId: string,
  lock = false,
): Promise<EndpointRow> {
  const endpoint = isUuid(endpointId) ? await store.endpoint(db, workspaceId, endpointId, lock) : undefined;
  if (!endpoint) throw notFound("webhook endpoint");
  return endpoint;
}

export class Endpoints {
  constructor(private readonly options: EndpointsOptions) {}

  async create(request: CreateEndpointRequest): Promise<{ endpoint: EndpointRow; secret: string }> {
    const violations = [
      ...this.urlViolations(request.url),
      ...descriptionViolations(request.description),
      ...eventTypeViolations(request.eventTypes),
      ...formatViolations(request.format),
    ];
    if (violations.length > 0) throw validationError(violations);
    const secret = generateSecret();
    const id = uuidv7();
    const endpoint = await store.insertEndpoint(this.options.db, {
      id,
      workspace_id: request.workspaceId,
      url: request.url,
      description: request.description,
      event_types: request.eventTypes,
      format: isWebhookFormat(request.format) ? request.format : "standard_webhooks",
      secret_sealed: this.options.secrets.seal(secret, id),
    });
    return { endpoint, secret };
  }

  get(workspaceId: string, endpointId: string): Promise<EndpointRow> {
    return endpointOf(this.options.db, workspaceId, endpointId);
  }

  list(workspaceId: string, pageIndex: number, pageSize: number) {
    return store.endpointsPage(this.options.db, workspaceId, pageIndex, pageSize);
  }

  async update(request: UpdateEndpointRequest): Promise<EndpointRow> {
    const violations = [
      ...(request.url === undefined ? [] : this.urlViolations(request.url)),
      ...(request.description === undefined ? [] : descriptionViolations(request.description)),
      ...(request.eventTypes === undefined ? [] : eventTypeViolations(request.eventTypes.values)),
    ];
    if (violations.length > 0) throw validationError(violations);
    return this.options.db.transaction(async (tx) => {
      const current = await endpointOf(tx, request.workspaceId, request.endpointId, true);
      const next: EndpointRow = {
        ...current,
        url: request.url ?? current.url,
        description: request.description ?? current.description,
        event_types: request.eventTypes?.values ?? current.event_types,
      };
      if (request.disabled === true && !current.disabled_at) {
        next.disabled_at = new Date();
        next.disabled_reason = "disabled by a member of the workspace";
      } else if (request.disabled === false && current.disabled_at) {
        next.disabled_at = null;
        next.disabled_reason = "";
        next.failing_since = null;
      }
      return store.updateEndpoint(tx, next);
    });
  }

  async delete(workspaceId: string, endpointId: string): Promise<void> {
    if (!isUuid(endpointId) || !(await store.deleteEndpoint(this.options.db, workspaceId, endpointId))) {
      throw notFound("webhook endpoint");
    }
  }

  async revealSecret(workspaceId: string, endpointId: string): Promise<string> {
    const endpoint = await this.get(workspaceId, endpointId);
    return this.options.secrets.open(endpoint.secret_sealed, endpoint.id);
  }

  async rotateSecret(
    workspaceId: string,
    endpointId: string,
  ): Promise<{ secret: string; previousExpiresAt: Date }> {
    return this.options.db.transaction(async (tx) => {
      const endpoint = await endpointOf(tx, workspaceId, endpointId, true);
      // Only the secret replaced now keeps signing; one replaced by an earlier rotation stops at once.
      const secret = generateSecret();
      const previousExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
      await store.rotateSecret(
        tx,
        endpoint.id,
        this.options.secrets.seal(secret, endpoint.id),
        previousExpiresAt,
      );
      return { secret, previousExpiresAt };
    });
  }

  private urlViolations(url: string): FieldViolation[] {
    if (url.length > MAX_URL_LENGTH)
      return [{ path: "url", message: `must be at most ${MAX_URL_LENGTH} characters` }];
    const problem = endpointUrlProblem(url, this.options.allowNetworks);
    return problem ? [{ path: "url", message: problem }] : [];
  }
}

function descriptionViolations(description: string): FieldViolation[] {
  return description.length > MAX_DESCRIPTION_LENGTH
    ? [{ path: "description", message: `must be at most ${MAX_DESCRIPTION_LENGTH} characters` }]
    : [];
}

function formatViolations(format: string): FieldViolation[] {
  if (format === "" || isWebhookFormat(format)) return [];
  return [
    {
      path: "format",
      message: `must be one of ${WEBHOOK_FORMATS.map((f) => JSON.stringify(f)).join(", ")}`,
    },
  ];
}

function eventTypeViolations(types: readonly string[]): FieldViolation[] {
  if (types.length === 0) return [{ path: "eventTypes", message: "must have at least 1 item" }];
  const violations: FieldViolation[] = [];
  types.forEach((type, index) => {
    if (!isWebhookEventType(type)) {
      violations.push({
        path: `eventTypes[${index}]`,
        message: `must be one of ${WEBHOOK_EVENT_TYPES.map((t) => JSON.stringify(t)).join(", ")}`,
      });
    } else if (types.indexOf(type) !== index) {
      violations.push({ path: `eventTypes[${index}]`, message: "is listed twice" });
    }
  });
  return violations;
}

/** An operation that needs deliveries refused while the endpoint is disabled. */
export function assertEnabled(endpoint: EndpointRow, operation: string): void {
  if (endpoint.disabled_at) {
    throw new ConnectError(
      `cannot ${operation}: the endpoint is disabled (${endpoint.disabled_reason}); enable it first`,
      Code.FailedPrecondition,
    );
  }
}
