/**
 * Bulk sends as callers see them: a list checked row by row against the template before anything is
 * sent — every unsound row named by its line — then stored, each row as the whole request it makes,
 * for the worker (bulk-send-worker.ts) to send in the background; and the batch read back, its rows
 * listed, the batch cancelled.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type Actor,
  type BulkSend,
  type BulkSendRow,
  type BulkSendRowResult,
  BulkSendRowResultSchema,
  BulkSendSchema,
  type CreateSignatureRequestRequest,
  CreateSignatureRequestRequestSchema,
  type StartBulkSendRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  callIsTest,
  type Database,
  type FieldViolation,
  isUniqueViolation,
  isUuid,
  notFound,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { type BatchRow, bulkSendStore, type RowStatus } from "./bulk-send-store.js";
import type { RequestMaker } from "./request-maker.js";

export const BULK_LIMITS = {
  rows: 1000,
  nameLength: 200,
  operationKeyLength: 128,
  pageSize: 100,
} as const;

const ROW_STATUSES: readonly RowStatus[] = ["pending", "sent", "failed", "cancelled"];

/**
 * The request a row makes: the batch's settings, the row's people and merge values, sent at once.
 * Without a row, the batch's settings alone (to look its template up).
 */
function requestOf(batch: StartBulkSendRequest, row?: BulkSendRow, key = "") {
  return create(CreateSignatureRequestRequestSchema, {
    workspaceId: batch.workspaceId,
    templateId: batch.templateId,
    templateVersionAtLeast: batch.templateVersionAtLeast,
    title: row?.title || batch.title,
    message: row?.message || batch.message,
    expireTime: batch.expireTime,
    reminderEveryDays: batch.reminderEveryDays,
    recipients: row?.recipients ?? [],
    mergeFields: row?.mergeFields ?? {},
    actor: batch.actor,
    send: true,
    operationKey: key,
  });
}

/** Who made a batch or a list, as its pages name them: the console user's e-mail, or the key's name. */
export function creatorOf(actor: Actor | undefined): string {
  return actor?.email || actor?.name || "";
}

/** A row's request is made once, whoever takes the row up and however often. */
export function rowOperationKey(batchId: string, line: number): string {
  return `bulk:${batchId}:${line}`;
}

function toBulkSend(row: BatchRow): BulkSend {
  return create(BulkSendSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    templateId: row.template_id,
    name: row.name,
    title: row.title,
    status: row.status,
    total: row.pending + row.sent + row.failed + row.cancelled,
    sent: row.sent,
    failed: row.failed,
    pending: row.pending,
    cancelled: row.cancelled,
    createTime: timestampFromDate(row.created_at),
    endTime: row.ended_at ? timestampFromDate(row.ended_at) : undefined,
    createdBy: row.created_by,
  });
}

/** What is wrong with the list itself: its size, its lines, what a bulk send does not take. */
function listViolations(input: StartBulkSendRequest): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (input.operationKey.length > BULK_LIMITS.operationKeyLength) {
    violations.push({
      path: "operationKey",
      message: `must be at most ${BULK_LIMITS.operationKeyLength} characters`,
    });
  }
  if (!input.templateId)
    violations.push({ path: "templateId", message: "is required: a bulk send is made from a template" });
  if (input.rows.length === 0) violations.push({ path: "rows", message: "must hold at least one row" });
  if (input.rows.length > BULK_LIMITS.rows) {
    violations.push({
      path: "rows",
      message: `holds ${input.rows.length} rows; a bulk send takes at most ${BULK_LIMITS.rows}`,
    });
  }
  const lines = new Set<number>();
  input.rows.forEach((row, i) => {
    if (row.line < 1) violations.push({ path: `rows[${i}].line`, message: "must be 1 or more" });
    else if (lines.has(row.line))
      violations.push({ path: `rows[${i}].line`, message: `line ${row.line} is given twice` });
    lines.add(row.line);
    row.recipients.forEach((r, j) => {
      if (r.accessCode) {
        violations.push({
          path: `rows[${i}].recipients[${j}].accessCode`,
          message: `line ${row.line}: a bulk send takes no access codes; use emailCode`,
        });
      }
    });
  });
  return violations;
}

/**
 * Every row's violations, each under `rows[i].` and naming its line. What the batch's own settings
 * get wrong (its title, say) would be wrong in every row: it is reported once, at its own path.
 */
