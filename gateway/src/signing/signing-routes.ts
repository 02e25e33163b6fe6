/**
 * The signer's side over HTTP (docs/design.md §9.1), no API key: opening a link starts a signing session
 * (an HttpOnly, SameSite=Strict cookie on /sign) and redirects to the page, so the token leaves
 * the address bar; the page's JSON API works by that cookie. Links that cannot open get an HTML
 * page saying why.
 */
import { once } from "node:events";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  dateSignedText,
  dayText,
  FRAME_META,
  FRAMED_SESSION_HEADER,
  hasDonePart,
  isDay,
  isTimeZone,
  logoPath,
} from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { SigningEndedSchema, SigningReturnSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  type FieldValue,
  FieldValueSchema,
  type RequestsService,
  type SignatureRequest,
  type SignerAuthentication as SignerAuthenticationMessage,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { problemOf } from "@countersign/kit";
import { create as contentDisposition } from "content-disposition";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { Contract } from "../contract/operation.js";
import {
  AttachmentParams,
  DateQuery,
  DateSigned,
  Declined,
  DeclineToSign,
  LogoParams,
  Reassigned,
  ReassignSigner,
  Signed,
  SignerAttachment,
  SignerAuthentication,
  SigningDocumentParams,
  SigningLinkParams,
  SigningSession,
  SubmitSignature,
  VerifySigner,
} from "../contract/signing.js";
import { readCookie, setCookie } from "../cookies.js";
import { DeclaredRouter } from "../declared-router.js";
import { CUSTOMER_FILE_POLICY, sendDocument } from "../document-download.js";
import { iso } from "../json-time.js";
import { type BodyBudget, budgetedJson } from "../middleware/body-budget.js";
import { notFound } from "../middleware/errors.js";
import { ApiProblem, signingEndedOf } from "../problems.js";
import type { RateLimiter } from "../rate-limiter.js";
import { brandingJson } from "../routes/branding.js";
import { fieldJson } from "../routes/signature-request-json.js";
import { readUpload, readWhole } from "../upload-body.js";
import { appPage, webApp } from "../web-app.js";
import { gonePage, linkPageLocale, sendLinkPage } from "./link-pages.js";

export const SIGNING_COOKIE = "cs_signing";
/** The logos a gateway keeps in memory: 16 MiB, some 160 logos at their largest. */
const LOGO_CACHE_BYTES = 16 * 1024 * 1024;

export interface SigningRoutesOptions {
  requests: Client<typeof RequestsService>;
  documents: Client<typeof DocumentsService>;
  /** The filesystem blob store's directory, where the gateway shares it (see sendDocument). */
  blobFiles?: string;
  contract: Contract;
  publicUrl: string;
  /** Limits link opening per client address: tokens are guessed nowhere else. */
  linkLimiter: RateLimiter;
  /** Limits signers' copies per session: each is drawn when asked. */
  copyLimiter: RateLimiter;
  /** Memory for bodies, shared with the gateway's other routes. */
  bodies: BodyBudget;
  /** The built signing page (index.html and assets/). */
  webRoot: string;
}

/** A page for a person, who opened a link in a browser. */
const HTML_PAGE = { "text/html": { schema: { type: "string" as const } } };

/** 401: no live session; 410: its request was cancelled, declined or expired meanwhile. */
/** The largest file a signer may attach (the requests service holds it whole while it stores it). */
const ATTACHMENT_BYTES = 10 * 1024 * 1024;

const API_PROBLEMS = [400, 401, 404, 409, 410, 413, 415, 422, 500, 503] as const;

function actorOf(req: Request) {
  return { ip: req.ip ?? "", userAgent: req.get("user-agent") ?? "" };
}

/**
 * The session a call names: by cookie, or, from a page inside another site's frame (where the browser
 * keeps no cookie of ours), by the header the page sends from memory.
 */
function sessionToken(req: Request): string {
  const token = req.get(FRAMED_SESSION_HEADER) || readCookie(req, SIGNING_COOKIE);
  if (!token)
    throw new ApiProblem("unauthorized", "no signing session; open the link from your e-mail again");
  return token;
}

/** State-changing calls must say they send JSON: a cross-site form cannot, so it cannot sign for anyone. */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is("application/json")) {
    throw new ApiProblem(
      "unsupported_media_type",
      'send the body as JSON with "Content-Type: application/json"',
    );
  }
  next();
}

