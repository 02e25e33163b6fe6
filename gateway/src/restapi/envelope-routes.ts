/**
 * /restapi's envelopes: create one from a template or from documents, list them by date and
 * status, read one, change it by its status (send a draft, void it) or resend it, and download its
 * documents.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { envelopeStatus } from "@countersign/domain";
import type { Logger } from "@countersign/kit";
import { z } from "zod";
import { requireScopes } from "../contract/scope-requirements.js";
import { CUSTOMER_FILE_POLICY } from "../document-download.js";
import { actorOf } from "../public-api.js";
import { type ErrorNames, invalidParameter } from "./docusign-errors.js";
import { dsTime } from "./ds-values.js";
import { EnvelopeCreation } from "./envelope-creation.js";
import { EnvelopeDefinition, EnvelopeUpdate } from "./envelope-definition.js";
import { envelopeArchive, envelopeDocument } from "./envelope-documents.js";
import { envelopeJson } from "./envelope-json.js";
import { dsDate, MAX_COUNT, Paging, pageWithin, readAll, resultSet, slice } from "./listing.js";
import { type On, type RestApiServices, read, requestOf } from "./route.js";

export const ENVELOPE: ErrorNames = { notFound: "ENVELOPE_DOES_NOT_EXIST" };

/** DocuSign's envelope statuses and the request statuses each stands for. */
const STATUS_FILTER: Record<string, string[]> = {
  created: ["draft", "awaiting_approval"],
  sent: ["sent", "in_progress"],
  delivered: ["in_progress"],
  completed: ["completed"],
  declined: ["declined"],
  voided: ["cancelled"],
  timedout: ["expired"],
};

export function envelopeRoutes(
  on: On,
  { requests, templates, documents }: RestApiServices,
  uploadBytes: number,
  logger: Logger,
): void {
  const creation = new EnvelopeCreation({ requests, templates, documents }, uploadBytes, logger);

  on("post", "/envelopes", "requests:write", ENVELOPE, async (req, res, caller) => {
    const definition = read(EnvelopeDefinition, req.body ?? {}, "body");
    requireScopes(caller, [
      ...((definition.documents ?? []).length > 0 ? (["documents:write"] as const) : []),
      ...(definition.status === "sent" ? (["requests:send"] as const) : []),
    ]);
    const request = await creation.create(caller.workspaceId, actorOf(req, res), definition);
    res.status(201).json({
      envelopeId: request.id,
      uri: `/envelopes/${request.id}`,
      statusDateTime: dsTime(request.updateTime),
      status: envelopeStatus(request),
    });
  });

  on("get", "/envelopes", "requests:read", ENVELOPE, async (req, res, caller) => {
    const query = read(
      Paging.extend({
        from_date: dsDate.optional(),
        to_date: dsDate.optional(),
        status: z.string().optional(),
        envelope_ids: z.string().optional(),
        include: z.string().optional(),
      }),
      req.query,
      "query",
    );
    const ids = (query.envelope_ids ?? "")
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    if (!query.from_date && ids.length === 0) {
      throw invalidParameter("from_date is required unless envelope_ids is given");
    }
    // "any" and "changed" ask for every status, as DocuSign reads them.
    const wanted = (query.status ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s && s !== "any" && s !== "changed");
    const unknown = wanted.filter((s) => !(s in STATUS_FILTER));
    if (unknown.length > 0) throw invalidParameter(`status ${unknown.join(", ")} is not an envelope status`);
    const statuses = [...new Set(wanted.flatMap((s) => STATUS_FILTER[s] ?? []))];
    const pageOf = async (pageIndex: number) => {
      const listed = await requests.listSignatureRequests({
        workspaceId: caller.workspaceId,
        statuses,
        changedSince: query.from_date ? timestampFromDate(query.from_date) : undefined,
        changedBefore: query.to_date ? timestampFromDate(query.to_date) : undefined,
        requestIds: ids,
        pageIndex,
        pageSize: MAX_COUNT,
      });
      return { items: listed.signatureRequests, totalCount: listed.totalCount };
    };
    const start = query.start_position ?? 0;
    const count = query.count ?? MAX_COUNT;
    // "sent" and "delivered" are both requests in progress, told apart by their recipients: asked
    // for one without the other, the matches are read whole and then paged, so that positions and
    // totals count only what is shown.
    const splitsInProgress = wanted.includes("sent") !== wanted.includes("delivered");
    const found = splitsInProgress
      ? pageWithin(
          (await readAll(pageOf)).filter((r) => wanted.includes(envelopeStatus(r))),
          start,
          count,
        )
      : await slice(start, count, pageOf);
    const withRecipients = (query.include ?? "").split(",").includes("recipients");
    res.json({
      ...resultSet(start, found.items.length, found.totalCount),
      envelopes: found.items.map((r) => envelopeJson(r, { recipients: withRecipients })),
    });
  });

  on("get", "/envelopes/:envelopeId", "requests:read", ENVELOPE, async (req, res, caller) => {
    const include = String(req.query.include ?? "").split(",");
    res.json(
      envelopeJson(await requestOf(requests, caller, String(req.params.envelopeId)), {
        recipients: include.includes("recipients"),
      }),
    );
  });

  on("put", "/envelopes/:envelopeId", "requests:write", ENVELOPE, async (req, res, caller) => {
    const envelopeId = String(req.params.envelopeId);
    const update = read(EnvelopeUpdate, req.body ?? {}, "body");
    const actor = actorOf(req, res);
    const target = { workspaceId: caller.workspaceId, requestId: envelopeId, actor };
    if (String(req.query.resend_envelope ?? "").toLowerCase() === "true") {
      requireScopes(caller, ["requests:send"]);
      await requests.resendSignatureRequest(target);
    } else if (update.status === "sent") {
      requireScopes(caller, ["requests:send"]);
      await requests.sendSignatureRequest(target);
    } else if (update.status === "voided") {
      if (!update.voidedReason?.trim())
        throw invalidParameter("voidedReason is required to void an envelope");
      res.locals.errorNames = { ...ENVELOPE, invalidState: "ENVELOPE_CANNOT_VOID_INVALID_STATE" };
      await requests.cancelSignatureRequest({ ...target, reason: update.voidedReason });
    } else {
      throw invalidParameter(
        'Countersign changes an envelope by its status ("sent" sends a draft, "voided" with voidedReason voids it) or resends it (resend_envelope=true)',
      );
    }
    res.json({ envelopeId });
  });

  on(
    "get",
    "/envelopes/:envelopeId/documents/:documentId",
    // The documents' bytes: what reading documents needs, besides reading the envelope.
    ["requests:read", "documents:read"],
    ENVELOPE,
    async (req, res, caller) => {
      const request = await requestOf(requests, caller, String(req.params.envelopeId));
      const which = String(req.params.documentId);
      const withCertificate = String(req.query.certificate ?? "true").toLowerCase() !== "false";
      const file =
        which === "archive"
          ? await envelopeArchive(documents, request)
          : await envelopeDocument(documents, request, which, withCertificate);
      const inBase64 = (req.get("content-transfer-encoding") ?? "").toLowerCase() === "base64";
      res.set({
        "Content-Disposition": `file; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, "_")}"`,
        "Content-Security-Policy": CUSTOMER_FILE_POLICY,
      });
      if (inBase64)
        res
          .type("text/plain")
          .set("Content-Transfer-Encoding", "base64")
          .send(Buffer.from(file.bytes).toString("base64"));
      else
        res.type(which === "archive" ? "application/zip" : "application/pdf").send(Buffer.from(file.bytes));
    },
  );
}
