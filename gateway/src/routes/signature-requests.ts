/**
 * Signature requests over HTTP: create, list, get, send, resend, cancel, recipient updates,
 * reminders, the embedded signing URL and the audit trail. Each call names its caller (key, IP,
 * user agent) for the audit trail.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { proposes } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { currentCallContext } from "@countersign/kit";
import type { z } from "zod";
import { isTrue } from "../contract/scope-requirements.js";
import {
  AuditTrail,
  CancelInput,
  EmbeddedSigningInput,
  EmbeddedSigningUrl,
  EmptyInput,
  InPersonSigningInput,
  LegalHoldInput,
  RecipientChanges,
  RecipientIdParams,
  Reminder,
  ReminderInput,
  RequestIdParams,
  SignatureRequest,
  SignatureRequestInput,
  SignatureRequestPage,
  SignatureRequestQuery,
} from "../contract/signature-requests.js";
import { pageBody, pageQuery } from "../contract/values.js";
import { iso } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { accepted, created, ok, type PublicApi } from "../public-api.js";
import { taggedFields } from "../tagged-documents.js";
import { auditEntryJson, signatureRequestJson } from "./signature-request-json.js";
import { fieldMessage, taggedFieldMessage } from "./templates.js";

const READ_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;
const CHANGE_PROBLEMS = [...READ_PROBLEMS, 409, 413, 415, 422] as const;

export function signatureRequestRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  documents: Client<typeof DocumentsService>,
): void {
  /** The fields the documents' text tags place, for the signers' roles; a template has its own fields. */
  const fieldsOfTags = (body: z.output<typeof SignatureRequestInput>, workspaceId: string) => {
    if (body.templateId) {
      throw new ApiProblem("validation_failed", "the signature request is not valid", [
        {
          path: "textTags",
          message: "a request from a template has the template's fields: make the template from text tags",
        },
      ]);
    }
    const roles = body.recipients.filter((r) => (r.kind ?? "signer") === "signer").map((r) => r.role ?? "");
    return taggedFields(documents, workspaceId, body.documentIds ?? [], roles.filter(Boolean));
  };

  api.route(
    "post",
    "/signature-requests",
    {
      summary: "Create a signature request",
      description: "From a template or from documents; `send: true` sends it at once.",
      tag: "Signature requests",
      scope: "requests:write",
      conditionalScopes: [
        { when: "`send: true`", scope: "requests:send", applies: isTrue("send") },
        { when: "`textTags: true`", scope: "documents:read", applies: isTrue("textTags") },
      ],
      proposable: true,
      dryRun: true,
      body: SignatureRequestInput,
      answers: { 201: { description: "The request, a draft unless sent.", schema: SignatureRequest } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, body, scopes, dryRun }) => {
      const tagged = body.textTags ? await fieldsOfTags(body, workspaceId) : [];
      const { signatureRequest } = await requests.createSignatureRequest({
        workspaceId,
        title: body.title,
        message: body.message ?? "",
        templateId: body.templateId ?? "",
        documentIds: body.documentIds ?? [],
        fields: [
          ...(body.fields ?? []).map((field) => ({
            ...fieldMessage(field),
            documentId: field.documentId ?? "",
          })),
          ...tagged.map((field) => ({ ...taggedFieldMessage(field), documentId: field.documentId })),
        ],
        recipients: body.recipients.map((r) => ({
          name: r.name,
          email: r.email,
          role: r.role ?? "",
          kind: r.kind ?? "",
          routingOrder: r.routingOrder ?? 0,
          clientUserId: r.clientUserId ?? "",
          externalId: r.externalId ?? "",
          accessCode: r.accessCode ?? "",
          emailCode: r.emailCode ?? false,
          locale: r.locale ?? "",
          host: r.host,
        })),
        expireTime: body.expiresAt ? timestampFromDate(body.expiresAt) : undefined,
        send: body.send ?? false,
        allowReassign: body.allowReassign ?? false,
        externalId: body.externalId ?? "",
        lockSignerIdentity: body.lockSignerIdentity ?? false,
        reminderEveryDays: body.reminderEveryDays,
        expiryWarningDays: body.expiryWarningDays,
        mergeFields: body.mergeFields,
        actor,
        operationKey: currentCallContext()?.operationKey ?? "",
        validateOnly: dryRun ?? false,
        propose: proposes(scopes),
      });
      return created(signatureRequestJson(signatureRequest));
    },
  );

  api.route(
    "get",
    "/signature-requests",
    {
      summary: "List signature requests: filtered, searched and sorted",
      tag: "Signature requests",
      scope: "requests:read",
      query: pageQuery.extend(SignatureRequestQuery.shape),
      answers: { 200: { description: "One page of requests.", schema: SignatureRequestPage } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, query }) => {
      const { pageIndex, pageSize, status, q, createdFrom, createdTo, sort, externalId } = query;
      const listed = await requests.listSignatureRequests({
        workspaceId,
        status: status ?? "",
        search: q ?? "",
        externalId: externalId ?? "",
        createdAfter: createdFrom ? timestampFromDate(createdFrom) : undefined,
        createdBefore: createdTo ? timestampFromDate(createdTo) : undefined,
        order: sort ?? "",
        pageIndex,
        pageSize,
      });
      return ok(pageBody(listed.signatureRequests.map(signatureRequestJson), query, listed.totalCount));
    },
  );

  api.route(
    "get",
    "/signature-requests/:requestId",
    {
      summary: "Get a signature request with its recipients",
      tag: "Signature requests",
      scope: "requests:read",
      params: RequestIdParams,
      answers: { 200: { description: "The request.", schema: SignatureRequest } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { signatureRequest } = await requests.getSignatureRequest({ workspaceId, ...params });
      return ok(signatureRequestJson(signatureRequest));
    },
  );

  // Send and resend take nothing but the request: one declaration for both.
  const operations = [
    ["send", "Send a draft", "Notifies the first routing group. Only a draft can be sent (409 otherwise)."],
    [
      "resend",
      "Resend to everyone who has not signed",
      "New links replace the old ones. Only while sent or in progress (409 otherwise). When every signer has signed and sealing failed at its last attempt (`completionFailure`), sealing is tried again instead.",
    ],
  ] as const;
  for (const [operation, summary, description] of operations) {
    api.route(
      "post",
      `/signature-requests/:requestId/${operation}`,
      {
        summary,
        description,
        tag: "Signature requests",
        scope: "requests:send",
        ...(operation === "send" ? { proposable: true as const } : {}),
        dryRun: true,
        params: RequestIdParams,
        body: EmptyInput,
        answers: { 200: { description: "The request.", schema: SignatureRequest } },
        problems: [...CHANGE_PROBLEMS],
      },
      async ({ actor, workspaceId, params, dryRun, scopes }) => {
        const target = { workspaceId, ...params, actor, validateOnly: dryRun ?? false };
        const { signatureRequest } =
          operation === "send"
            ? await requests.sendSignatureRequest({ ...target, propose: proposes(scopes) })
            : await requests.resendSignatureRequest(target);
        return ok(signatureRequestJson(signatureRequest));
      },
    );
  }

  api.route(
    "post",
    "/signature-requests/:requestId/cancel",
    {
      summary: "Cancel a request",
      description:
        "Every link stops working. Not once the request has ended, nor while a fully signed request is being sealed (409); a request whose sealing failed (`completionFailure`) can be cancelled.",
      tag: "Signature requests",
      scope: "requests:write",
      dryRun: true,
      params: RequestIdParams,
      body: CancelInput,
      answers: { 200: { description: "The request, now cancelled.", schema: SignatureRequest } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, params, body, dryRun }) => {
      const { signatureRequest } = await requests.cancelSignatureRequest({
        workspaceId,
        ...params,
        reason: body.reason ?? "",
        actor,
        validateOnly: dryRun ?? false,
      });
      return ok(signatureRequestJson(signatureRequest));
    },
  );

  api.route(
    "post",
    "/signature-requests/:requestId/legal-hold",
    {
      summary: "Place a legal hold",
      description:
        "Keeps the request's documents and audit trail from the workspace's retention (`retentionDays` in /request-settings) until the hold is released; placing one on a held request replaces its reason. Audited with who placed it and why. 409 once retention has deleted the documents, or while it is deleting them.",
      tag: "Signature requests",
      scope: "requests:write",
      params: RequestIdParams,
      body: LegalHoldInput,
      answers: { 200: { description: "The request, held.", schema: SignatureRequest } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, params, body }) => {
      const { signatureRequest } = await requests.placeLegalHold({
        workspaceId,
        ...params,
        reason: body.reason,
        actor,
      });
      return ok(signatureRequestJson(signatureRequest));
    },
  );

  api.route(
    "delete",
    "/signature-requests/:requestId/legal-hold",
    {
      summary: "Release a legal hold",
      description:
        "The workspace's retention takes its course again: a request whose retention has passed has its documents deleted at the next sweep. Releasing a request that is not held does nothing. Audited.",
      tag: "Signature requests",
      scope: "requests:write",
      params: RequestIdParams,
      answers: { 200: { description: "The request, no longer held.", schema: SignatureRequest } },
      problems: [...READ_PROBLEMS],
    },
    async ({ actor, workspaceId, params }) => {
      const { signatureRequest } = await requests.releaseLegalHold({ workspaceId, ...params, actor });
      return ok(signatureRequestJson(signatureRequest));
    },
  );

  api.route(
    "patch",
    "/signature-requests/:requestId/recipients",
    {
      summary: "Change recipients' names or e-mail addresses",
      description:
        "Only recipients who have not signed; a changed recipient's old links answer 410, and a changed recipient of a sent request is notified again.",
      tag: "Signature requests",
      scope: "requests:send",
      dryRun: true,
      params: RequestIdParams,
      body: RecipientChanges,
      answers: { 200: { description: "The request after the change.", schema: SignatureRequest } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, params, body, dryRun }) => {
      const { signatureRequest } = await requests.updateRecipients({
        workspaceId,
        ...params,
        changes: body.recipients.map((change) => ({
          ...change,
          locale: change.locale === undefined ? undefined : (change.locale ?? ""),
        })),
        actor,
        validateOnly: dryRun ?? false,
      });
      return ok(signatureRequestJson(signatureRequest));
    },
  );

  api.route(
    "post",
    "/recipients/:recipientId/reminders",
    {
      summary: "Remind a recipient",
      description:
        "At most one reminder per recipient in the reminder interval (429 with Retry-After otherwise).",
      tag: "Signature requests",
      scope: "requests:send",
      dryRun: true,
      params: RecipientIdParams,
      body: ReminderInput,
      answers: { 202: { description: "The reminder is on its way.", schema: Reminder } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, params, body, dryRun }) => {
      const reminded = await requests.remindRecipient({
        workspaceId,
        ...params,
        message: body.message ?? "",
        actor,
        validateOnly: dryRun ?? false,
      });
      return accepted({ recipientId: reminded.recipientId, remindedAt: iso(reminded.remindTime) });
    },
  );

  api.route(
    "post",
    "/embedded-signing-url",
    {
      summary: "Get an embedded signing URL",
      description: "For a signer whose turn it is; the URL opens once and must be opened before `expiresAt`.",
      tag: "Signature requests",
      scope: "requests:send",
      dryRun: true,
      body: EmbeddedSigningInput,
      answers: { 201: { description: "The URL.", schema: EmbeddedSigningUrl } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, body, dryRun }) => {
      const made = await requests.createEmbeddedSigningUrl({
        workspaceId,
        requestId: body.requestId,
        recipientId: body.recipientId,
        returnUrl: body.returnUrl ?? "",
        frameOrigin: body.frameOrigin ?? "",
        actor,
        validateOnly: dryRun ?? false,
      });
      return created({ url: made.url || null, expiresAt: iso(made.expireTime) });
    },
    // Not in the console: the URL lets whoever holds it sign as the recipient, which only the
    // sender's own app, calling with a key, may hand out.
    { inConsole: false },
  );

  api.route(
    "post",
    "/signature-requests/:requestId/in-person-signing",
    {
      summary: "Start an in-person signing",
      description:
        "For a signer who signs in person (`host`) whose turn it is: the URL at which the signing starts on the caller's device, the host's — open it there, at once (it opens once, before `expiresAt`). The signing page asks the host to hand the device to the signer; the audit trail records `in_person_signing_started` by the caller, with the host and the signer.",
      tag: "Signature requests",
      scope: "requests:send",
      params: RequestIdParams,
      body: InPersonSigningInput,
      answers: { 201: { description: "The URL.", schema: EmbeddedSigningUrl } },
      problems: [...CHANGE_PROBLEMS],
    },
    async ({ actor, workspaceId, params, body }) => {
      const made = await requests.createEmbeddedSigningUrl({
        workspaceId,
        requestId: params.requestId,
        recipientId: body.recipientId,
        returnUrl: body.returnUrl ?? "",
        actor,
        inPerson: true,
      });
      return created({ url: made.url, expiresAt: iso(made.expireTime) });
    },
  );

  api.route(
    "get",
    "/signature-requests/:requestId/audit-trail",
    {
      summary: "Get a request's audit trail",
      description: "Every entry in order, with the hash chain checked.",
      tag: "Signature requests",
      scope: "requests:read",
      params: RequestIdParams,
      answers: { 200: { description: "The audit trail.", schema: AuditTrail } },
      problems: [...READ_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const trail = await requests.getAuditTrail({ workspaceId, ...params });
      return ok({ items: trail.entries.map(auditEntryJson), verified: trail.verified });
    },
  );
}
