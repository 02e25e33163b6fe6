/** Translates WebhooksService RPCs into calls on the domain classes. */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type ServiceImpl } from "@connectrpc/connect";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import type { Endpoints } from "./endpoints.js";
import type { MessageLog } from "./message-log.js";
import type { TestFire } from "./test-fire.js";
import { toEndpoint } from "./to-proto.js";

export interface WebhooksDomain {
  endpoints: Endpoints;
  messageLog: MessageLog;
  testFire: TestFire;
}

export function webhooksRoutes({ endpoints, messageLog, testFire }: WebhooksDomain) {
  const impl: ServiceImpl<typeof WebhooksService> = {
    createEndpoint: async (req) => {
      const { endpoint, secret } = await endpoints.create(req);
      return { endpoint: toEndpoint(endpoint), secret };
    },
    getEndpoint: async (req) => ({
      endpoint: toEndpoint(await endpoints.get(req.workspaceId, req.endpointId)),
    }),
    listEndpoints: async (req) => {
      const page = await endpoints.list(req.workspaceId, req.pageIndex, req.pageSize || 20);
      return { endpoints: page.rows.map(toEndpoint), totalCount: page.totalCount };
    },
    updateEndpoint: async (req) => ({ endpoint: toEndpoint(await endpoints.update(req)) }),
    deleteEndpoint: async (req) => {
      await endpoints.delete(req.workspaceId, req.endpointId);
      return {};
    },
    revealSecret: async (req) => ({ secret: await endpoints.revealSecret(req.workspaceId, req.endpointId) }),
    rotateSecret: async (req) => {
      const { secret, previousExpiresAt } = await endpoints.rotateSecret(req.workspaceId, req.endpointId);
      return { secret, previousSecretExpireTime: timestampFromDate(previousExpiresAt) };
    },
    listMessages: (req) =>
      messageLog.list(
        req.workspaceId,
        req.endpointId,
        { status: req.status, eventType: req.eventType },
        req.pageIndex,
        req.pageSize || 20,
      ),
    retryMessage: async (req) => ({
      message: await messageLog.retry(req.workspaceId, req.endpointId, req.messageId),
    }),
    replayMessages: async (req) => {
      if (!req.since) throw new ConnectError("since is required", Code.InvalidArgument);
      return {
        replayedCount: await messageLog.replay(
          req.workspaceId,
          req.endpointId,
          timestampDate(req.since),
          req.onlyFailed,
        ),
      };
    },
    testEndpoint: (req) => testFire.fire(req.workspaceId, req.endpointId, req.eventType),
  };
  return (router: ConnectRouter) => router.service(WebhooksService, impl);
}
