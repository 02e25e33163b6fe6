/**
 * Bulk sends over HTTP: start one from rows (JSON) or a CSV file's text, follow its progress, list
 * its rows with each failure's reason, cancel the rest. The requests service checks every row and
 * does the sending; a CSV file is read here, against the template's roles and field labels, into
 * the same rows, each keeping its line.
 */

import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { mergeLabels } from "@countersign/domain";
import type {
  BulkSendRowResult,
  NewRecipientSchema,
  RequestsService,
  BulkSend as StoredBulkSend,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { currentCallContext } from "@countersign/kit";
import { create as contentDisposition } from "content-disposition";
import type { z } from "zod";
import { type CsvTemplate, csvTemplateFor, csvTemplateOf, rowsFromCsv } from "../bulk-send-csv.js";
import {
  BulkSend,
  BulkSendIdParams,
  BulkSendInput,
  BulkSendPage,
  type BulkSendRow,
  BulkSendRowPage,
  BulkSendRowQuery,
  CsvTemplateQuery,
} from "../contract/bulk-sends.js";
import { pageBody, pageQuery } from "../contract/values.js";
import { iso, isoOrNull } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { accepted, ok, type PublicApi } from "../public-api.js";

const TAG = "Bulk sends";
const READ_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

export function bulkSendJson(batch: StoredBulkSend | undefined): z.infer<typeof BulkSend> {
  if (!batch) throw new Error("the requests service answered without a bulk send");
  return {
    id: batch.id,
    templateId: batch.templateId,
    name: batch.name,
    title: batch.title,
    status: batch.status as z.infer<typeof BulkSend>["status"],
    total: batch.total,
    sent: batch.sent,
    failed: batch.failed,
    pending: batch.pending,
    cancelled: batch.cancelled,
    createdBy: batch.createdBy,
    createdAt: iso(batch.createTime),
    endedAt: isoOrNull(batch.endTime),
  };
}

function rowJson(row: BulkSendRowResult): z.infer<typeof BulkSendRow> {
  return {
    line: row.line,
    status: row.status as z.infer<typeof BulkSendRow>["status"],
    signatureRequestId: row.signatureRequestId || null,
    error: row.error || null,
    recipients: row.recipients,
  };
}

type Rows = {
  line: number;
  recipients: MessageInitShape<typeof NewRecipientSchema>[];
  mergeFields: Record<string, string>;
}[];

/** What a CSV file of the template holds: its roles in signing order, its merge fields' labels. */
async function columnsOfTemplate(
  workspaceId: string,
  templateId: string,
  templates: Client<typeof TemplatesService>,
): Promise<CsvTemplate> {
  const template = await templates.getTemplate({ workspaceId, templateId }).then(
    (got) => got.template,
    (err: unknown) => {
      if (!(err instanceof ConnectError && err.code === Code.NotFound)) throw err;
      throw new ApiProblem("validation_failed", "the bulk send is not valid", [
        { path: "templateId", message: "there is no such template in this workspace" },
      ]);
    },
  );
  return csvTemplateOf(
    [...(template?.roles ?? [])].sort((a, b) => a.order - b.order).map((r) => r.name),
    mergeLabels(template?.fields ?? []),
  );
}

/** The rows of a start: as given, each at its place in the list, or read from the CSV file. */
async function rowsOf(
  body: z.infer<typeof BulkSendInput>,
  workspaceId: string,
  templates: Client<typeof TemplatesService>,
): Promise<Rows> {
  if ((body.rows === undefined) === (body.csv === undefined)) {
    throw new ApiProblem("validation_failed", "give the rows or a CSV file", [
      { path: "rows", message: "give `rows` or `csv`, one of the two" },
    ]);
  }
  if (body.rows) {
    return body.rows.map((row, i) => ({
      line: i + 1,
      recipients: row.recipients,
      mergeFields: row.mergeFields ?? {},
    }));
  }
  const read = rowsFromCsv(body.csv ?? "", await columnsOfTemplate(workspaceId, body.templateId, templates));
  if ("problems" in read)
    throw new ApiProblem("validation_failed", "the CSV file cannot be read", read.problems);
  return read.rows;
}

export function bulkSendRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  templates: Client<typeof TemplatesService>,
): void {
  api.route(
    "post",
    "/bulk-sends",
    {
      summary: "Send a template to a list",
      description:
        "Checks every row against the template, then sends one request a row in the background: follow it with GET /bulk-sends/{bulkSendId}. With an `Idempotency-Key`, a retried start answers the batch the first one started.",
      tag: TAG,
      scope: "requests:send",
      body: BulkSendInput,
      answers: { 202: { description: "The batch, started.", schema: BulkSend } },
      problems: [...READ_PROBLEMS, 409, 413, 415, 422],
    },
    async ({ workspaceId, body, actor }) => {
      const rows = await rowsOf(body, workspaceId, templates);
      const { bulkSend } = await requests.startBulkSend({
        workspaceId,
        templateId: body.templateId,
        title: body.title,
        name: body.name ?? "",
        message: body.message ?? "",
        rows,
        expireTime: body.expiresAt ? timestampFromDate(body.expiresAt) : undefined,
        reminderEveryDays: body.reminderEveryDays,
        actor,
        operationKey: currentCallContext()?.operationKey ?? "",
      });
      return accepted(bulkSendJson(bulkSend));
    },
  );

  api.streamRoute(
    "get",
    "/bulk-sends/csv-template",
    {
      summary: "Get the CSV file to fill in for a template",
      description:
        "The header line a bulk send's `csv` takes for the template: a name and an e-mail column for each role, in signing order, then a column for each text, number or date field's label. A role or label a spreadsheet would run as a formula is written with a leading `'`, which reading the file drops again.",
      tag: TAG,
      scope: "templates:read",
      query: CsvTemplateQuery,
      answers: {
        200: { description: "The header line.", content: { "text/csv": { schema: { type: "string" } } } },
      },
      problems: [...READ_PROBLEMS, 422],
    },
    async ({ res, workspaceId, query }) => {
      const csv = csvTemplateFor(await columnsOfTemplate(workspaceId, query.templateId, templates));
      res.set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition("bulk-send.csv"),
        "Cache-Control": "private, no-store",
      });
      res.end(csv);
    },
  );

  api.route(
    "get",
    "/bulk-sends",
    {
      summary: "List bulk sends",
      tag: TAG,
      scope: "requests:read",
      query: pageQuery,
      answers: { 200: { description: "One page of batches, newest first.", schema: BulkSendPage } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, query }) => {
      const { bulkSends, total } = await requests.listBulkSends({ workspaceId, ...query });
      return ok(pageBody(bulkSends.map(bulkSendJson), query, total));
    },
  );

  api.route(
    "get",
    "/bulk-sends/:bulkSendId",
    {
      summary: "Get a bulk send and how far it has got",
      tag: TAG,
      scope: "requests:read",
      params: BulkSendIdParams,
      answers: { 200: { description: "The batch and its counts.", schema: BulkSend } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params }) =>
      ok(bulkSendJson((await requests.getBulkSend({ workspaceId, ...params })).bulkSend)),
  );

  api.route(
    "get",
    "/bulk-sends/:bulkSendId/rows",
    {
      summary: "List a bulk send's rows",
      description: "Each row's request once sent, or why it failed; `status=failed` lists the failures.",
      tag: TAG,
      scope: "requests:read",
      params: BulkSendIdParams,
      query: pageQuery.extend(BulkSendRowQuery.shape),
      answers: { 200: { description: "One page of rows, in line order.", schema: BulkSendRowPage } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params, query }) => {
      const { rows, total } = await requests.listBulkSendRows({
        workspaceId,
        ...params,
        status: query.status ?? "",
        pageIndex: query.pageIndex,
        pageSize: query.pageSize,
      });
      return ok(pageBody(rows.map(rowJson), query, total));
    },
  );

  api.route(
    "post",
    "/bulk-sends/:bulkSendId/cancel",
    {
      summary: "Cancel a bulk send",
      description:
        "Rows not yet sent are not sent; requests already sent stay sent (cancel them one by one). Cancelling a batch that has ended answers it as it is.",
      tag: TAG,
      scope: "requests:write",
      params: BulkSendIdParams,
      answers: { 200: { description: "The batch after the cancellation.", schema: BulkSend } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params, actor }) =>
      ok(bulkSendJson((await requests.cancelBulkSend({ workspaceId, ...params, actor })).bulkSend)),
  );
}
