/**
 * /restapi's bulk sending, as the docusign-esign client's BulkEnvelopesApi calls it: bulk send lists
 * kept and changed, a list sent from a template, and its batch followed (its counts, its errors, the
 * envelopes it made). A list's copies become the rows of a native bulk send: a copy's recipients fill
 * the template's roles by `roleName`, their `tabs` and the copy's `prefillTabs` fill fields by
 * `tabLabel`, and its `emailSubject` and `emailBlurb` name that copy's request.
 *
 * Not taken: a draft envelope as what a list is sent from (only templates), a copy's custom fields,
 * access codes, and batch actions (resend, correct, void).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  BulkSend,
  BulkSendList,
  BulkSendRowSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { z } from "zod";
import { text } from "../contract/values.js";
import { actorOf } from "../public-api.js";
import { DocuSignError, type ErrorNames, invalidBody } from "./docusign-errors.js";
import { dsId, dsTime, present } from "./ds-values.js";
import { envelopeJson } from "./envelope-json.js";
import { MAX_COUNT, Paging, resultSet, slice } from "./listing.js";
import { type On, type RestApiServices, read } from "./route.js";

const LIST: ErrorNames = { notFound: "BULK_SEND_LIST_DOES_NOT_EXIST" };
const BATCH: ErrorNames = { notFound: "BULK_SEND_BATCH_ID_DOES_NOT_EXIST" };

const Tab = z.object({ tabLabel: text().max(200), initialValue: text().max(1000).optional() });

const CopyRecipient = z.object({
  recipientId: dsId.optional(),
  roleName: text().max(100),
  name: text().max(200),
  email: text().max(254),
  clientUserId: text().max(200).optional(),
  accessCode: text().optional(),
  tabs: z.array(Tab).max(500).optional(),
});

const BulkSendingList = z.object({
  name: text().max(200),
  bulkCopies: z
    .array(
      z.object({
        recipients: z.array(CopyRecipient).max(50),
        prefillTabs: z.array(Tab).max(500).optional(),
        emailSubject: text().max(200).optional(),
        emailBlurb: text().max(10_000).optional(),
      }),
    )
    .max(1000),
});

const BulkSendRequest = z.object({
  envelopeOrTemplateId: text().min(1).max(100),
  batchName: text().max(200).optional(),
});

type Copy = z.infer<typeof BulkSendingList>["bulkCopies"][number];

/** A copy as the row of a bulk send it becomes. */
function rowOf(copy: Copy, i: number): MessageInitShape<typeof BulkSendRowSchema> {
  const mergeFields: Record<string, string> = {};
  for (const tab of [...(copy.prefillTabs ?? []), ...copy.recipients.flatMap((r) => r.tabs ?? [])]) {
    const value = tab.initialValue ?? "";
    // One value fills every field of a label, whichever recipient's it is: two would lose one.
    if (mergeFields[tab.tabLabel] !== undefined && mergeFields[tab.tabLabel] !== value) {
      throw invalidBody(
        `bulkCopies[${i}]: the tab "${tab.tabLabel}" is given two values; every field with that label takes one`,
      );
    }
    mergeFields[tab.tabLabel] = value;
  }
  copy.recipients.forEach((r, j) => {
    if (r.accessCode) {
      throw invalidBody(`bulkCopies[${i}].recipients[${j}]: a bulk send takes no access codes`);
    }
  });
  return {
    line: i + 1,
    recipients: copy.recipients.map((r) => ({
      name: r.name,
      email: r.email,
      role: r.roleName,
      clientUserId: r.clientUserId ?? "",
      externalId: r.recipientId ?? "",
    })),
    mergeFields,
    title: copy.emailSubject ?? "",
    message: copy.emailBlurb ?? "",
  };
}

