/**
 * The MCP tool endpoint /mcp/v1 with the official SDK client over Streamable HTTP, in both modes:
 * the tool list an assistant reads, a whole signature-request lifecycle through tools down to the
 * signed PDF, keys refused at the transport, bad arguments answered with the API's violations,
 * another workspace's ids not found, and tool calls under the key's rate limit and in Recent Errors
 * and API Usage.
 */
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { type Deployment, faultsIn, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";
import { SignerBrowser } from "./support/signer-browser.js";
import { watched } from "./support/stall-watch.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

const TOOLS = [
  "list_templates",
  "get_template",
  "create_signature_request",
  "list_signature_requests",
  "get_signature_request",
  "send_signature_request",
  "resend_signature_request",
  "cancel_signature_request",
  "remind_recipient",
  "update_recipients",
  "get_embedded_signing_url",
  "create_sender_view",
  "create_template_edit_view",
  "create_agreement_set",
  "get_agreement_set",
  "get_audit_trail",
  "list_webhook_endpoints",
  "list_webhook_deliveries",
  "upload_document",
  "download_document",
];

interface CreatedKey {
  id: string;
  secret: string;
  accountId: string;
}

interface ToolError {
  code: string;
  message: string;
  status: number;
  errors?: { path: string; message: string }[];
  retryAfterSeconds?: number;
  requestId: string;
}

interface RequestJson {
  id: string;
  status: string;
  recipients: { id: string; email: string; status: string; role: string | null; locale: string | null }[];
  signedDocumentId: string | null;
  documentIds: string[];
}

/** A tool's JSON: the structured result, which must equal the JSON text beside it. */
function resultOf<T>(result: CallToolResult): T {
  expect(result.isError ?? false).toBe(false);
  const text = result.content.find((c) => c.type === "text");
  expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

function errorOf(result: CallToolResult): ToolError {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const text = result.content.find((c) => c.type === "text") as { text: string };
  return (JSON.parse(text.text) as { error: ToolError }).error;
}

interface JsonSchemaNode {
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
}

/** Every argument, at any depth, whose schema has no description for an assistant to act on. */
function undescribed(root: JsonSchemaNode): string[] {
  const resolve = (node: JsonSchemaNode) =>
    node.$ref ? (root.$defs?.[node.$ref.replace("#/$defs/", "")] ?? node) : node;
  const walk = (node: JsonSchemaNode, prefix: string): string[] =>
    Object.entries(resolve(node).properties ?? {}).flatMap(([name, property]) => {
      const path = `${prefix}${name}`;
      const items = property.items ? walk(property.items, `${path}[].`) : [];
      // A property that names a shared schema ($ref) is described by that schema's description.
      const described = property.description ?? resolve(property).description;
      return [...(described ? [] : [path]), ...items, ...walk(property, `${path}.`)];
    });
  return walk(root, "");
}

const RANDOM_ID = "0192f5d8-0000-7000-8000-000000000000";

const mcpRequest = (id: number, method: string, params: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

describe.each(modes)("%s mode: MCP tools", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: CreatedKey;
  let templateId: string;
  const clients: Client[] = [];

  const createKey = async (name: string, workspace?: string): Promise<CreatedKey> => {
    const made = await deployment.cli(
      "keys",
      "create",
      "--name",
      name,
      ...(workspace ? ["--workspace", workspace] : []),
    );
    expect(made.code).toBe(0);
    return JSON.parse(made.stdout) as CreatedKey;
  };

  async function connect(secret: string): Promise<Client> {
    const client = new Client({ name: "countersign-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway}/mcp/v1`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** A raw JSON-RPC POST, as a client without the SDK sends it. */
  const post = (secret: string | undefined, body: unknown) =>
    call(gateway, "/mcp/v1", {
      method: "POST",
      ...(secret ? { key: secret } : {}),
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      json: body,
    });

  const makeTemplate = (secret: string) => createTwoRoleTemplate(`${gateway}/api/v1`, secret, "MCP NDA");

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = await createKey("mcp");
    templateId = await makeTemplate(key.secret);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await deployment?.destroy();
  });

  test("tools/list names every tool with a description, described arguments and an object output schema", async () => {
    const client = await connect(key.secret);
    expect(client.getServerVersion()).toMatchObject({ name: "countersign" });
    expect(client.getInstructions()).toMatch(/create_signature_request/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(
        tool.name.startsWith("list_") ||
          tool.name.startsWith("get_template") ||
          /^(get_(signature_request|agreement_set|audit_trail)|download_document)$/.test(tool.name),
      );
      expect({ tool: tool.name, undescribed: undescribed(tool.inputSchema) }).toEqual({
        tool: tool.name,
        undescribed: [],
      });
    }
    // Strict validators compile every schema (no keyword out of place, no unknown format).
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(() => ajv.compile(schema as object)).not.toThrow();
      }
    }
    const create = tools.find((tool) => tool.name === "create_signature_request");
    expect(create?.inputSchema.required).toEqual(["title", "recipients"]);
    // An assistant can ask a signer for an access code or an e-mailed code, as the API can.
    const described = JSON.stringify(create?.inputSchema);
    expect([described.includes('"accessCode":{'), described.includes('"emailCode":{')]).toEqual([true, true]);
    // And the language of a recipient's e-mails and signing page.
    expect(described).toContain('"locale":{');
    expect(create?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    const cancel = tools.find((tool) => tool.name === "cancel_signature_request");
    expect(cancel?.annotations?.destructiveHint).toBe(true);
  });

  test("an assistant runs the whole lifecycle through tools: template to signed PDF, reminders, recipients, sets, audit", async () => {
    const client = await connect(key.secret);
    const tool = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

    const templates = resultOf<{ items: { id: string }[]; totalCount: number }>(
      await tool("list_templates", { pageSize: 5 }),
    );
    expect(templates.items.map((t) => t.id)).toContain(templateId);
    expectDocumented("GET", "/api/v1/templates", 200, templates);
    const template = resultOf<{ roles: { name: string }[] }>(await tool("get_template", { templateId }));
    expect(template.roles.map((r) => r.name)).toEqual(["Client", "Company"]);

    // Upload through the tool: the same checks and answer as the HTTP upload.
    const pdf = Buffer.from(await makePdf(2, "Uploaded by an assistant"));
    const uploadReply = await tool("upload_document", {
      filename: "assistant.pdf",
      contentBase64: pdf.toString("base64"),
    });
    const uploaded = resultOf<{ id: string; pageCount: number; sha256: string }>(uploadReply);
    expectDocumented("POST", "/api/v1/documents/upload", 201, uploaded);
    expect(uploaded).toMatchObject({ pageCount: 2, sha256: createHash("sha256").update(pdf).digest("hex") });
    const notPdf = errorOf(
      await tool("upload_document", {
        filename: "x.pdf",
        contentBase64: Buffer.from("plain text").toString("base64"),
      }),
    );
    expect(notPdf).toMatchObject({ code: "unsupported_media_type", status: 415 });

    // Both signers embedded: the request completes through the tools and two signing pages.
    const created = resultOf<RequestJson>(
      await tool("create_signature_request", {
        title: "Signed by tools",
        templateId,
        recipients: [
          {
            name: "Ada Client",
            email: "ada@example.com",
            role: "Client",
            clientUserId: "ada-1",
            locale: "fr",
          },
          { name: "Cy Company", email: "cy@example.com", role: "Company", clientUserId: "cy-1" },
        ],
      }),
    );
    expectDocumented("POST", "/api/v1/signature-requests", 201, created);
    expect(created.status).toBe("draft");
    expect(created.recipients.map((r) => r.locale)).toEqual(["fr", null]);
    const sent = resultOf<RequestJson>(await tool("send_signature_request", { requestId: created.id }));
    expect(sent.status).toBe("sent");
    expect(errorOf(await tool("send_signature_request", { requestId: created.id }))).toMatchObject({
      code: "invalid_state",
      status: 409,
    });
    // For a frame of the assistant's user's app: refused for an origin the workspace has not listed.
    expect(
      errorOf(
        await tool("get_embedded_signing_url", {
          requestId: created.id,
          recipientId: sent.recipients[0]?.id,
          frameOrigin: "https://app.example.com",
        }),
      ),
    ).toMatchObject({ status: 422, errors: [expect.objectContaining({ path: "frameOrigin" })] });
    for (const recipient of sent.recipients) {
      const made = resultOf<{ url: string; expiresAt: string }>(
        await tool("get_embedded_signing_url", {
          requestId: created.id,
          recipientId: recipient.id,
          returnUrl: "https://app.example.com/done",
        }),
      );
      expectDocumented("POST", "/api/v1/embedded-signing-url", 201, made);
      const signer = new SignerBrowser(gateway);
      expect((await signer.open(made.url)).status).toBe(303);
      const session = (await signer.call("/sign/api/session")).body as { fields: { id: string }[] };
      const values = Object.fromEntries(
        session.fields.map((f) => [f.id, { kind: "typed", text: recipient.email }]),
      );
      expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
    }
    const completed = await eventually(async () => {
      const got = resultOf<RequestJson>(await tool("get_signature_request", { requestId: created.id }));
      return got.status === "completed" ? got : undefined;
    }, 30_000);
    expectDocumented("GET", "/api/v1/signature-requests/{requestId}", 200, completed);

    const download = await tool("download_document", { documentId: completed.signedDocumentId });
    const signedDocument = resultOf<{ id: string; kind: string; sha256: string; sizeBytes: number }>(
      download,
    );
    expect(signedDocument.kind).toBe("signed");
    const resource = download.content.find((c) => c.type === "resource") as {
      resource: { uri: string; mimeType: string; blob: string };
    };
    expect(resource.resource.mimeType).toBe("application/pdf");
    expect(new URL(resource.resource.uri).pathname).toBe(`/api/v1/documents/${signedDocument.id}/download`);
    const sealed = Buffer.from(resource.resource.blob, "base64");
    expect(sealed.length).toBe(signedDocument.sizeBytes);
    expect(createHash("sha256").update(sealed).digest("hex")).toBe(signedDocument.sha256);
    expect(sealed.subarray(0, 5).toString()).toBe("%PDF-");
    expect(sealed.toString("latin1")).toContain("/ByteRange");

    const trail = resultOf<{
      items: { action: string; actor: { type: string; id: string | null } }[];
      verified: boolean;
    }>(await tool("get_audit_trail", { requestId: created.id }));
    expectDocumented("GET", "/api/v1/signature-requests/{requestId}/audit-trail", 200, trail);
    expect(trail.verified).toBe(true);
    expect(trail.items[0]).toMatchObject({ action: "created", actor: { type: "api_key", id: key.id } });
    expect(trail.items.map((e) => e.action)).toEqual(expect.arrayContaining(["sent", "signed", "completed"]));

    // E-mailed signers: remind, correct an address, resend, cancel.
    const mailed = resultOf<RequestJson>(
      await tool("create_signature_request", {
        title: "Mailed by tools",
        templateId,
        send: true,
        recipients: [
          { name: "Eve Client", email: "eve@example.com", role: "Client" },
          { name: "Fay Company", email: "fay@example.com", role: "Company" },
        ],
      }),
    );
    expect(mailed.status).toBe("sent");
    const [eve, fay] = mailed.recipients as [RequestJson["recipients"][0], RequestJson["recipients"][0]];
    const reminded = resultOf<{ recipientId: string; remindedAt: string }>(
      await tool("remind_recipient", { recipientId: eve.id, message: "Friendly nudge" }),
    );
    expectDocumented("POST", "/api/v1/recipients/{recipientId}/reminders", 202, reminded);
    expect(errorOf(await tool("remind_recipient", { recipientId: eve.id }))).toMatchObject({
      code: "rate_limited",
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
    expect(errorOf(await tool("remind_recipient", { recipientId: fay.id })).code).toBe("invalid_state");
    const updated = resultOf<RequestJson>(
      await tool("update_recipients", {
        requestId: mailed.id,
        recipients: [{ id: eve.id, email: "eve.new@example.com", locale: "ja" }],
      }),
    );
    expect(updated.recipients.find((r) => r.id === eve.id)).toMatchObject({
      email: "eve.new@example.com",
      locale: "ja",
    });
    expect(
      resultOf<RequestJson>(await tool("resend_signature_request", { requestId: mailed.id })).status,
    ).toBe("sent");

    const set = resultOf<{ id: string; status: string; requestIds: string[] }>(
      await tool("create_agreement_set", { name: "Both", requestIds: [created.id, mailed.id] }),
    );
    expectDocumented("POST", "/api/v1/agreement-sets", 201, set);
    expect(set.status).toBe("in_progress");
    const cancelled = resultOf<RequestJson>(
      await tool("cancel_signature_request", { requestId: mailed.id, reason: "Wrong party" }),
    );
    expect(cancelled.status).toBe("cancelled");
    const ended = resultOf<{ status: string }>(await tool("get_agreement_set", { agreementSetId: set.id }));
    expect(ended.status).toBe("incomplete");

    const listed = resultOf<{ items: RequestJson[] }>(
      await tool("list_signature_requests", { status: "cancelled", pageSize: 10 }),
    );
    expect(listed.items.map((r) => r.id)).toEqual([mailed.id]);

    const endpoint = await call(gateway, "/api/v1/webhook-endpoints", {
      key: key.secret,
      method: "POST",
      json: { url: "https://hooks.example.com/countersign", eventTypes: ["signature_request.sent"] },
    });
    expect(endpoint.status).toBe(201);
    const endpointId = (endpoint.body as { id: string }).id;
    const endpoints = resultOf<{ items: { id: string; secret?: string }[] }>(
      await tool("list_webhook_endpoints"),
    );
    expect(endpoints.items.map((e) => e.id)).toEqual([endpointId]);
    expect(JSON.stringify(endpoints)).not.toContain((endpoint.body as { secret: string }).secret);
    await tool("send_signature_request", {
      requestId: resultOf<RequestJson>(
        await tool("create_signature_request", {
          title: "Hooked",
          templateId,
          recipients: [
            { name: "Gus Client", email: "gus@example.com", role: "Client" },
            { name: "Hal Company", email: "hal@example.com", role: "Company" },
          ],
        }),
      ).id,
    });
    const deliveries = await eventually(async () => {
      const page = resultOf<{ items: { eventType: string }[] }>(
        await tool("list_webhook_deliveries", { endpointId }),
      );
      return page.items.length > 0 ? page : undefined;
    }, 15_000);
    expectDocumented("GET", "/api/v1/webhook-endpoints/{endpointId}/messages", 200, deliveries);
    expect(deliveries.items[0]?.eventType).toBe("signature_request.sent");
  }, 120_000);

  test("fields of every type: the tool says what each accepts, a request made with them answers them back, and a broken rule is a tool error naming it", async () => {
    const client = await connect(key.secret);
    const tool = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const { tools } = await client.listTools();
    const schema = JSON.stringify(tools.find((t) => t.name === "create_signature_request")?.inputSchema);
    for (const type of ["date", "number", "dropdown", "radio", "attachment"])
      expect(schema).toContain(`"${type}"`);
    for (const rule of ["options", "minimum", "maximum", "group", "option", "condition"])
      expect(schema).toContain(`"${rule}"`);

    const uploaded = resultOf<{ id: string }>(
      await tool("upload_document", {
        filename: "order.pdf",
        contentBase64: Buffer.from(await makePdf(1, "Order")).toString("base64"),
      }),
    );
    const on = { role: "Client", page: 1, width: 100, height: 20 };
    const fields = [
      { ...on, type: "signature", x: 60, y: 500 },
      { ...on, id: "plan", type: "dropdown", x: 60, y: 540, options: ["Basic", "Team"] },
      {
        ...on,
        id: "m",
        type: "radio",
        x: 60,
        y: 580,
        width: 16,
        height: 16,
        group: "Billing",
        option: "Monthly",
      },
      {
        ...on,
        id: "y",
        type: "radio",
        x: 100,
        y: 580,
        width: 16,
        height: 16,
        group: "Billing",
        option: "Yearly",
      },
      { ...on, type: "text", x: 200, y: 580, label: "PO", condition: { fieldId: "m", value: "Yearly" } },
    ];
    const request = {
      title: "Order by an assistant",
      documentIds: [uploaded.id],
      recipients: [{ name: "Ada", email: "ada.fields@example.com", role: "Client" }],
    };
    const created = resultOf<{ fields: Record<string, unknown>[] }>(
      await tool("create_signature_request", { ...request, fields }),
    );
    expect(created.fields.map((f) => f.type)).toEqual(["signature", "dropdown", "radio", "radio", "text"]);
    expect(created.fields[1]).toMatchObject({ options: ["Basic", "Team"] });
    expect(created.fields[4]).toMatchObject({ condition: { fieldId: "m", value: "Yearly" } });
    const broken = errorOf(
      await tool("create_signature_request", {
        ...request,
        fields: fields.map((f, i) => (i === 1 ? { ...f, options: [] } : f)),
      }),
    );
    expect(broken).toMatchObject({
      status: 422,
      errors: [{ path: "fields[1].options", message: "a dropdown needs at least one option" }],
    });
  });

  test("a missing, unknown or deleted key is 401 at the transport, a workspace without API access 403", async () => {
    const initialize = mcpRequest(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    const doomed = await createKey("doomed");
    expect((await post(doomed.secret, initialize)).status).toBe(200);
    expect((await deployment.cli("keys", "delete", doomed.id)).code).toBe(0);
    for (const secret of [undefined, `sk_${"A".repeat(43)}`, doomed.secret]) {
      const refused = await eventually(async () => {
        const reply = await post(secret, initialize);
        return reply.status === 401 ? reply : undefined;
      }, 2000);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="countersign"');
      expect((refused.body as { code: string }).code).toBe("unauthorized");
    }
    await expect(connect(`sk_${"B".repeat(43)}`)).rejects.toThrow(/401/);

    const workspace = JSON.parse(
      (await deployment.cli("workspaces", "create", "--name", "No API")).stdout,
    ) as {
      id: string;
    };
    const locked = await createKey("locked", workspace.id);
    await deployment.cli("workspaces", "update", workspace.id, "--api-access", "off");
    const forbidden = await eventually(async () => {
      const reply = await post(locked.secret, initialize);
      return reply.status === 403 ? reply : undefined;
    }, 2000);
    expect((forbidden.body as { code: string }).code).toBe("forbidden");

    const get = await call(gateway, "/mcp/v1", { key: key.secret });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  test("bad arguments are a tool error with the API's code and one violation per argument", async () => {
    const client = await connect(key.secret);
    const tool = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

    const invalid = errorOf(
      await tool("create_signature_request", {
        templateId,
        recipients: [{ name: "Ada", email: 7, role: "Client" }],
        colour: "blue",
      }),
    );
    expect(invalid).toMatchObject({ code: "validation_failed", status: 422, message: expect.any(String) });
    expect(invalid.errors).toEqual(
      expect.arrayContaining([
        { path: "title", message: "is required" },
        { path: "recipients[0].email", message: "must be a string" },
        { path: "colour", message: "is not a known property" },
      ]),
    );
    const paging = errorOf(
      await tool("list_signature_requests", { pageSize: 500, pageIndex: 1.5, extra: 1 }),
    );
    expect(paging.errors?.map((e) => e.path).sort()).toEqual(["extra", "pageIndex", "pageSize"]);
    const base64 = errorOf(await tool("upload_document", { filename: "a.pdf", contentBase64: "%%%" }));
    expect(base64.errors?.map((e) => e.path)).toEqual(["contentBase64"]);
    // The service's own rules answer the same way: a role the template does not have.
    const service = errorOf(
      await tool("create_signature_request", {
        title: "Wrong role",
        templateId,
        recipients: [{ name: "Ada", email: "ada@example.com", role: "Nobody" }],
      }),
    );
    expect(service.code).toBe("validation_failed");
    expect(service.errors?.length).toBeGreaterThan(0);

    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(
      /delete_everything/,
    );
  });

  test("another workspace's ids are not found, exactly like ids that never existed", async () => {
    const workspace = JSON.parse(
      (await deployment.cli("workspaces", "create", "--name", "Other")).stdout,
    ) as {
      id: string;
    };
    const stranger = await createKey("stranger", workspace.id);
    const theirs = await connect(stranger.secret);
    const theirTemplate = await makeTemplate(stranger.secret);
    const request = resultOf<RequestJson>(
      (await theirs.callTool({
        name: "create_signature_request",
        arguments: {
          title: "Theirs",
          templateId: theirTemplate,
          send: true,
          recipients: [
            { name: "A", email: "a@example.com", role: "Client" },
            { name: "B", email: "b@example.com", role: "Company" },
          ],
        },
      })) as CallToolResult,
    );

    const mine = await connect(key.secret);
    const attempts = (ids: { template: string; request: string; recipient: string; document: string }) =>
      [
        ["get_template", { templateId: ids.template }],
        ["get_signature_request", { requestId: ids.request }],
        ["cancel_signature_request", { requestId: ids.request }],
        ["remind_recipient", { recipientId: ids.recipient }],
        ["update_recipients", { requestId: ids.request, recipients: [{ id: ids.recipient, name: "X" }] }],
        ["get_audit_trail", { requestId: ids.request }],
        ["download_document", { documentId: ids.document }],
        ["get_embedded_signing_url", { requestId: ids.request, recipientId: ids.recipient }],
        [
          "create_signature_request",
          {
            title: "Borrowed",
            templateId: ids.template,
            recipients: [
              { name: "A", email: "a@example.com", role: "Client" },
              { name: "B", email: "b@example.com", role: "Company" },
            ],
          },
        ],
        ["create_agreement_set", { name: "Borrowed", requestIds: [ids.request] }],
      ] as const;
    const theirIds = {
      template: theirTemplate,
      request: request.id,
      recipient: request.recipients[0]?.id as string,
      document: request.documentIds[0] as string,
    };
    const invented = RANDOM_ID;
    const neverExisted = attempts({
      template: invented,
      request: invented,
      recipient: invented,
      document: invented,
    });
    const answer = async ([name, args]: readonly [string, Record<string, unknown>]) => {
      const { code, status, message, errors } = errorOf(
        (await mine.callTool({ name, arguments: args })) as CallToolResult,
      );
      return { name, code, status, message: message.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>"), errors };
    };
    for (const [index, attempt] of attempts(theirIds).entries()) {
      const seen = await answer(attempt);
      expect(["not_found", "validation_failed"]).toContain(seen.code);
      expect(seen).toEqual(await answer(neverExisted[index] as (typeof neverExisted)[number]));
    }
    const still = resultOf<RequestJson>(
      (await theirs.callTool({
        name: "get_signature_request",
        arguments: { requestId: request.id },
      })) as CallToolResult,
    );
    expect(still.status).toBe("sent");
  });

  test("every message of a batch takes a call from the key's rate limit and counts in API Usage; a batch past 20 messages is refused; failures show in Recent Errors", async () => {
    const admin = new ConsoleClient(gateway);
    expect((await admin.logIn(deployment.adminEmail, deployment.adminPassword)).status).toBe(201);
    const base = `/console/api/workspaces/${key.accountId}`;
    type RouteUsage = { method: string; route: string; calls: number; errors: number };
    const usageOf = async (method: string, route: string) => {
      const reply = await admin.call(`${base}/api-usage`);
      expectDocumented("GET", "/console/api/workspaces/{workspaceId}/api-usage", 200, reply.body);
      const routes = (reply.body as { routes: RouteUsage[] }).routes;
      return routes.find((r) => r.method === method && r.route === route) ?? { calls: 0, errors: 0 };
    };
    // Counts before, once the earlier tests' calls have all been reported (two reads agree).
    const settled = async (method: string, route: string) => {
      let last = await usageOf(method, route);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const now = await usageOf(method, route);
        if (now.calls === last.calls) return now;
        last = now;
      }
    };
    const listed = await settled("MCP", "/mcp/v1/tools/list_templates");
    const posted = await settled("POST", "/mcp/v1");

    const busy = await createKey("busy");
    const batch = (size: number, first: number, method = "tools/call") =>
      Array.from({ length: size }, (_, i) =>
        mcpRequest(
          first + i,
          method,
          method === "tools/call" ? { name: "list_templates", arguments: {} } : {},
        ),
      );
    const allowed = await post(busy.secret, batch(20, 1));
    expect(allowed.status).toBe(200);
    expect(allowed.body).toHaveLength(20);
    // A new key's bucket is full (100 calls): the batch took one call for each of its messages.
    expect(Number(allowed.headers.get("ratelimit-remaining"))).toBe(80);
    // Past 20 messages a batch is refused before any of it runs, for the price of one call.
    const oversized = await post(busy.secret, batch(21, 100));
    expect({ status: oversized.status, body: oversized.body }).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.stringContaining("20 messages at most") },
      },
    });
    expect(Number(oversized.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(79);

    // Each of the 20 calls counts once, and the POST that carried them not at all; the refused
    // POST, which ran no tool, counts as one failed call.
    await eventually(async () => {
      const now = await usageOf("MCP", "/mcp/v1/tools/list_templates");
      return now.calls === listed.calls + 20 ? true : undefined;
    });
    expect(await usageOf("POST", "/mcp/v1")).toMatchObject({
      calls: posted.calls + 1,
      errors: posted.errors + 1,
    });

    // Any message is a call: a batch of 20 pings, from a new key's full bucket, takes 20 and counts 20.
    const pings = await settled("MCP", "/mcp/v1/ping");
    const pinging = await createKey("pinging");
    const pinged = await post(pinging.secret, batch(20, 1, "ping"));
    expect(pinged.status).toBe(200);
    expect(Number(pinged.headers.get("ratelimit-remaining"))).toBe(80);
    await eventually(async () =>
      (await usageOf("MCP", "/mcp/v1/ping")).calls === pings.calls + 20 ? true : undefined,
    );

    // Three calls failing in one batch are three entries in Recent Errors, each under its own id.
    const failing = await post(key.secret, [
      mcpRequest(1, "tools/call", { name: "get_signature_request", arguments: { requestId: RANDOM_ID } }),
      mcpRequest(2, "tools/call", { name: "get_template", arguments: { templateId: RANDOM_ID } }),
      mcpRequest(3, "tools/call", { name: "create_signature_request", arguments: {} }),
    ]);
    const errors = (failing.body as { result: CallToolResult }[]).map(({ result }) => errorOf(result));
    expect(errors.map((e) => e.code)).toEqual(["not_found", "not_found", "validation_failed"]);
    expect(new Set(errors.map((e) => e.requestId)).size).toBe(3);
    const recent = await eventually(async () => {
      const reply = await admin.call(`${base}/recent-errors`);
      const items = (reply.body as { items: { requestId: string; method: string; path: string }[] }).items;
      const found = errors.map((e) => items.find((item) => item.requestId === e.requestId));
      return found.every(Boolean) ? found : undefined;
    });
    expect(recent).toMatchObject([
      { method: "MCP", path: "/mcp/v1/tools/get_signature_request", status: 404, code: "not_found" },
      { method: "MCP", path: "/mcp/v1/tools/get_template", status: 404, code: "not_found" },
      {
        method: "MCP",
        path: "/mcp/v1/tools/create_signature_request",
        status: 422,
        code: "validation_failed",
      },
    ]);
  });

  test("one key's batches, 32 posts at once, hold no one else up: /healthz is not held for seconds, and they are refused, queued or answered", async () => {
    const hostile = await createKey("hostile");
    const lists = (size: number) =>
      Array.from({ length: size }, (_, i) => mcpRequest(i + 1, "tools/list", {}));
    const { result, longestMs, failures, longest } = await watched(`${gateway}/healthz`, async () => {
      const statuses: number[] = [];
      // A batch of 100 tools/list answered 18 MB for one call of the rate limit; 32 of them at once
      // held pings for 26 s. Then batches a bound admits, as many at once.
      for (const size of [100, 20]) {
        const replies = await Promise.all(
          Array.from({ length: 32 }, () => post(hostile.secret, lists(size))),
        );
        statuses.push(...replies.map((reply) => reply.status));
      }
      return statuses;
    });
    // A failure names the probe that waited: how long the gateway's main thread ran meanwhile, and
    // how long it queued for a processor (which a busy machine adds, and the watch leaves out). Two
    // seconds: the gateway's thread runs about 0.3 s (standalone) and 0.6 s (distributed) for the
    // answered batches while a probe waits, 1.1 s with another suite running beside it; the stall this
    // guards against held pings for 26 s.
    expect({ failures, stalled: longestMs > 2000 && longest }).toEqual({ failures: 0, stalled: false });
    // The batches of 100 are refused whole (or, past the key's posts in flight, before they are
    // read); those of 20 are answered until the key's posts in flight and its rate limit (a call per
    // message, refilled as the test runs) refuse the rest.
    expect(result.slice(0, 32).filter((status) => status !== 400 && status !== 429)).toEqual([]);
    expect(result.slice(32).filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(result.slice(32)).toContain(200);
    expect(result.slice(32)).toContain(429);
  });

  test("bodies: only one upload_document call may pass the JSON limit, and a file past 25 MiB is a tool error", async () => {
    const client = await connect(key.secret);
    const tooLarge = errorOf(
      (await client.callTool({
        name: "upload_document",
        arguments: {
          filename: "big.pdf",
          contentBase64: Buffer.alloc(25 * 1024 * 1024 + 1).toString("base64"),
        },
      })) as CallToolResult,
    );
    expect(tooLarge).toMatchObject({ code: "payload_too_large", status: 413 });

    const bulky = await post(
      key.secret,
      mcpRequest(1, "tools/call", {
        name: "create_signature_request",
        arguments: { title: "x".repeat(2 * 1024 * 1024), templateId, recipients: [] },
      }),
    );
    expect(bulky.status).toBe(413);
    expect((bulky.body as { code: string }).code).toBe("payload_too_large");

    for (const method of ["GET", "DELETE", "PUT"]) {
      const reply = await call(gateway, "/mcp/v1", { key: key.secret, method });
      expect({ method, status: reply.status, allow: reply.headers.get("allow") }).toEqual({
        method,
        status: 405,
        allow: "POST",
      });
    }
  });

  test("an empty batch, and a batch holding anything but JSON-RPC messages, is one invalid-request error, never 202", async () => {
    const empty = await post(key.secret, []);
    expect({ status: empty.status, body: empty.body }).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
      },
    });
    // The SDK refuses a batch with any entry that is no JSON-RPC message as a whole, running none of it.
    for (const batch of [[1], [null, "x"], [{}], [mcpRequest(1, "tools/list", {}), 1]]) {
      const reply = await post(key.secret, batch);
      expect({ batch, status: reply.status, body: reply.body }).toEqual({
        batch,
        status: 400,
        body: { jsonrpc: "2.0", id: null, error: { code: expect.any(Number), message: expect.any(String) } },
      });
    }
  });

  test("a write tool's idempotency key: a retry answers the first result, marked replayed, and does nothing again; other arguments under it are refused", async () => {
    const client = await connect(key.secret);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const takesKey = "idempotencyKey" in (tool.inputSchema.properties ?? {});
      expect({ tool: tool.name, takesKey }).toEqual({
        tool: tool.name,
        takesKey: !tool.annotations?.readOnlyHint,
      });
    }
    const title = `Once ${Date.now()}`;
    const args = {
      title,
      templateId,
      recipients: [
        { name: "Ada", email: "ada@example.com", role: "Client" },
        { name: "Bob", email: "bob@example.com", role: "Company" },
      ],
      idempotencyKey: `create-${title}`,
    };
    // Two at once: the second waits for the first and answers what it made.
    const [first, second] = (await Promise.all([
      client.callTool({ name: "create_signature_request", arguments: args }),
      (await connect(key.secret)).callTool({ name: "create_signature_request", arguments: args }),
    ])) as CallToolResult[];
    const made = [first, second].map((result) => resultOf<RequestJson>(result as CallToolResult));
    expect(made[1]?.id).toBe(made[0]?.id);
    expect([first, second].filter((r) => r?._meta?.["countersign/idempotentReplayed"] === true)).toHaveLength(
      1,
    );
    const again = (await client.callTool({
      name: "create_signature_request",
      arguments: args,
    })) as CallToolResult;
    expect(again._meta?.["countersign/idempotentReplayed"]).toBe(true);
    expect(resultOf<RequestJson>(again).id).toBe(made[0]?.id);
    const listed = await call(gateway, `/api/v1/signature-requests?q=${encodeURIComponent(title)}`, {
      key: key.secret,
    });
    expect((listed.body as { totalCount: number }).totalCount).toBe(1);

    const otherArguments = (await client.callTool({
      name: "create_signature_request",
      arguments: { ...args, title: `${title} (changed)` },
    })) as CallToolResult;
    expect(errorOf(otherArguments)).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "idempotencyKey", message: "was used for a different request in the last 24 hours" }],
    });
    const badKey = (await client.callTool({
      name: "create_agreement_set",
      arguments: { requestIds: [made[0]?.id], idempotencyKey: "" },
    })) as CallToolResult;
    expect(errorOf(badKey).errors).toEqual([
      { path: "idempotencyKey", message: "must be 1 to 255 printable ASCII characters" },
    ]);
    // A failed call's result is kept too: the same refusal again, replayed, without running.
    const refusal = { requestId: RANDOM_ID, idempotencyKey: `cancel-${title}` };
    const cancelled = (await client.callTool({
      name: "cancel_signature_request",
      arguments: refusal,
    })) as CallToolResult;
    expect(errorOf(cancelled).code).toBe("not_found");
    const cancelledAgain = (await client.callTool({
      name: "cancel_signature_request",
      arguments: refusal,
    })) as CallToolResult;
    expect(errorOf(cancelledAgain).code).toBe("not_found");
    expect(cancelledAgain._meta?.["countersign/idempotentReplayed"]).toBe(true);
  });

  test("dryRun on every write tool answers what the call would answer, checked the same way, and changes nothing: no document, request, link, e-mail or audit entry", async () => {
    const client = await connect(key.secret);
    const tool = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const dry = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = await tool(name, { ...args, dryRun: true });
      expect({ name, dryRun: result._meta?.["countersign/dryRun"] }).toEqual({ name, dryRun: true });
      expect(JSON.stringify(result.content)).toContain("nothing was created, changed, sent or e-mailed");
      return resultOf<T>(result);
    };
    const { tools } = await client.listTools();
    const writeTools = tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
    for (const name of writeTools) {
      expect({
        name,
        dryRun: tools.find((t) => t.name === name)?.inputSchema.properties?.dryRun,
      }).toEqual({
        name,
        dryRun: expect.objectContaining({ type: "boolean" }),
      });
    }
    const api = (path: string) => call(gateway, `/api/v1${path}`, { key: key.secret });
    const trailOf = async (id: string) =>
      (
        (await api(`/signature-requests/${id}/audit-trail`)).body as { items: { action: string }[] }
      ).items.map((e) => e.action);
    const exercised = new Set<string>();
    const note = (name: string) => exercised.add(name);

    // An upload: read, inspected and answered, never stored.
    const pdf = Buffer.from(await makePdf(1, "Dry run"));
    const documentsBefore = ((await api("/documents")).body as { totalCount: number }).totalCount;
    const wouldUpload = await dry<{ id: string; pageCount: number; sha256: string }>("upload_document", {
      filename: "dry.pdf",
      contentBase64: pdf.toString("base64"),
    });
    note("upload_document");
    expect(wouldUpload.pageCount).toBe(1);
    expect((await api(`/documents/${wouldUpload.id}`)).status).toBe(404);
    expect(((await api("/documents")).body as { totalCount: number }).totalCount).toBe(documentsBefore);
    const notPdf = await tool("upload_document", {
      filename: "x.pdf",
      contentBase64: Buffer.from("plain text").toString("base64"),
      dryRun: true,
    });
    expect(errorOf(notPdf).code).toBe("unsupported_media_type");

    // A request created and sent at once, as it would be: sent, yet nothing exists.
    const recipients = [
      { name: "Ada", email: "ada@example.com", role: "Client" },
      // In the first routing group too, so that it is his turn to sign embedded.
      { name: "Bob", email: "bob@example.com", role: "Company", clientUserId: "bob-1", routingOrder: 1 },
    ];
    const requestsBefore = ((await api("/signature-requests")).body as { totalCount: number }).totalCount;
    const wouldCreate = await dry<RequestJson>("create_signature_request", {
      title: "Dry",
      templateId,
      recipients,
      send: true,
    });
    note("create_signature_request");
    expect(wouldCreate.status).toBe("sent");
    expect((await api(`/signature-requests/${wouldCreate.id}`)).status).toBe(404);
    expect(((await api("/signature-requests")).body as { totalCount: number }).totalCount).toBe(
      requestsBefore,
    );
    const broken = await tool("create_signature_request", {
      title: "Dry",
      templateId,
      recipients: [],
      dryRun: true,
    });
    expect(errorOf(broken).code).toBe("validation_failed");

    // Each change to a real request, dry: answered as it would be, the request as it was.
    const draft = resultOf<RequestJson>(
      await tool("create_signature_request", { title: "Dry target", templateId, recipients }),
    );
    const wouldSend = await dry<RequestJson>("send_signature_request", { requestId: draft.id });
    note("send_signature_request");
    expect(wouldSend.status).toBe("sent");
    expect(((await api(`/signature-requests/${draft.id}`)).body as RequestJson).status).toBe("draft");
    const trail = await trailOf(draft.id);
    expect(trail).toEqual(["created"]);
    // A view checked, not made: no URL anyone could open.
    const wouldView = await dry<{ url: string | null }>("create_sender_view", { requestId: draft.id });
    note("create_sender_view");
    expect(wouldView.url).toBeNull();
    const wouldEdit = await dry<{ url: string | null }>("create_template_edit_view", { templateId });
    note("create_template_edit_view");
    expect(wouldEdit.url).toBeNull();
    const sent = resultOf<RequestJson>(await tool("send_signature_request", { requestId: draft.id }));
    const trailSent = await trailOf(draft.id);
    const ada = sent.recipients.find((r) => r.email === "ada@example.com") as RequestJson["recipients"][0];
    const bob = sent.recipients.find((r) => r.email === "bob@example.com") as RequestJson["recipients"][0];

    expect((await dry<RequestJson>("resend_signature_request", { requestId: draft.id })).status).toBe("sent");
    note("resend_signature_request");
    await dry("remind_recipient", { recipientId: ada.id, message: "only a dry run" });
    note("remind_recipient");
    const changed = await dry<RequestJson>("update_recipients", {
      requestId: draft.id,
      recipients: [{ id: ada.id, email: "ada.new@example.com" }],
    });
    note("update_recipients");
    expect(changed.recipients.map((r) => r.email)).toContain("ada.new@example.com");
    const wouldOpen = await dry<{ url: string | null; expiresAt: string }>("get_embedded_signing_url", {
      requestId: draft.id,
      recipientId: bob.id,
      returnUrl: "https://app.example.com/done",
    });
    note("get_embedded_signing_url");
    // No link was made, so none is answered: nothing an assistant could hand to anyone.
    expect(wouldOpen.url).toBeNull();
    expect(Date.parse(wouldOpen.expiresAt)).toBeGreaterThan(Date.now());
    expect((await dry<RequestJson>("cancel_signature_request", { requestId: draft.id })).status).toBe(
      "cancelled",
    );
    note("cancel_signature_request");
    const wouldGroup = await dry<{ id: string }>("create_agreement_set", {
      name: "Dry set",
      requestIds: [draft.id],
    });
    note("create_agreement_set");
    expect((await api(`/agreement-sets/${wouldGroup.id}`)).status).toBe(404);

    const after = (await api(`/signature-requests/${draft.id}`)).body as RequestJson;
    expect(after.status).toBe("sent");
    expect(after.recipients.map((r) => r.email)).toEqual(["ada@example.com", "bob@example.com"]);
    expect(await trailOf(draft.id)).toEqual(trailSent);
    // The dry reminder left no mark: a real one goes out now, not "reminded too recently".
    expect((await tool("remind_recipient", { recipientId: ada.id })).isError ?? false).toBe(false);
    // A dry run of what the request's state refuses is refused the same way.
    const sendAgain = await tool("send_signature_request", { requestId: draft.id, dryRun: true });
    expect(errorOf(sendAgain)).toMatchObject({ code: "invalid_state", status: 409 });
    expect([...exercised].sort()).toEqual([...writeTools].sort());
  });

  test("hostile messages and arguments to every tool never answer 5xx, nor a tool error of ours", async () => {
    const client = await connect(key.secret);
    const { tools } = await client.listTools();
    const fuzzer = await createKey("fuzzer");
    /** A POST that waits out the rate limit rather than count its 429s as answers. */
    const send = async (body: unknown) => {
      for (;;) {
        const reply = await post(fuzzer.secret, body);
        if (reply.status !== 429) return reply;
        await new Promise((resolve) => setTimeout(resolve, Number(reply.headers.get("retry-after")) * 1000));
      }
    };
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(templateId, RANDOM_ID, "", "\u0000", "../../etc"),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.integer(),
      fc.double(),
    );
    let id = 0;
    for (const tool of tools) {
      const names = Object.keys(tool.inputSchema.properties ?? {});
      const args = fc.dictionary(fc.oneof(fc.constantFrom(...names, "extra"), fc.string()), value, {
        maxKeys: 6,
      });
      await fc.assert(
        fc.asyncProperty(args, async (generated) => {
          const reply = await send(mcpRequest(++id, "tools/call", { name: tool.name, arguments: generated }));
          expect({ tool: tool.name, status: reply.status }).toEqual({ tool: tool.name, status: 200 });
          const { result } = reply.body as { result?: CallToolResult };
          if (result?.isError) expect(errorOf(result).status).toBeLessThan(500);
        }),
        { numRuns: 25, seed: 13 },
      );
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({
            jsonrpc: fc.constant("2.0"),
            id: fc.jsonValue(),
            method: fc.string(),
            params: fc.jsonValue(),
          }),
          fc.record({
            jsonrpc: fc.constant("2.0"),
            id: fc.nat(),
            method: fc.constant("tools/call"),
            params: fc.jsonValue(),
          }),
        ),
        async (body) => {
          expect((await send(body)).status).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 13 },
    );
    expect(faultsIn(deployment.output())).toEqual([]);
  }, 120_000);
});