/** `returnUrl?event=…` for an embedded session, keeping the return URL's own query. */
function redirectUrl(
  returnUrl: string,
  event: "signing_complete" | "decline" | "ttl_expired",
): string | undefined {
  if (!returnUrl) return undefined;
  const url = new URL(returnUrl);
  url.searchParams.set("event", event);
  return url.toString();
}

/** Everyone has done their part — signers signed, viewers viewed: the request is sealed or being sealed. */
function everyoneSigned(request: SignatureRequest): boolean {
  return request.recipients.every(hasDonePart);
}

/** A value an earlier signer filled in, as the page shows it; undefined for one the page cannot. */
function filledValueJson(
  value: FieldValue,
): z.input<typeof SigningSession>["filled"][number]["value"] | undefined {
  switch (value.value.case) {
    case "typed":
      return { kind: "typed", text: value.value.value.text };
    case "drawnPng":
      return { kind: "drawn", png: Buffer.from(value.value.value).toString("base64") };
    case "text":
      return value.value.value;
    case "checked":
      return value.value.value;
    default:
      return undefined;
  }
}

/** The page's values as the service takes them. */
function fieldValues(values: z.infer<typeof SubmitSignature>["values"]): Record<string, FieldValue> {
  const read = (value: (typeof values)[string]): MessageInitShape<typeof FieldValueSchema>["value"] => {
    if (typeof value === "string") return { case: "text", value };
    if (typeof value === "boolean") return { case: "checked", value };
    if (value.kind === "typed") return { case: "typed", value: { text: value.text } };
    if (value.kind === "attachment") return { case: "attachmentId", value: value.id };
    return { case: "drawnPng", value: Buffer.from(value.png, "base64") };
  };
  return Object.fromEntries(
    Object.entries(values).map(([id, value]) => [id, create(FieldValueSchema, { value: read(value) })]),
  );
}

/** Where the signer stands with the codes the sender asked for, as the page reads it. */
function authenticationJson(
  a: SignerAuthenticationMessage | undefined,
): z.input<typeof SignerAuthentication> {
  const methods = (a?.methods ?? []) as z.infer<typeof SignerAuthentication>["methods"];
  return {
    methods,
    verified: (a?.verified ?? []).filter((m) => (methods as string[]).includes(m)) as typeof methods,
    attemptsLeft: a?.attemptsLeft ?? 0,
    ...(a?.lockedUntil ? { lockedUntil: iso(a.lockedUntil) } : {}),
    ...(a?.emailHint ? { emailHint: a.emailHint } : {}),
    ...(a?.codeSentTime ? { codeSentAt: iso(a.codeSentTime) } : {}),
  };
}