/** A kept row as the copy it was: every tab's value comes back among the copy's `prefillTabs`. */
function copyOf(row: BulkSendList["rows"][number]): Copy {
  const tabs = Object.entries(row.mergeFields).map(([tabLabel, initialValue]) => ({
    tabLabel,
    initialValue,
  }));
  return present({
    recipients: row.recipients.map((r, i) =>
      present({
        recipientId: r.externalId || String(i + 1),
        roleName: r.role,
        name: r.name,
        email: r.email,
        clientUserId: r.clientUserId,
      }),
    ),
    prefillTabs: tabs,
    emailSubject: row.title,
    emailBlurb: row.message,
  }) as Copy;
}

function listJson(list: BulkSendList | undefined) {
  if (!list) throw new Error("the requests service answered without a list");
  return { listId: list.id, name: list.name, bulkCopies: list.rows.map(copyOf) };
}

function summaryJson(list: BulkSendList) {
  return present({
    bulkSendListId: list.id,
    name: list.name,
    createdDate: dsTime(list.createTime),
    createdByUser: list.createdBy,
  });
}

/** What DocuSign counts of a batch: its envelopes sent, failed and still queued (cancelled rows are none). */
function batchCounts(batch: BulkSend) {
  return {
    batchId: batch.id,
    batchName: batch.name,
    batchSize: String(batch.total),
    sent: String(batch.sent),
    failed: String(batch.failed),
    queued: String(batch.pending),
    submittedDate: dsTime(batch.createTime),
    batchUri: `/bulk_send_batch/${batch.id}`,
    action: batch.status === "cancelled" ? "cancel" : "",
    actionStatus: batch.status === "running" ? "" : "complete",
  };
}

