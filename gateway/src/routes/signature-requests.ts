/**
 * Signature requests over HTTP: create, list, get, send, resend, cancel, recipient updates,
 * reminders, the embedded signing URL and the audit trail. Each call names its caller (key, IP,
 * user agent) for the audit trail.
 */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Request, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { pageBody, pageOf } from "../pagination.js";
import { ApiProblem } from "../problems.js";
import type { PublicApi } from "../public-api.js";
import {
  readCancelBody,
  readCreateBody,
  readEmbeddedSigningBody,
  readEmptyBody,
  readRecipientChanges,
  readReminderBody,
} from "./signature-request-body.js";
import { auditEntryJson, signatureRequestJson } from "./signature-request-json.js";

/** Who makes this call, as the audit trail records it. */
export function actorOf(req: Request, res: Response) {
  return {
    apiKeyId: (res.locals.caller as Caller).keyId,
    ip: req.ip ?? "",
    userAgent: (req.get("user-agent") ?? "").slice(0, 500),
  };
}

function statusFilter(req: Request): string {
  const status = req.query.status;
  if (status === undefined) return "";
  if (typeof status !== "string") throw new ApiProblem("invalid_request", "status must be given once");
  return status;
}

export function signatureRequestRoutes(api: PublicApi, requests: Client<typeof RequestsService>): void {
  api.route("post", "/signature-requests", async (req, res, workspaceId) => {
    const body = readCreateBody(req.body);
    const { signatureRequest } = await requests.createSignatureRequest({
      workspaceId,
      title: body.title,
      message: body.message,
      templateId: body.templateId,
      documentIds: body.documentIds,
      fields: body.fields,
      recipients: body.recipients,
      expireTime: body.expiresAt ? timestampFromDate(body.expiresAt) : undefined,
      send: body.send,
      actor: actorOf(req, res),
    });
    res.status(201).json(signatureRequestJson(signatureRequest));
  });

  api.route("get", "/signature-requests", async (req, res, workspaceId) => {
    const page = pageOf(req);
    const listed = await requests.listSignatureRequests({ workspaceId, status: statusFilter(req), ...page });
    res.json(pageBody(listed.signatureRequests.map(signatureRequestJson), page, listed.totalCount));
  });

  api.route("get", "/signature-requests/:requestId", async (req, res, workspaceId) => {
    const { signatureRequest } = await requests.getSignatureRequest({
      workspaceId,
      requestId: req.params.requestId as string,
    });
    res.json(signatureRequestJson(signatureRequest));
  });

  api.route("post", "/signature-requests/:requestId/send", async (req, res, workspaceId) => {
    readEmptyBody(req.body, "send");
    const { signatureRequest } = await requests.sendSignatureRequest({
      workspaceId,
      requestId: req.params.requestId as string,
      actor: actorOf(req, res),
    });
    res.json(signatureRequestJson(signatureRequest));
  });

  api.route("post", "/signature-requests/:requestId/resend", async (req, res, workspaceId) => {
    readEmptyBody(req.body, "resend");
    const { signatureRequest } = await requests.resendSignatureRequest({
      workspaceId,
      requestId: req.params.requestId as string,
      actor: actorOf(req, res),
    });
    res.json(signatureRequestJson(signatureRequest));
  });

  api.route("post", "/signature-requests/:requestId/cancel", async (req, res, workspaceId) => {
    const { reason } = readCancelBody(req.body);
    const { signatureRequest } = await requests.cancelSignatureRequest({
      workspaceId,
      requestId: req.params.requestId as string,
      reason,
      actor: actorOf(req, res),
    });
    res.json(signatureRequestJson(signatureRequest));
  });

  api.route("patch", "/signature-requests/:requestId/recipients", async (req, res, workspaceId) => {
    const changes = readRecipientChanges(req.body);
    const { signatureRequest } = await requests.updateRecipients({
      workspaceId,
      requestId: req.params.requestId as string,
      changes,
      actor: actorOf(req, res),
    });
    res.json(signatureRequestJson(signatureRequest));
  });

  api.route("post", "/recipients/:recipientId/reminders", async (req, res, workspaceId) => {
    const { message } = readReminderBody(req.body);
    const reminded = await requests.remindRecipient({
      workspaceId,
      recipientId: req.params.recipientId as string,
      message,
      actor: actorOf(req, res),
    });
    res.status(202).json({
      recipientId: reminded.recipientId,
      remindedAt: reminded.remindTime ? timestampDate(reminded.remindTime).toISOString() : null,
    });
  });

  api.route("post", "/embedded-signing-url", async (req, res, workspaceId) => {
    const body = readEmbeddedSigningBody(req.body);
    const made = await requests.createEmbeddedSigningUrl({ workspaceId, ...body, actor: actorOf(req, res) });
    res.status(201).json({
      url: made.url,
      expiresAt: made.expireTime ? timestampDate(made.expireTime).toISOString() : null,
    });
  });

  api.route("get", "/signature-requests/:requestId/audit-trail", async (req, res, workspaceId) => {
    const trail = await requests.getAuditTrail({ workspaceId, requestId: req.params.requestId as string });
    res.json({ items: trail.entries.map(auditEntryJson), verified: trail.verified });
  });
}
