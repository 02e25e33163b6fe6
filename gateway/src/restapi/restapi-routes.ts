/**
 * The DocuSign-compatible base path (DESIGN §7): `/restapi/v2.1/accounts/{accountId}/…` answers
 * what the `docusign-esign` client asks in its common flow, so a program written for DocuSign's
 * eSignature API changes only its base path. Each route maps onto the service calls the native API
 * makes — there is no second domain model — and writes DocuSign's shapes: its status names, numbers
 * as strings, no nulls, and `{ errorCode, message }` errors.
 *
 * The API's keys authenticate (as DocuSign's OAuth access tokens would), under the same rate limit;
 * the account in the path must be the key's. Calls are recorded for Recent Errors and API Usage
 * under their route, with the errorCode the client saw.
 */

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type {
  RequestsService,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type {
  Template,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { Logger } from "@countersign/kit";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { z } from "zod";
import { routeTemplate } from "../declared-router.js";
import { CUSTOMER_FILE_POLICY } from "../document-download.js";
import type { Caller, KeyVerifier } from "../key-verifier.js";
import { authenticate } from "../middleware/authenticate.js";
import { type BodyBudget, budgetedJson } from "../middleware/body-budget.js";
import { actorOf } from "../public-api.js";
import type { RateLimiter } from "../rate-limiter.js";
import {
  DocuSignError,
  type ErrorNames,
  invalidBody,
  invalidParameter,
  sendDocuSignError,
} from "./docusign-errors.js";
import { dsTime, present } from "./ds-values.js";
import { EnvelopeCreation } from "./envelope-creation.js";
import {
  EnvelopeDefinition,
  EnvelopeUpdate,
  RecipientsUpdate,
  RecipientViewRequest,
} from "./envelope-definition.js";
import { envelopeDocument } from "./envelope-documents.js";
import {
  envelopeJson,
  envelopeStatus,
  NO_OTHER_RECIPIENTS,
  recipientIdOf,
  recipientsJson,
} from "./envelope-json.js";

export const RESTAPI_BASE = "/restapi";
const ACCOUNT = "/v2.1/accounts/:accountId";

export interface RestApiOptions {
  requests: Client<typeof RequestsService>;
  templates: Client<typeof TemplatesService>;
  documents: Client<typeof DocumentsService>;
  verifier: KeyVerifier;
  limiter: RateLimiter;
  logger: Logger;
  uploadBytes: number;
  /** Memory for bodies, shared with the gateway's other routes. */
  bodies: BodyBudget;
}

/** DocuSign's envelope statuses and the request statuses each stands for. */
const STATUS_FILTER: Record<string, string[]> = {
  created: ["draft"],
  sent: ["sent", "in_progress"],
  delivered: ["in_progress"],
  completed: ["completed"],
  declined: ["declined"],
  voided: ["cancelled"],
  timedout: ["expired"],
};

const MAX_COUNT = 100;

type Handler = (req: Request, res: Response, caller: Caller) => Promise<void>;

function read<S extends z.ZodType>(schema: S, value: unknown, what: "body" | "query"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || what}: ${i.message}`).join("; ");
  throw what === "body" ? invalidBody(`the body is not valid: ${issues}`) : invalidParameter(issues);
}

const Paging = z.object({
  count: z.coerce.number().int().min(1).max(MAX_COUNT).optional(),
  start_position: z.coerce.number().int().min(0).max(1_000_000).optional(),
});

/** `count` items from `start` of a list the service serves in pages of 100. */
async function slice<T>(
  start: number,
  count: number,
  page: (pageIndex: number) => Promise<{ items: T[]; totalCount: number }>,
): Promise<{ items: T[]; totalCount: number }> {
  const first = Math.floor(start / MAX_COUNT);
  const got = await page(first);
  let items = got.items.slice(start % MAX_COUNT);
  if (items.length < count && (first + 1) * MAX_COUNT < got.totalCount)
    items = [...items, ...(await page(first + 1)).items];
  return { items: items.slice(0, count), totalCount: got.totalCount };
}

/** The most a search that the services cannot do reads before it filters. */
const MAX_READ = 1000;

/** Every item of a paged list, up to MAX_READ (a search past that says so). */
async function readAll<T>(
  page: (pageIndex: number) => Promise<{ items: T[]; totalCount: number }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let pageIndex = 0; ; pageIndex++) {
    const got = await page(pageIndex);
    all.push(...got.items);
    if (all.length >= got.totalCount || got.items.length === 0) return all;
    if (all.length >= MAX_READ) {
      throw invalidParameter(`this filter reads at most ${MAX_READ} items: narrow it (from_date, status)`);
    }
  }
}

function pageWithin<T>(items: T[], start: number, count: number): { items: T[]; totalCount: number } {
  return { items: items.slice(start, start + count), totalCount: items.length };
}

/** A date or date-time, from 1970 to the end of 9999, as DocuSign's query parameters take it. */
const dsDate = z
  .string()
  .transform((value) => new Date(value))
  .refine(
    (date) => !Number.isNaN(date.getTime()) && date.getTime() >= 0 && date.getUTCFullYear() <= 9999,
    "must be a date from 1970 to 9999, such as 2026-01-31 or 2026-01-31T17:00:00Z",
  );

function resultSet(start: number, shown: number, total: number) {
  return {
    resultSetSize: String(shown),
    totalSetSize: String(total),
    startPosition: String(start),
    ...(shown > 0 ? { endPosition: String(start + shown - 1) } : {}),
  };
}

function templateSummary(template: Template) {
  return present({
    templateId: template.id,
    name: template.name,
    description: template.description,
    emailSubject: template.name,
    created: dsTime(template.createTime),
    lastModified: dsTime(template.updateTime),
    uri: `/templates/${template.id}`,
    shared: "false",
  });
}

export function restApiRoutes(options: RestApiOptions): Router {
  const { requests, templates, documents, verifier, limiter, logger } = options;
  const creation = new EnvelopeCreation({ requests, templates, documents }, options.uploadBytes, logger);
  const router = express.Router();
  const key = authenticate(verifier, limiter);
  // Envelopes carry their documents as base64 (4/3 of the bytes): one at the upload limit, or several
  // smaller, in a body a gateway can hold within its memory (body-budget.ts).
  const json = budgetedJson(options.bodies, { limit: Math.ceil(options.uploadBytes / 3) * 4 + 1024 * 1024 });

  const on = (method: "get" | "post" | "put", path: string, names: ErrorNames, handler: Handler) => {
    router[method](
      `${ACCOUNT}${path}`,
      (_req: Request, res: Response, next: NextFunction) => {
        res.locals.route = routeTemplate(`${RESTAPI_BASE}${ACCOUNT}${path}`);
        res.locals.errorNames = names;
        next();
      },
      key,
      json,
      async (req: Request, res: Response) => {
        const caller = res.locals.caller as Caller;
        if (String(req.params.accountId).toLowerCase() !== caller.workspaceId) {
          throw new DocuSignError(
            400,
            "USER_LACKS_MEMBERSHIP",
            "the API key does not belong to the account in the path",
          );
        }
        await handler(req, res, caller);
      },
    );
  };

  const requestOf = async (caller: Caller, envelopeId: string): Promise<SignatureRequest> => {
    const { signatureRequest } = await requests.getSignatureRequest({
      workspaceId: caller.workspaceId,
      requestId: envelopeId,
    });
    if (!signatureRequest) throw new Error("the requests service answered without a request");
    return signatureRequest;
  };
  const ENVELOPE: ErrorNames = { notFound: "ENVELOPE_DOES_NOT_EXIST" };

  on("post", "/envelopes", ENVELOPE, async (req, res, caller) => {
    const definition = read(EnvelopeDefinition, req.body ?? {}, "body");
    const request = await creation.create(caller.workspaceId, actorOf(req, res), definition);
    res.status(201).json({
      envelopeId: request.id,
      uri: `/envelopes/${request.id}`,
      statusDateTime: dsTime(request.updateTime),
      status: envelopeStatus(request),
    });
  });

  on("get", "/envelopes", ENVELOPE, async (req, res, caller) => {
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

  on("get", "/envelopes/:envelopeId", ENVELOPE, async (req, res, caller) => {
    const include = String(req.query.include ?? "").split(",");
    res.json(
      envelopeJson(await requestOf(caller, String(req.params.envelopeId)), {
        recipients: include.includes("recipients"),
      }),
    );
  });

  on("put", "/envelopes/:envelopeId", ENVELOPE, async (req, res, caller) => {
    const envelopeId = String(req.params.envelopeId);
    const update = read(EnvelopeUpdate, req.body ?? {}, "body");
    const actor = actorOf(req, res);
    const target = { workspaceId: caller.workspaceId, requestId: envelopeId, actor };
    if (String(req.query.resend_envelope ?? "").toLowerCase() === "true") {
      await requests.resendSignatureRequest(target);
    } else if (update.status === "sent") {
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

  on("get", "/envelopes/:envelopeId/recipients", ENVELOPE, async (req, res, caller) => {
    res.json(recipientsJson(await requestOf(caller, String(req.params.envelopeId))));
  });

  on("put", "/envelopes/:envelopeId/recipients", ENVELOPE, async (req, res, caller) => {
    const request = await requestOf(caller, String(req.params.envelopeId));
    const update = read(RecipientsUpdate, req.body ?? {}, "body");
    const asked = [...(update.signers ?? []), ...(update.carbonCopies ?? [])];
    const byId = new Map(request.recipients.map((r) => [recipientIdOf(request, r), r]));
    const changes = asked.flatMap((change) => {
      const recipient = byId.get(change.recipientId);
      return recipient ? [{ id: recipient.id, name: change.name, email: change.email }] : [];
    });
    if (changes.length > 0) {
      await requests.updateRecipients({
        workspaceId: caller.workspaceId,
        requestId: request.id,
        changes,
        actor: actorOf(req, res),
      });
    }
    res.json({
      recipientUpdateResults: asked.map((change) => ({
        recipientId: change.recipientId,
        errorDetails: byId.has(change.recipientId)
          ? { errorCode: "SUCCESS", message: "" }
          : {
              errorCode: "INVALID_RECIPIENT_ID",
              message: `the envelope has no recipient ${change.recipientId}`,
            },
      })),
    });
  });

  on("post", "/envelopes/:envelopeId/views/recipient", ENVELOPE, async (req, res, caller) => {
    const request = await requestOf(caller, String(req.params.envelopeId));
    const view = read(RecipientViewRequest, req.body ?? {}, "body");
    const same = (a: string, b: string | undefined) =>
      b === undefined || a.trim().toLowerCase() === b.trim().toLowerCase();
    const signer = request.recipients.find(
      (r) =>
        r.kind === "signer" &&
        r.clientUserId !== "" &&
        r.clientUserId === view.clientUserId &&
        same(r.email, view.email) &&
        same(r.name, view.userName) &&
        (view.recipientId === undefined || recipientIdOf(request, r) === view.recipientId),
    );
    if (!signer) {
      throw new DocuSignError(
        400,
        "UNKNOWN_ENVELOPE_RECIPIENT",
        "no embedded signer of the envelope has this clientUserId, email and userName",
      );
    }
    res.locals.errorNames = { ...ENVELOPE, invalidState: "RECIPIENT_NOT_IN_SEQUENCE" };
    const made = await requests.createEmbeddedSigningUrl({
      workspaceId: caller.workspaceId,
      requestId: request.id,
      recipientId: signer.id,
      returnUrl: view.returnUrl ?? "",
      actor: actorOf(req, res),
    });
    res.status(201).json({ url: made.url });
  });

  on("get", "/envelopes/:envelopeId/documents/:documentId", ENVELOPE, async (req, res, caller) => {
    const request = await requestOf(caller, String(req.params.envelopeId));
    const withCertificate = String(req.query.certificate ?? "true").toLowerCase() !== "false";
    const file = await envelopeDocument(documents, request, String(req.params.documentId), withCertificate);
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
    else res.type("application/pdf").send(Buffer.from(file.bytes));
  });

  const TEMPLATE: ErrorNames = { notFound: "TEMPLATE_ID_INVALID" };

  on("get", "/templates", TEMPLATE, async (req, res, caller) => {
    const query = read(Paging.extend({ search_text: z.string().max(200).optional() }), req.query, "query");
    const start = query.start_position ?? 0;
    const count = query.count ?? MAX_COUNT;
    const search = query.search_text?.trim().toLowerCase();
    const pageOf = async (pageIndex: number) => {
      const listed = await templates.listTemplates({
        workspaceId: caller.workspaceId,
        pageIndex,
        pageSize: MAX_COUNT,
      });
      return { items: listed.templates, totalCount: listed.totalCount };
    };
    const found = search
      ? pageWithin(
          (await readAll(pageOf)).filter((t) => `${t.name}\n${t.description}`.toLowerCase().includes(search)),
          start,
          count,
        )
      : await slice(start, count, pageOf);
    res.json({
      ...resultSet(start, found.items.length, found.totalCount),
      envelopeTemplates: found.items.map(templateSummary),
    });
  });

  on("get", "/templates/:templateId", TEMPLATE, async (req, res, caller) => {
    const { template } = await templates.getTemplate({
      workspaceId: caller.workspaceId,
      templateId: String(req.params.templateId),
    });
    if (!template) throw new Error("the templates service answered without a template");
    const { document } = await documents.getDocument({
      workspaceId: caller.workspaceId,
      documentId: template.documentId,
    });
    res.json({
      ...templateSummary(template),
      documents: [
        present({
          documentId: "1",
          name: document?.filename,
          order: "1",
          pages: String(document?.pageCount ?? 0),
          uri: `/templates/${template.id}/documents/1`,
        }),
      ],
      recipients: {
        signers: template.roles.map((role, i) => ({
          roleName: role.name,
          recipientId: String(i + 1),
          routingOrder: String(role.order),
          recipientType: "signer",
        })),
        ...NO_OTHER_RECIPIENTS,
        recipientCount: String(template.roles.length),
      },
    });
  });

  router.use((req: Request) => {
    throw new DocuSignError(
      404,
      "RESOURCE_NOT_FOUND",
      `there is no ${req.method} ${RESTAPI_BASE}${req.path} in Countersign's DocuSign-compatible API`,
    );
  });
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const error = sendDocuSignError(req, res, err, res.locals.errorNames as ErrorNames | undefined);
    if (error.status >= 500 && error.errorCode !== "SERVICE_UNAVAILABLE") {
      logger.error({ err, requestId: res.locals.requestId, path: req.path }, "restapi request failed");
    }
  });
  return router;
}
