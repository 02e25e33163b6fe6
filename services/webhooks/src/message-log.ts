/** An endpoint's messages with their attempts, and the manual ways to deliver them again. */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Message } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { type Database, isUuid, notFound } from "@countersign/kit";
import { assertEnabled, type Endpoints, endpointOf } from "./endpoints.js";
import { isWebhookEventType } from "./event-types.js";
import { store } from "./store.js";
import { toMessage } from "./to-proto.js";

const MESSAGE_STATUSES = ["pending", "succeeded", "failed"];
/** Attempts listed with each message, newest first; `attemptCount` says how many there were. */
const LISTED_ATTEMPTS = 10;

export class MessageLog {
  constructor(
    private readonly db: Database,
    private readonly endpoints: Endpoints,
    /** Called after messages were made due, so that their delivery starts at once. */
    private readonly due: () => void,
  ) {}

  async list(
    workspaceId: string,
    endpointId: string,
    filter: { status: string; eventType: string },
    pageIndex: number,
    pageSize: number,
  ): Promise<{ messages: Message[]; totalCount: number }> {
    if (filter.status && !MESSAGE_STATUSES.includes(filter.status)) {
      throw new ConnectError(`status must be one of ${MESSAGE_STATUSES.join(", ")}`, Code.InvalidArgument);
    }
    if (filter.eventType && !isWebhookEventType(filter.eventType)) {
      throw new ConnectError(
        `eventType ${JSON.stringify(filter.eventType)} is not an event type`,
        Code.InvalidArgument,
      );
    }
    await this.endpoints.get(workspaceId, endpointId);
    const page = await store.messagesPage(this.db, endpointId, filter, pageIndex, pageSize);
    const attempts = await store.attemptsOf(
      this.db,
      page.rows.map((row) => row.id),
      LISTED_ATTEMPTS,
    );
    return {
      messages: page.rows.map((row) =>
        toMessage(
          row,
          attempts.filter((a) => a.message_id === row.id),
        ),
      ),
      totalCount: page.totalCount,
    };
  }

  async retry(workspaceId: string, endpointId: string, messageId: string): Promise<Message> {
    const message = await this.db.transaction(async (tx) => {
      assertEnabled(await endpointOf(tx, workspaceId, endpointId), "retry a message");
      const found = isUuid(messageId) ? await store.message(tx, endpointId, messageId, true) : undefined;
      if (!found) throw notFound("message");
      if (!(await store.reschedule(tx, endpointId, messageId, "retry"))) {
        throw new ConnectError(
          "an attempt at this message is under way; retry when it has ended",
          Code.FailedPrecondition,
        );
      }
      return store.message(tx, endpointId, messageId);
    });
    this.due();
    const attempts = await store.attemptsOf(this.db, [messageId], LISTED_ATTEMPTS);
    return toMessage(message as NonNullable<typeof message>, attempts);
  }

  async replay(workspaceId: string, endpointId: string, since: Date, onlyFailed: boolean): Promise<number> {
    const endpoint = await this.endpoints.get(workspaceId, endpointId);
    assertEnabled(endpoint, "replay messages");
    const count = await store.replay(this.db, endpointId, since, onlyFailed);
    if (count > 0) this.due();
    return count;
  }
}