export function signingRoutes(options: SigningRoutesOptions): Router {
  const { requests, documents, blobFiles, contract } = options;
  const router = express.Router();
  const api = new DeclaredRouter(contract, "/sign/api", "signingSession");
  api.router.use(budgetedJson(options.bodies, { limit: 1024 * 1024, strict: true }));

  const view = async (req: Request) => {
    const { signatureRequest, recipientId, returnUrl, filled, authentication, covers, branding } =
      await requests.getSigningSession({
        sessionToken: sessionToken(req),
      });
    return {
      request: signatureRequest as SignatureRequest,
      recipientId,
      returnUrl,
      filled,
      authentication,
      covers,
      branding,
    };
  };

  api.on(
    "get",
    "/session",
    {
      summary: "The signer's session",
      description:
        "The request, this recipient, the documents with their page sizes, and this recipient's fields.",
      tag: "Signing",
      answers: { 200: { description: "What the signer sees.", schema: SigningSession } },
      problems: [401, 410, 500, 503],
    },
    async ({ req, res }) => {
      const { request, recipientId, returnUrl, filled, authentication, covers, branding } = await view(req);
      const recipient = request.recipients.find((r) => r.id === recipientId);
      const stored = await Promise.all(
        request.documentIds.map(async (documentId) => {
          const { document } = await documents.getDocument({ workspaceId: request.workspaceId, documentId });
          return document;
        }),
      );
      const body: z.input<typeof SigningSession> = {
        authentication: authenticationJson(authentication),
        request: {
          id: request.id,
          title: request.title,
          message: request.message,
          sender: request.sender?.name ?? "",
        },
        recipient: {
          id: recipientId,
          name: recipient?.name ?? "",
          email: recipient?.email ?? "",
          status: (recipient?.status ?? "sent") as z.infer<typeof SigningSession>["recipient"]["status"],
          kind: (recipient?.kind ?? "signer") as z.infer<typeof SigningSession>["recipient"]["kind"],
          locale: (recipient?.locale || null) as z.infer<typeof SigningSession>["recipient"]["locale"],
          host: recipient?.host ? { name: recipient.host.name, email: recipient.host.email } : null,
        },
        requestStatus: request.status as z.infer<typeof SigningSession>["requestStatus"],
        documents: stored.map((d) => ({
          id: d?.id ?? "",
          filename: d?.filename ?? "",
          pageCount: d?.pageCount ?? 0,
          pages: (d?.pages ?? []).map((p) => ({ width: p.width, height: p.height })),
        })),
        fields: request.fields.map((f) => {
          const { recipientId: _, ...field } = fieldJson(f);
          return field;
        }),
        filled: filled.flatMap(({ field, value, filledBy }) => {
          const shown = value && filledValueJson(value);
          if (!field || shown === undefined) return [];
          const { recipientId: _, ...placed } = fieldJson(field);
          return [{ ...placed, value: shown, filledBy }];
        }),
        covers: covers.map(({ documentId, page, box }) => ({
          documentId,
          page,
          x: box?.x ?? 0,
          y: box?.y ?? 0,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
        })),
        branding: brandingJson(request.workspaceId, branding, options.publicUrl),
        test: request.test,
        identityLocked: request.lockSignerIdentity,
        everyoneSigned: everyoneSigned(request),
        canReassign:
          request.allowReassign &&
          !recipient?.clientUserId &&
          !recipient?.host &&
          recipient?.kind === "signer",
        sealingDelayed: request.completionFailure !== undefined,
        ...(returnUrl ? { returnUrl } : {}),
        ...(request.signedDocumentId ? { signedDocumentId: request.signedDocumentId } : {}),
      };
      res.set("Cache-Control", "no-store").json(body);
    },
  );

  api.on(
    "get",
    "/documents/:documentId",
    {
      summary: "A document of the signer's request",
      description: "The PDF to sign, or the sealed PDF once the request is completed.",
      tag: "Signing",
      params: SigningDocumentParams,
      answers: {
        200: {
          description: "The PDF.",
          content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
        },
      },
      problems: [400, 401, 404, 410, 500, 503],
    },
    async ({ req, res, params }) => {
      const { request, authentication } = await view(req);
      if (authentication?.methods.some((m) => !authentication.verified.includes(m)))
        throw new ApiProblem("forbidden", "give the codes the sender asked for first");
      const readable = [
        ...request.documentIds,
        ...(request.signedDocumentId ? [request.signedDocumentId] : []),
      ];
      if (!readable.includes(params.documentId))
        throw new ApiProblem("not_found", "no such document in this request");
      await sendDocument(req, res, documents, request.workspaceId, params.documentId, {
        disposition: "inline",
        blobFiles,
      });
    },
  );

  api.on(
    "get",
    "/copy",
    {
      summary: "The signer's copy",
      description:
        "Once this signer has signed: the documents with every value signed so far drawn on its field, as the sealed PDF will draw them, without the certificate of completion or the seal, which come when everyone has signed (then `signedDocumentId`). Drawn when asked: a few a minute per session.",
      tag: "Signing",
      answers: {
        200: {
          description: "The PDF, as an attachment.",
          content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
        },
      },
      problems: [401, 409, 410, 429, 500, 503],
    },
    async ({ req, res }) => {
      const token = sessionToken(req);
      const limit = options.copyLimiter.take(token);
      if (!limit.allowed) {
        throw new ApiProblem(
          "rate_limited",
          `your copy was drawn a moment ago; try again in ${limit.retryAfterSeconds} s`,
          undefined,
          { "Retry-After": String(limit.retryAfterSeconds) },
        );
      }
      const parts = requests.getSignerCopy({ sessionToken: token })[Symbol.asyncIterator]();
      // The first part describes the copy; an error (not signed yet, the session ended) comes before it.
      const first = await parts.next();
      if (first.done || first.value.part.case !== "copy")
        throw new Error("the requests service answered a copy without describing it");
      const copy = first.value.part.value;
      res.set({
        "Content-Type": "application/pdf",
        "Content-Length": String(copy.sizeBytes),
        "Content-Disposition": contentDisposition(copy.filename),
        "Cache-Control": "no-store",
        "Content-Security-Policy": CUSTOMER_FILE_POLICY,
      });
      for (let part = await parts.next(); !part.done; part = await parts.next()) {
        if (part.value.part.case === "chunk" && !res.write(part.value.part.value)) await once(res, "drain");
      }
      res.end();
    },
  );

  api.on(
    "post",
    "/attachments/:fieldId",
    {
      summary: "Attach a file to an attachment field",
      description:
        "A `multipart/form-data` body with the field `file`: a PDF, or a PNG or JPEG image (kept as a one-page PDF showing it), at most 10 MiB. Kept as a document of the request; its `id` is the field's value to submit. A later file for the same field replaces this one.",
      tag: "Signing",
      params: AttachmentParams,
      streamedBody: {
        "multipart/form-data": {
          schema: z.object({ file: z.string().meta({ format: "binary", description: "The file." }) }),
        },
      },
      answers: { 201: { description: "The file as kept.", schema: SignerAttachment } },
      problems: [400, 401, 403, 409, 410, 413, 415, 422, 500, 503],
    },
    async ({ req, res, params }) => {
      // Without a session there is nothing to attach to: refused before any of the body is read.
      const token = sessionToken(req);
      const file = await readUpload(req, res, ATTACHMENT_BYTES);
      const content = await readWhole(file, ATTACHMENT_BYTES);
      const { attachment } = await requests.attachSignerFile({
        sessionToken: token,
        fieldId: params.fieldId,
        filename: file.filename,
        contentType: file.contentType,
        content,
        actor: actorOf(req),
      });
      if (!attachment) throw new Error("the requests service kept an attachment without describing it");
      res.status(201).json({
        id: attachment.documentId,
        fieldId: attachment.fieldId,
        filename: attachment.filename,
        contentType: attachment.contentType as z.infer<typeof SignerAttachment>["contentType"],
        sizeBytes: Number(attachment.sizeBytes),
        sha256: attachment.sha256,
      } satisfies z.input<typeof SignerAttachment>);
    },
  );

  api.on(
    "post",
    "/submit",
    {
      summary: "Sign",
      description:
        "Records the signer's values and consent; the last signature starts completion, which finishes after this answer.",
      tag: "Signing",
      body: SubmitSignature,
      answers: { 200: { description: "Signed.", schema: Signed } },
      problems: [...API_PROBLEMS],
    },
    async ({ req, res, body }) => {
      const answer = await requests.submitSignature({
        sessionToken: sessionToken(req),
        consent: body.consent,
        values: fieldValues(body.values),
        actor: actorOf(req),
        locale: body.locale ?? "",
        timeZone: body.timeZone ?? "",
      });
      const redirect = redirectUrl(answer.returnUrl, "signing_complete");
      const request = answer.signatureRequest as SignatureRequest;
      const acted = request.recipients.find((r) => r.id === answer.recipientId);
      const signed: z.input<typeof Signed> = {
        recipientStatus: acted?.status === "approved" ? "approved" : "signed",
        requestStatus: request.status as z.infer<typeof Signed>["requestStatus"],
        everyoneSigned: everyoneSigned(request),
        ...(redirect ? { redirectUrl: redirect } : {}),
      };
      res.json(signed);
    },
    [requireJson],
  );

  api.on(
    "get",
    "/date-signed",
    {
      summary: "A date as the signing page shows it",
      description:
        "What a date_signed field reads (or, with `date`, a date field the signer picked) in the language and time zone the page sends with its signature: the page shows the signer this text, not its own rendering of the date, and the signature keeps it with the day. The sealed PDF writes the day itself, YYYY-MM-DD, one form for the whole document.",
      tag: "Signing",
      query: DateQuery,
      answers: { 200: { description: "The date.", schema: DateSigned } },
      problems: [400, 422, 500],
    },
    async ({ res, query }) => {
      if (query.timeZone && !isTimeZone(query.timeZone))
        throw new ApiProblem("validation_failed", "the time zone is not valid", [
          { path: "timeZone", message: "must be an IANA time zone, such as Europe/Berlin" },
        ]);
      if (query.date && !isDay(query.date))
        throw new ApiProblem("validation_failed", "the day is not valid", [
          { path: "date", message: "must be a day of the calendar, written YYYY-MM-DD" },
        ]);
      const text = query.date
        ? dayText(query.date, query.locale)
        : dateSignedText(new Date(), query.locale, query.timeZone);
      res.set("Cache-Control", "no-store").json({ text } satisfies z.input<typeof DateSigned>);
    },
  );

  api.on(
    "post",
    "/viewed",
    {
      summary: "Record that the signer sees the request",
      description:
        "The signing page calls it once it shows the documents: the recipient's first view makes them `viewed` and emits `signature_request.viewed`. Opening the link does not, so that a mail filter fetching every link in an e-mail marks nobody as having viewed.",
      tag: "Signing",
      answers: { 204: { description: "Recorded (or viewed before)." } },
      problems: [401, 410, 500, 503],
    },
    async ({ req, res }) => {
      await requests.recordSigningView({ sessionToken: sessionToken(req), actor: actorOf(req) });
      res.status(204).end();
    },
  );

  api.on(
    "post",
    "/decline",
    {
      summary: "Decline to sign",
      description: "Ends the request as declined, with the signer's reason.",
      tag: "Signing",
      body: DeclineToSign,
      answers: { 200: { description: "Declined.", schema: Declined } },
      problems: [...API_PROBLEMS],
    },
    async ({ req, res, body }) => {
      const answer = await requests.declineToSign({
        sessionToken: sessionToken(req),
        reason: body.reason,
        actor: actorOf(req),
      });
      const redirect = redirectUrl(answer.returnUrl, "decline");
      const declined: z.input<typeof Declined> = {
        recipientStatus: "declined",
        ...(redirect ? { redirectUrl: redirect } : {}),
      };
      res.json(declined);
    },
    [requireJson],
  );

  api.on(
    "post",
    "/reassign",
    {
      summary: "Hand the request to someone else",
      description:
        "Where the sender allows it: the new person is e-mailed a link of their own, this link and session end, and the audit trail says who handed it to whom and why. An access code the sender set for this signer no longer applies. Refused (422 naming `email`) for the signer's own address, the sender's, or that of anyone already on the request, in any letter case or Unicode form.",
      tag: "Signing",
      body: ReassignSigner,
      answers: { 200: { description: "Handed over.", schema: Reassigned } },
      problems: [...API_PROBLEMS],
    },
    async ({ req, res, body }) => {
      await requests.reassignSigner({ sessionToken: sessionToken(req), ...body, actor: actorOf(req) });
      res.json({ name: body.name.trim(), email: body.email.trim() });
    },
    [requireJson],
  );

  api.on(
    "post",
    "/code",
    {
      summary: "E-mail the signer a one-time code",
      description:
        "For a signer the sender asked to prove their e-mail (`emailCode`): a six-digit code, valid 10 minutes, goes to their address. Another may be asked for 30 s after this session's last, and ten an hour per signer, whatever sessions ask (429 with Retry-After saying when).",
      tag: "Signing",
      answers: { 200: { description: "Where the signer stands now.", schema: SignerAuthentication } },
      problems: [401, 409, 410, 429, 500, 503],
    },
    async ({ req, res }) => {
      const answer = await requests.sendSigningCode({ sessionToken: sessionToken(req), actor: actorOf(req) });
      res.json(authenticationJson(answer.authentication));
    },
  );

  api.on(
    "post",
    "/verify",
    {
      summary: "Give the codes the sender asked for",
      description:
        "The access code, the e-mailed code, or both. A wrong one answers 422 naming the field and the attempts left; every fifth wrong one, of either kind and from any session, locks the signer out: 15 minutes, then twice as long each time up to 4 hours (429 with Retry-After). A right code of one kind does not clear the wrong ones of the other.",
      tag: "Signing",
      body: VerifySigner,
      answers: { 200: { description: "Where the signer stands now.", schema: SignerAuthentication } },
      problems: [400, 401, 410, 413, 415, 422, 429, 500, 503],
    },
    async ({ req, res, body }) => {
      const answer = await requests.verifySigner({
        sessionToken: sessionToken(req),
        accessCode: body.accessCode ?? "",
        emailCode: body.emailCode ?? "",
        actor: actorOf(req),
      });
      res.json(authenticationJson(answer.authentication));
    },
    [requireJson],
  );

  router.use("/api", api.router);
  const page = { dir: options.webRoot, name: "signing page" };
  const sendPage = appPage(page);
  router.use(webApp({ ...page, pages: ["/", "/index.html"] }, sendPage));
  // Whatever else is under /sign/api or /sign/assets is not a link token: it answers a problem.
  router.use(["/api", "/assets"], notFound);

  const links = new DeclaredRouter(contract, "/sign", "none");
  // A logo's address names its digest, so the image it answers never changes: kept here, a logo
  // shown in every e-mail and on every signing page is read from the database once per gateway.
  const logos = new LRUCache<string, { contentType: string; content: Buffer }>({
    maxSize: LOGO_CACHE_BYTES,
    sizeCalculation: (logo) => logo.content.length + 1,
  });
  links.on(
    "get",
    "/:token",
    {
      summary: "Open a signing link",
      description:
        "Starts a signing session (cookie `cs_signing`) and redirects to the signing page; a link that cannot open answers an HTML page saying why (404 unknown, 410 replaced, used, expired or its request ended; 429 too many attempts). An embedded URL that was given a return URL and is used or expired sends the signer there instead, with `?event=ttl_expired`. An embedded URL made with a `frameOrigin` answers the signing page itself (200), which that origin alone may frame, with its session in the page rather than a cookie (header `X-Signing-Session` on its calls); the page posts its events to that origin.",
      tag: "Signing",
      params: SigningLinkParams,
      answers: {
        200: { description: "The signing page, for a frame of the URL's `frameOrigin`.", content: HTML_PAGE },
        303: { description: "To /sign/, the signing page." },
        404: { description: "No link has this token; the page says so.", content: HTML_PAGE },
        410: { description: "The link no longer opens; the page says why.", content: HTML_PAGE },
        429: {
          description: "Too many links opened from this address; the page says when to retry.",
          content: HTML_PAGE,
        },
        503: { description: "Links cannot be opened right now; the page says to retry.", content: HTML_PAGE },
      },
      problems: [],
    },
    async ({ req, res, params }) => {
      const limit = options.linkLimiter.take(req.ip ?? "unknown");
      if (!limit.allowed) {
        res.set("Retry-After", String(limit.retryAfterSeconds));
        sendLinkPage(req, res, {
          status: 429,
          title: { id: "tooMany.title" },
          message: { id: "tooMany.body", values: { seconds: limit.retryAfterSeconds } },
        });
        return;
      }
      try {
        const opened = await requests.openSigningLink({ token: params.token, actor: actorOf(req) });
        if (opened.frameOrigin) {
          // In another site's frame: no cookie would come back, so the page itself carries its session,
          // served here rather than after a redirect; the link opens once, so a reload asks for another.
          sendPage(req, res, {
            frameAncestor: opened.frameOrigin,
            meta: { [FRAME_META.session]: opened.sessionToken, [FRAME_META.origin]: opened.frameOrigin },
          });
          return;
        }
        setCookie(res, SIGNING_COOKIE, opened.sessionToken, {
          httpOnly: true,
          secure: options.publicUrl.startsWith("https:"),
          path: "/sign",
          sameSite: "strict",
        });
        res.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }).redirect(303, "/sign/");
      } catch (err) {
        if (!(err instanceof ConnectError)) throw err;
        if (err.code === Code.NotFound) {
          sendLinkPage(req, res, {
            status: 404,
            title: { id: "invalid.title" },
            message: { id: "invalid.body" },
          });
        } else if (problemOf(err) === "gone") {
          const back = err.findDetails(SigningReturnSchema)[0];
          const ended = signingEndedOf(err);
          const page = {
            ...gonePage(ended, err.rawMessage, linkPageLocale(req)),
            unbranded: err.findDetails(SigningEndedSchema)[0]?.hideProductName ?? false,
          };
          // In the integrator's frame: the page says why there, and tells the framing page.
          if (back?.frameOrigin) {
            const reason = ended?.reason ?? "session_ended";
            sendLinkPage(req, res, { ...page, framedBy: { origin: back.frameOrigin, reason } });
            return;
          }
          // An embedded URL used or expired returns the signer to the sender's app, which knows what to do.
          const urlGone = ended?.reason === "url_used" || ended?.reason === "url_expired";
          const redirect = back && urlGone && redirectUrl(back.returnUrl, "ttl_expired");
          if (redirect) {
            res
              .set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" })
              .redirect(303, redirect);
            return;
          }
          sendLinkPage(req, res, page);
        } else if (err.code === Code.Unavailable || err.code === Code.DeadlineExceeded) {
          sendLinkPage(req, res, {
            status: 503,
            title: { id: "unavailable.title" },
            message: { id: "unavailable.body" },
          });
        } else {
          throw err;
        }
      }
    },
  );
  links.on(
    "get",
    "/logos/:workspaceId/:sha256",
    {
      summary: "A workspace's logo",
      description:
        "The logo its signing pages show, at an address naming its digest: cached for good, and shown in e-mails too. The digest of a logo since replaced redirects to the current one.",
      tag: "Signing",
      params: LogoParams,
      answers: {
        200: {
          description: "The image.",
          content: {
            "image/png": { schema: { type: "string", format: "binary" } },
            "image/jpeg": { schema: { type: "string", format: "binary" } },
          },
        },
        302: { description: "To the workspace's current logo." },
      },
      problems: [404, 500, 503],
    },
    async ({ res, params }) => {
      // Read by e-mail clients and other sites' pages too, never as anything but an image.
      res.set({ "Cross-Origin-Resource-Policy": "cross-origin", "X-Content-Type-Options": "nosniff" });
      // The current digest first, a small read: an address of a replaced logo leads to the new one.
      const { branding } = await requests.getBranding({ workspaceId: params.workspaceId });
      const current = branding?.logoSha256 ?? "";
      if (!current) throw new ApiProblem("not_found", "no such logo");
      if (current !== params.sha256) {
        res.set("Cache-Control", "no-cache").redirect(302, logoPath(params.workspaceId, current));
        return;
      }
      const address = logoPath(params.workspaceId, current);
      let logo = logos.get(address);
      if (!logo) {
        const found = await requests
          .getBrandingLogo({ workspaceId: params.workspaceId, sha256: current })
          .catch((err: unknown) => {
            if (err instanceof ConnectError && err.code === Code.NotFound)
              throw new ApiProblem("not_found", "no such logo");
            throw err;
          });
        // Replaced between the two reads: the next request finds the new one.
        if (found.sha256 !== current || !found.logo) {
          res.set("Cache-Control", "no-cache").redirect(302, logoPath(params.workspaceId, found.sha256));
          return;
        }
        logo = { contentType: found.logo.contentType, content: Buffer.from(found.logo.content) };
        logos.set(address, logo);
      }
      res
        .set({
          "Content-Type": logo.contentType,
          "Cache-Control": "public, max-age=31536000, immutable",
          "Content-Security-Policy": "default-src 'none'",
        })
        .send(logo.content);
    },
  );
  router.use(links.router);
  return router;
}
