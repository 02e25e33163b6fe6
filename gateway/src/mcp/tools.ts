/**
 * The tools an assistant gets at /mcp/v1: the client's job from templates to the signed PDF. Each
 * one but the document transfers is an operation of the HTTP API, run as it is (`PublicApi
 * .operation`), so a tool and its route cannot differ in what they accept, check or answer.
 */
import type { ApiScope } from "@countersign/domain";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ScopeRequirement } from "../contract/scope-requirements.js";
import type { Method } from "../declared-router.js";
import type { Actor, Operation, PublicApi } from "../public-api.js";
import { argumentsSchema, readArguments } from "./tool-arguments.js";
import { type JsonSchema, jsonSchemaOf } from "./tool-schemas.js";

export interface ToolContext {
  workspaceId: string;
  actor: Actor;
  scopes: ReadonlySet<ApiScope>;
  /** Check the call and answer what it would, changing nothing (a write tool's `dryRun`). */
  dryRun: boolean;
}

/** What a tool answers: the status its operation answered, its JSON, and any other content. */
export interface ToolReply {
  status: number;
  body: Record<string, unknown>;
  /** Content besides the JSON (a downloaded document as an embedded resource). */
  attachments?: { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }[];
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** What a call needs of the API key, as its operation declares it. */
  needs: ScopeRequirement;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolReply>;
}

/** A tool that changes something: it takes an idempotency key. */
export const writes = (tool: Tool): boolean => tool.annotations.readOnlyHint === false;