export function bulkSendRoutes(
  on: On,
  { requests, templates }: Pick<RestApiServices, "requests" | "templates">,
) {
  on("post", "/bulk_send_lists", "requests:write", LIST, async (req, res, caller) => {
    const list = read(BulkSendingList, req.body ?? {}, "body");
    const created = await requests.createBulkSendList({
      workspaceId: caller.workspaceId,
      name: list.name,
      rows: list.bulkCopies.map(rowOf),
      actor: actorOf(req, res),
    });
    res.status(201).json(listJson(created.list));
  });

  on("get", "/bulk_send_lists", "requests:read", LIST, async (_req, res, caller) => {
    const { lists } = await requests.listBulkSendLists({ workspaceId: caller.workspaceId });
    res.json({ bulkListSummaries: lists.map(summaryJson) });
  });

  on("get", "/bulk_send_lists/:listId", "requests:read", LIST, async (req, res, caller) => {
    const { list } = await requests.getBulkSendList({
      workspaceId: caller.workspaceId,
      listId: String(req.params.listId),
    });
    res.json(listJson(list));
  });

  on("put", "/bulk_send_lists/:listId", "requests:write", LIST, async (req, res, caller) => {
    const list = read(BulkSendingList, req.body ?? {}, "body");
    const updated = await requests.updateBulkSendList({
      workspaceId: caller.workspaceId,
      listId: String(req.params.listId),
      name: list.name,
      rows: list.bulkCopies.map(rowOf),
    });
    res.json(listJson(updated.list));
  });

  on("delete", "/bulk_send_lists/:listId", "requests:write", LIST, async (req, res, caller) => {
    await requests.deleteBulkSendList({ workspaceId: caller.workspaceId, listId: String(req.params.listId) });
    const { lists } = await requests.listBulkSendLists({ workspaceId: caller.workspaceId });
    res.json({ bulkListSummaries: lists.map(summaryJson) });
  });

  on("post", "/bulk_send_lists/:listId/send", "requests:send", LIST, async (req, res, caller) => {
    const body = read(BulkSendRequest, req.body ?? {}, "body");
    const workspaceId = caller.workspaceId;
    const { list } = await requests.getBulkSendList({ workspaceId, listId: String(req.params.listId) });
    const template = await templates.getTemplate({ workspaceId, templateId: body.envelopeOrTemplateId }).then(
      (got) => got.template,
      (err: unknown) => {
        if (err instanceof ConnectError && err.code === Code.NotFound) {
          throw new DocuSignError(
            400,
            "BULK_SEND_ENVELOPE_NOT_IN_SENDABLE_STATE",
            "envelopeOrTemplateId must name a template of this account: Countersign sends a bulk send list from a template",
          );
        }
        throw err;
      },
    );
    const { bulkSend } = await requests.startBulkSend({
      workspaceId,
      templateId: body.envelopeOrTemplateId,
      title: template?.name ?? "",
      name: body.batchName ?? list?.name ?? "",
      rows: list?.rows ?? [],
      actor: actorOf(req, res),
    });
    if (!bulkSend) throw new Error("the requests service answered without a bulk send");
    res.status(201).json({
      batchId: bulkSend.id,
      batchName: bulkSend.name,
      batchSize: String(bulkSend.total),
      envelopeOrTemplateId: body.envelopeOrTemplateId,
      errors: [],
      errorDetails: [],
      queueLimit: "1000",
      totalQueued: String(bulkSend.pending),
    });
  });

  on("get", "/bulk_send_batch", "requests:read", BATCH, async (req, res, caller) => {
    const query = read(Paging, req.query, "query");
    const start = query.start_position ?? 0;
    const count = query.count ?? MAX_COUNT;
    const found = await slice(start, count, async (pageIndex) => {
      const listed = await requests.listBulkSends({
        workspaceId: caller.workspaceId,
        pageIndex,
        pageSize: MAX_COUNT,
      });
      return { items: listed.bulkSends, totalCount: listed.total };
    });
    res.json({
      ...resultSet(start, found.items.length, found.totalCount),
      bulkBatchSummaries: found.items.map((b) => present(batchCounts(b))),
      batchSizeLimit: "1000",
      queueLimit: "1000",
      totalQueued: String(found.items.reduce((sum, b) => sum + b.pending, 0)),
    });
  });

  on("get", "/bulk_send_batch/:batchId", "requests:read", BATCH, async (req, res, caller) => {
    const workspaceId = caller.workspaceId;
    const bulkSendId = String(req.params.batchId);
    const { bulkSend } = await requests.getBulkSend({ workspaceId, bulkSendId });
    if (!bulkSend) throw new Error("the requests service answered without a bulk send");
    const { rows } = await requests.listBulkSendRows({
      workspaceId,
      bulkSendId,
      status: "failed",
      pageSize: 1000,
    });
    const { batchUri: _, ...counts } = batchCounts(bulkSend);
    res.json(
      present({
        ...counts,
        envelopeIdOrTemplateId: bulkSend.templateId,
        envelopesUri: `/bulk_send_batch/${bulkSend.id}/envelopes`,
        senderUserId: bulkSend.createdBy,
        bulkErrors: rows.map((row) =>
          present({
            errorMessage: row.error,
            recipientEmails: row.recipients.map((r) => r.replace(/^.*<(.*)>$/, "$1")),
          }),
        ),
      }),
    );
  });

  on("get", "/bulk_send_batch/:batchId/envelopes", "requests:read", BATCH, async (req, res, caller) => {
    const workspaceId = caller.workspaceId;
    const bulkSendId = String(req.params.batchId);
    const query = read(Paging.extend({ include: z.string().optional() }), req.query, "query");
    const start = query.start_position ?? 0;
    const count = query.count ?? MAX_COUNT;
    const found = await slice(start, count, async (pageIndex) => {
      const listed = await requests.listBulkSendRows({
        workspaceId,
        bulkSendId,
        status: "sent",
        pageIndex,
        pageSize: MAX_COUNT,
      });
      const ids = listed.rows.map((r) => r.signatureRequestId);
      const made = ids.length
        ? (await requests.listSignatureRequests({ workspaceId, requestIds: ids, pageSize: MAX_COUNT }))
            .signatureRequests
        : [];
      const byId = new Map(made.map((r) => [r.id, r]));
      return { items: ids.flatMap((id) => byId.get(id) ?? []), totalCount: listed.total };
    });
    const withRecipients = (query.include ?? "").split(",").includes("recipients");
    res.json({
      ...resultSet(start, found.items.length, found.totalCount),
      envelopes: found.items.map((r) => envelopeJson(r, { recipients: withRecipients })),
    });
  });
}