function rowViolations(
  input: StartBulkSendRequest,
  check: (request: CreateSignatureRequestRequest) => FieldViolation[],
): FieldViolation[] {
  const ofBatch = new Map<string, FieldViolation>();
  const ofRows: FieldViolation[] = [];
  input.rows.forEach((row, i) => {
    const own = (path: string) =>
      path.startsWith("recipients") ||
      path.startsWith("mergeFields") ||
      (path === "title" && row.title !== "") ||
      (path === "message" && row.message !== "");
    for (const v of check(requestOf(input, row))) {
      if (own(v.path)) {
        ofRows.push({ path: `rows[${i}].${v.path}`, message: `line ${row.line}: ${v.message}` });
      } else ofBatch.set(v.path, v);
    }
  });
  return [...ofBatch.values(), ...ofRows];
}

export class BulkSends {
  constructor(
    private readonly db: Database,
    private readonly creation: RequestMaker,
    /** Wakes the worker once a batch is stored. */
    private readonly started: () => void,
  ) {}

  async start(input: StartBulkSendRequest): Promise<BulkSend> {
    const listed = listViolations(input);
    if (listed.length > 0) throw validationError(listed, "the bulk send is not valid");
    const earlier = await this.startedBy(input);
    if (earlier) return earlier;
    const violations = rowViolations(input, await this.creation.checkerFor(requestOf(input)));
    if (violations.length > 0) throw validationError(violations, "rows of the bulk send are not valid");
    const id = uuidv7();
    try {
      await this.db.transaction((tx) =>
        bulkSendStore.insert(tx, {
          id,
          workspaceId: input.workspaceId,
          templateId: input.templateId,
          name: (input.name || input.title).trim(),
          title: input.title.trim(),
          createdBy: creatorOf(input.actor),
          operationKey: input.operationKey || null,
          test: callIsTest(),
          rows: input.rows.map((row) => ({
            line: row.line,
            input: toBinary(
              CreateSignatureRequestRequestSchema,
              requestOf(input, row, rowOperationKey(id, row.line)),
            ),
            recipients: row.recipients.map((r) => `${r.name.trim()} <${r.email.trim()}>`),
          })),
        }),
      );
    } catch (err) {
      const raced = isUniqueViolation(err, "bulk_sends_operation_key");
      const first = raced ? await this.startedBy(input) : undefined;
      if (first) return first;
      throw err;
    }
    this.started();
    return this.get(input.workspaceId, id);
  }

  async get(workspaceId: string, id: string): Promise<BulkSend> {
    const row = isUuid(id) ? await bulkSendStore.byId(this.db, workspaceId, id) : undefined;
    if (!row) throw notFound("bulk send");
    return toBulkSend(row);
  }

  async list(workspaceId: string, pageIndex: number, pageSize: number) {
    if (pageSize < 1 || pageSize > BULK_LIMITS.pageSize || pageIndex < 0) {
      throw new ConnectError(
        `page_size must be 1 to ${BULK_LIMITS.pageSize}, page_index 0 or more`,
        Code.InvalidArgument,
      );
    }
    const { batches, total } = await bulkSendStore.page(this.db, workspaceId, pageIndex * pageSize, pageSize);
    return { bulkSends: batches.map(toBulkSend), total };
  }

  async rows(
    workspaceId: string,
    id: string,
    status: string,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ rows: BulkSendRowResult[]; total: number }> {
    if (status && !(ROW_STATUSES as readonly string[]).includes(status)) {
      throw new ConnectError(`status must be one of ${ROW_STATUSES.join(", ")}`, Code.InvalidArgument);
    }
    await this.get(workspaceId, id);
    const page = await bulkSendStore.rows(
      this.db,
      id,
      (status || undefined) as RowStatus | undefined,
      pageIndex,
      pageSize,
    );
    return {
      rows: page.rows.map((r) =>
        create(BulkSendRowResultSchema, {
          line: r.line,
          status: r.status,
          signatureRequestId: r.request_id ?? "",
          error: r.error,
          recipients: r.recipients,
        }),
      ),
      total: page.totalCount,
    };
  }

  /** Stops the batch's rows not yet taken up; a batch that has ended is answered as it is. */
  async cancel(workspaceId: string, id: string): Promise<BulkSend> {
    await this.get(workspaceId, id);
    await this.db.transaction((tx) => bulkSendStore.cancel(tx, id));
    return this.get(workspaceId, id);
  }

  private async startedBy(input: StartBulkSendRequest): Promise<BulkSend | undefined> {
    if (!input.operationKey) return undefined;
    const id = await bulkSendStore.idByOperationKey(this.db, input.workspaceId, input.operationKey);
    return id ? this.get(input.workspaceId, id) : undefined;
  }
}