interface Described {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Changes something and may reach people outside (e-mails to recipients). */
const NOTIFIES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
const CHANGES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

/** A tool that is the HTTP operation `method` `path`, with the description an assistant acts on. */
export function operationTool(api: PublicApi, method: Method, path: string, described: Described): Tool {
  const operation: Operation = api.operation(method, path);
  const { spec } = operation;
  const answer = Object.entries(spec.answers).find(([status]) => status.startsWith("2"))?.[1];
  if (!answer?.schema) throw new Error(`${method} ${path} answers no JSON a tool could return`);
  if (described.annotations.readOnlyHint === false && !spec.dryRun) {
    throw new Error(`${method} ${path} is run by a write tool, which must offer a dry run: it declares none`);
  }
  return {
    ...described,
    annotations: { title: described.title, ...described.annotations },
    needs: { scope: spec.scope, conditionalScopes: spec.conditionalScopes, proposable: spec.proposable },
    inputSchema: jsonSchemaOf(argumentsSchema(spec), "input"),
    outputSchema: jsonSchemaOf(answer.schema, "output"),
    async run(args, context) {
      const reply = await operation.run({ ...readArguments(spec, args), ...context } as never);
      return { status: reply.status, body: reply.body as Record<string, unknown> };
    },
  };
}

/** Every tool but the document transfers (document-tools.ts), in the order an assistant meets them. */
export function operationTools(api: PublicApi): Tool[] {
  const tool = (method: Method, path: string, described: Described) =>
    operationTool(api, method, path, described);
  return [
    tool("get", "/templates", {
      name: "list_templates",
      title: "List templates",
      description:
        "List the workspace's templates, newest first. A template holds the documents, the signer roles and where each role signs; create_signature_request with its id and one signer per role.",
      annotations: READ_ONLY,
    }),
    tool("get", "/templates/:templateId", {
      name: "get_template",
      title: "Get a template",
      description:
        "Get one template with its roles (give each recipient one of these names as `role`), in signing order, and its fields.",
      annotations: READ_ONLY,
    }),
    tool("post", "/signature-requests", {
      name: "create_signature_request",
      title: "Create a signature request",
      description:
        "Create a signature request. From a template: `templateId` and one recipient per template role, with `role` set to the role's name. From uploaded documents instead: `documentIds` and `fields`, each field naming the role of the signer who fills it, and every signer's role needs a required signature field. Recipients with `kind: cc` get a copy when it completes; one with `kind: approver` approves or declines and one with `kind: viewer` must open the documents, in routing order, and neither signs anything; a signer with `clientUserId` signs inside your app (get_embedded_signing_url) and gets no e-mail. It is a draft unless `send` is true. With an agent's key (scope requests:propose instead of requests:send), `send: true` does not send: the request waits, status awaiting_approval, until an Organization Admin or the workspace's approver approves it in the Countersign console, and only then goes out; tell your user it awaits their approval.",
      annotations: NOTIFIES,
    }),
    tool("get", "/signature-requests", {
      name: "list_signature_requests",
      title: "List signature requests",
      description: "List signature requests, newest first, optionally only those in one status.",
      annotations: READ_ONLY,
    }),
    tool("get", "/signature-requests/:requestId", {
      name: "get_signature_request",
      title: "Get a signature request",
      description:
        "Get a signature request: its status, its recipients (their ids and whether each has viewed, signed or declined), its fields and, once completed, `signedDocumentId` for download_document.",
      annotations: READ_ONLY,
    }),
    tool("post", "/signature-requests/:requestId/send", {
      name: "send_signature_request",
      title: "Send a signature request",
      description:
        "Send a draft: the first signers in routing order are e-mailed their signing links (embedded signers are not). Only a draft can be sent (invalid_state otherwise). With an agent's key (scope requests:propose), the draft is not sent but waits, status awaiting_approval, for a person to approve it in the Countersign console; tell your user it awaits their approval.",
      annotations: NOTIFIES,
    }),
    tool("post", "/signature-requests/:requestId/resend", {
      name: "resend_signature_request",
      title: "Resend a signature request",
      description:
        "E-mail new signing links to every signer whose turn it is and who has not signed; their old links stop working. Only while the request is sent or in progress.",
      annotations: NOTIFIES,
    }),
    tool("post", "/signature-requests/:requestId/cancel", {
      name: "cancel_signature_request",
      title: "Cancel a signature request",
      description:
        "Cancel a request that has not ended, with an optional reason: every signing link stops working at once. This cannot be undone.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    }),
    tool("post", "/recipients/:recipientId/reminders", {
      name: "remind_recipient",
      title: "Remind a recipient",
      description:
        "E-mail a reminder, with an optional note, to a signer whose turn it is (recipient ids are in get_signature_request). At most one per recipient every 10 minutes (rate_limited otherwise); embedded signers get no e-mail and cannot be reminded.",
      annotations: NOTIFIES,
    }),
    tool("patch", "/signature-requests/:requestId/recipients", {
      name: "update_recipients",
      title: "Update recipients",
      description:
        "Correct the name or e-mail address of recipients who have not signed yet, by recipient id. A changed recipient's old links stop working, and on a sent request they are e-mailed again.",
      annotations: NOTIFIES,
    }),
    tool("post", "/embedded-signing-url", {
      name: "get_embedded_signing_url",
      title: "Get an embedded signing URL",
      description:
        "Get a one-time URL where a signer signs inside your own app: the recipient needs a `clientUserId` and it must be their turn. It opens once, before `expiresAt`; after signing, the signer is sent to `returnUrl`. To show it in an iframe of your app, pass your page's `frameOrigin` (one of the workspace's embedding origins, Settings → Developer → Embedding): the page then opens only in a frame of that origin and posts its events (ready, completed, declined…) there.",
      annotations: CHANGES,
    }),
    tool("post", "/sender-views", {
      name: "create_sender_view",
      title: "Get a sender view URL",
      description:
        "Get a one-time URL (5 minutes) that opens our sending flow inside your own app, for a person to prepare and send a request there: with `requestId`, a draft to review and send; without, a new request from a template or from documents. To show it in an iframe, pass your page's `frameOrigin` (one of the workspace's embedding origins); the page then posts `sent` with the request id there.",
      annotations: CHANGES,
    }),
    tool("post", "/templates/:templateId/edit-view", {
      name: "create_template_edit_view",
      title: "Get a template edit view URL",
      description:
        "Get a one-time URL (5 minutes) that opens our template editor on one template inside your own app, for a person to place its roles and fields; `frameOrigin` as for create_sender_view, and the page posts `saved` when the template is saved.",
      annotations: CHANGES,
    }),
    tool("post", "/agreement-sets", {
      name: "create_agreement_set",
      title: "Create an agreement set",
      description:
        "Group signature requests of this workspace (each in no other set) to follow their joint outcome.",
      annotations: CHANGES,
    }),
    tool("get", "/agreement-sets/:agreementSetId", {
      name: "get_agreement_set",
      title: "Get an agreement set",
      description:
        "Get an agreement set with each request's status: in_progress until every request has ended, then completed if all completed, else incomplete.",
      annotations: READ_ONLY,
    }),
    tool("get", "/signature-requests/:requestId/audit-trail", {
      name: "get_audit_trail",
      title: "Get the audit trail",
      description:
        "Get every event of a signature request in order (created, sent, viewed, signed, reminded, …) with who did it, from where and when; `verified` says whether the hash chain over the entries is intact.",
      annotations: READ_ONLY,
    }),
    tool("get", "/webhook-endpoints", {
      name: "list_webhook_endpoints",
      title: "List webhook endpoints",
      description:
        "List the workspace's webhook endpoints: their URLs, the event types each receives and whether it is enabled. Secrets are never listed.",
      annotations: READ_ONLY,
    }),
    tool("get", "/webhook-endpoints/:endpointId/messages", {
      name: "list_webhook_deliveries",
      title: "List webhook deliveries",
      description:
        "List the events sent to one webhook endpoint, newest first, with every delivery attempt (status code, duration, error); filter by status (pending, succeeded, failed) or event type.",
      annotations: READ_ONLY,
    }),
  ];
}
