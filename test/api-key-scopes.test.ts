/**
 * API keys with scopes, end to end in both modes: every keyed operation declares the scope it needs
 * in the OpenAPI document and every MCP tool in its listing; a key made with scopes (by the CLI or
 * the console) may do what they name and is refused anything else with a 403 that names the
 * missing scope — on the native API, through MCP (the official SDK client) and on /restapi; an
 * answer kept for an Idempotency-Key is never replayed to a key that may not make the call; and a
 * key made without scopes keeps full access.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { DOCUMENT, expectDocumented } from "./support/openapi.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

const ALL_SCOPES = [
  "templates:read",
  "templates:write",
  "documents:read",
  "documents:write",
  "requests:read",
  "requests:write",
  "requests:send",
  "requests:propose",
  "webhooks:manage",
  "settings:manage",
];
/** A key made without scopes may do everything but propose, which sending makes needless. */
const FULL_ACCESS = ALL_SCOPES.filter((scope) => scope !== "requests:propose");

interface KeyJson {
  id: string;
  secret: string;
  accountId: string;
  scopes: string[];
  fullAccess: boolean;
}

interface Operation {
  security?: Record<string, string[]>[];
  "x-scopes"?: string[];
  "x-conditional-scopes"?: { when: string; scope: string }[];
  "x-proposable"?: boolean;
  description?: string;
  responses: Record<string, unknown>;
}

const keyedOperations = () =>
  Object.entries(DOCUMENT.paths as unknown as Record<string, Record<string, Operation>>).flatMap(
    ([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.some((requirement) => "apiKey" in requirement))
        .map(([method, operation]) => ({ path, method, operation })),
  );

test("every operation a key calls declares its scopes: in x-scopes, in its security requirement and in words, with 403 documented", () => {
  const operations = keyedOperations();
  expect(operations.length).toBeGreaterThan(80);
  for (const { path, method, operation } of operations) {
    const where = `${method.toUpperCase()} ${path}`;
    expect({ where, declared: Array.isArray(operation["x-scopes"]) }).toEqual({ where, declared: true });
    const scopes = operation["x-scopes"] ?? [];
    expect(operation.security).toEqual([{ apiKey: scopes }]);
    for (const scope of scopes) {
      expect(ALL_SCOPES).toContain(scope);
      expect(operation.description).toContain(`\`${scope}\``);
    }
    if (scopes.length === 0) expect(operation.description).toContain("Any valid API key may call it");
    expect({ where, forbidden: "403" in operation.responses }).toEqual({ where, forbidden: true });
  }
  const find = (method: string, path: string) =>
    operations.find((o) => o.method === method && o.path === path)?.operation;
  const scopesOf = (method: string, path: string) => find(method, path)?.["x-scopes"];
  expect(scopesOf("get", "/v1/ping")).toEqual([]);
  expect(scopesOf("post", "/api/v1/templates")).toEqual(["templates:write"]);
  expect(scopesOf("get", "/v1/accounts/{accountId}/templates")).toEqual(["templates:read"]);
  expect(scopesOf("post", "/api/v1/signature-requests/{requestId}/send")).toEqual(["requests:send"]);
  expect(scopesOf("patch", "/api/v1/signature-requests/{requestId}/recipients")).toEqual(["requests:send"]);
  expect(scopesOf("post", "/api/v1/documents/upload")).toEqual(["documents:write"]);
  expect(scopesOf("get", "/api/v1/webhook-endpoints")).toEqual(["webhooks:manage"]);
  expect(scopesOf("put", "/api/v1/request-settings")).toEqual(["settings:manage"]);
  // What carries the documents' bytes needs reading documents too.
  expect(scopesOf("get", "/api/v1/signature-requests/{requestId}/evidence-package")).toEqual([
    "requests:read",
    "documents:read",
  ]);
  // What the body asks for adds its scope, and an agent's key proposes where it would send.
  const create = find("post", "/api/v1/signature-requests");
  expect(create?.["x-scopes"]).toEqual(["requests:write"]);
  expect(create?.["x-conditional-scopes"]).toEqual([
    { when: "`send: true`", scope: "requests:send" },
    { when: "`textTags: true`", scope: "documents:read" },
  ]);
  expect(create?.["x-proposable"]).toBe(true);
  expect(create?.description).toContain("`send: true` also needs `requests:send`");
  expect(find("post", "/api/v1/signature-requests/{requestId}/resend")?.["x-proposable"]).toBeUndefined();
  // A console session is held to its member's role: its operations name no key scope, in words either.
  const consoleCreate = (DOCUMENT.paths as unknown as Record<string, Record<string, Operation>>)[
    "/console/api/workspaces/{workspaceId}/signature-requests"
  ]?.post;
  expect(consoleCreate?.["x-scopes"]).toBeUndefined();
  expect(consoleCreate?.description).not.toContain("scope");
});

describe.each(modes)("%s mode: API key scopes", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let full: KeyJson;
  let reader: KeyJson;
  let templateId: string;
  const clients: Client[] = [];

  const cliKey = async (name: string, ...args: string[]) => {
    const made = await deployment.cli("keys", "create", "--name", name, ...args);
    return { ...made, key: made.code === 0 ? (JSON.parse(made.stdout) as KeyJson) : undefined };
  };

  function expectMissingScope(reply: Reply, scope: string): void {
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", requiredScope: scope });
    expect((reply.body as { detail: string }).detail).toContain(`"${scope}"`);
    expect(reply.headers.get("www-authenticate")).toBe(
      `Bearer realm="countersign", error="insufficient_scope", scope="${scope}"`,
    );
  }

  async function connect(secret: string): Promise<Client> {
    const client = new Client({ name: "countersign-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway}/mcp/v1`), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    full = (await cliKey("full")).key as KeyJson;
    reader = (await cliKey("reader", "--scopes", "templates:read,requests:read")).key as KeyJson;
    templateId = await createTwoRoleTemplate(`${gateway}/api/v1`, full.secret, "Scoped NDA");
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await deployment?.destroy();
  });

  test("the CLI makes a key with the scopes named, and a key without --scopes has full access", async () => {
    expect(reader).toMatchObject({ scopes: ["templates:read", "requests:read"], fullAccess: false });
    expect(full).toMatchObject({ scopes: FULL_ACCESS, fullAccess: true });
    const unknown = await cliKey("typo", "--scopes", "templates:read,template:write");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown scope "template:write"');
    const listed = await deployment.cli("keys", "list");
    const lines = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as KeyJson);
    expect(lines.find((k) => k.id === reader.id)).toMatchObject({ scopes: reader.scopes, fullAccess: false });
  });

  test("a key does what its scopes name, on both families, and is refused the rest with a 403 naming the scope", async () => {
    const listed = await call(gateway, "/api/v1/templates", { key: reader.secret });
    expect(listed.status).toBe(200);
    expect((await call(gateway, "/v1/ping", { key: reader.secret })).status).toBe(200);

    const body = { name: "x", documentId: "0192f5d8-0000-7000-8000-000000000000", roles: [], fields: [] };
    const refused = await call(gateway, "/api/v1/templates", {
      key: reader.secret,
      method: "POST",
      json: body,
    });
    expectMissingScope(refused, "templates:write");
    expectDocumented("POST", "/api/v1/templates", 403, refused.body);
    const accountFamily = await call(gateway, `/v1/accounts/${reader.accountId}/documents`, {
      key: reader.secret,
    });
    expectMissingScope(accountFamily, "documents:read");
    expectMissingScope(
      await call(gateway, "/api/v1/webhook-endpoints", { key: reader.secret }),
      "webhooks:manage",
    );
  });

  test("creating a request needs requests:write, and sending it — at once or later — requests:send as well", async () => {
    const drafter = (await cliKey("drafter", "--scopes", "requests:write,requests:read")).key as KeyJson;
    const request = {
      title: "Scoped",
      templateId,
      recipients: [
        { name: "Ada", email: "ada@example.com", role: "Client" },
        { name: "Bob", email: "bob@example.com", role: "Company" },
      ],
    };
    const sendingAtOnce = await call(gateway, "/api/v1/signature-requests", {
      key: drafter.secret,
      method: "POST",
      json: { ...request, send: true },
    });
    expectMissingScope(sendingAtOnce, "requests:send");
    const draft = await call(gateway, "/api/v1/signature-requests", {
      key: drafter.secret,
      method: "POST",
      json: request,
    });
    expect(draft.status).toBe(201);
    const id = (draft.body as { id: string }).id;
    const send = await call(gateway, `/api/v1/signature-requests/${id}/send`, {
      key: drafter.secret,
      method: "POST",
    });
    expectMissingScope(send, "requests:send");
    const sent = await call(gateway, `/api/v1/signature-requests/${id}/send`, {
      key: full.secret,
      method: "POST",
    });
    expect(sent.status).toBe(200);
  });

  test("what a body asks for is checked before an Idempotency-Key replays: sending needs requests:send whoever sent first", async () => {
    const drafter = (await cliKey("drafter-2", "--scopes", "requests:write")).key as KeyJson;
    const body = {
      title: "Sent by the full key",
      templateId,
      send: true,
      recipients: [
        { name: "Ada", email: "ada@example.com", role: "Client" },
        { name: "Bob", email: "bob@example.com", role: "Company" },
      ],
    };
    const headers = { "idempotency-key": "scoped-send-1" };
    // Refused first: the refusal is not kept, so the full key's call under the same key runs.
    expectMissingScope(
      await call(gateway, "/api/v1/signature-requests", {
        key: drafter.secret,
        method: "POST",
        json: body,
        headers,
      }),
      "requests:send",
    );
    const sent = await call(gateway, "/api/v1/signature-requests", {
      key: full.secret,
      method: "POST",
      json: body,
      headers,
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("idempotent-replayed")).toBeNull();
    // And the full key's answer is not replayed to the key that may not send.
    const again = await call(gateway, "/api/v1/signature-requests", {
      key: drafter.secret,
      method: "POST",
      json: body,
      headers,
    });
    expectMissingScope(again, "requests:send");
  });

  test("the evidence package and a DocuSign envelope's documents carry documents' bytes: they need documents:read", async () => {
    const created = await call(gateway, "/api/v1/signature-requests", {
      key: full.secret,
      method: "POST",
      json: {
        title: "Evidence",
        templateId,
        recipients: [
          { name: "Ada", email: "ada@example.com", role: "Client" },
          { name: "Bob", email: "bob@example.com", role: "Company" },
        ],
      },
    });
    const id = (created.body as { id: string }).id;
    expectMissingScope(
      await call(gateway, `/api/v1/signature-requests/${id}/evidence-package`, { key: reader.secret }),
      "documents:read",
    );
    const both = (await cliKey("evidence", "--scopes", "requests:read,documents:read")).key as KeyJson;
    expect(
      (await call(gateway, `/api/v1/signature-requests/${id}/evidence-package`, { key: both.secret })).status,
    ).toBe(200);
    const envelopeDocument = await call(
      gateway,
      `/restapi/v2.1/accounts/${reader.accountId}/envelopes/${id}/documents/combined`,
      { key: reader.secret },
    );
    expect(envelopeDocument.status).toBe(403);
    expect((envelopeDocument.body as { message: string }).message).toContain('"documents:read"');
  });

  test("an answer kept for an Idempotency-Key is not replayed to a key without the operation's scope", async () => {
    const registration = {
      url: "https://hooks.example.com/scoped",
      eventTypes: ["signature_request.completed"],
    };
    const first = await call(gateway, "/api/v1/webhook-endpoints", {
      key: full.secret,
      method: "POST",
      json: registration,
      headers: { "idempotency-key": "scoped-webhook-1" },
    });
    expect(first.status).toBe(201);
    expect(JSON.stringify(first.body)).toMatch(/whsec_/);
    const replayAttempt = await call(gateway, "/api/v1/webhook-endpoints", {
      key: reader.secret,
      method: "POST",
      json: registration,
      headers: { "idempotency-key": "scoped-webhook-1" },
    });
    expectMissingScope(replayAttempt, "webhooks:manage");
    expect(replayAttempt.headers.get("idempotent-replayed")).toBeNull();
    expect(replayAttempt.text).not.toMatch(/whsec_/);
  });

  test("the console makes and lists keys with scopes, and refuses a scope that does not exist", async () => {
    const admin = new ConsoleClient(gateway);
    expect((await admin.logIn(deployment.adminEmail, deployment.adminPassword)).status).toBe(201);
    const base = `/console/api/workspaces/${full.accountId}/api-keys`;
    const made = await admin.call(base, {
      method: "POST",
      json: { name: "console-scoped", scopes: ["documents:read", "documents:write"] },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ scopes: ["documents:read", "documents:write"], fullAccess: false });
    expectDocumented("POST", "/console/api/workspaces/{workspaceId}/api-keys", 201, made.body);
    const wrong = await admin.call(base, { method: "POST", json: { name: "bad", scopes: ["everything"] } });
    expect(wrong.status).toBe(422);
    expect((wrong.body as { errors: { path: string }[] }).errors[0]?.path).toMatch(/^scopes/);
    const twice = await admin.call(base, {
      method: "POST",
      json: { name: "twice", scopes: ["documents:read", "documents:read"] },
    });
    expect(twice.status).toBe(422);
    const listed = await admin.call(base);
    expectDocumented("GET", "/console/api/workspaces/{workspaceId}/api-keys", 200, listed.body);
    const items = (listed.body as { items: (KeyJson & { name: string })[] }).items;
    expect(items.find((k) => k.name === "console-scoped")).toMatchObject({ fullAccess: false });
    expect(items.find((k) => k.id === full.id)).toMatchObject({ scopes: FULL_ACCESS, fullAccess: true });
  });

  test("MCP lists each tool's scope, and a tool call without it is a tool error naming the scope", async () => {
    const client = await connect(reader.secret);
    const { tools } = await client.listTools();
    const scopesOf = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta?.["countersign/scopes"]]));
    expect(scopesOf).toMatchObject({
      list_templates: ["templates:read"],
      create_signature_request: ["requests:write"],
      send_signature_request: ["requests:send"],
      upload_document: ["documents:write"],
      download_document: ["documents:read"],
      list_webhook_endpoints: ["webhooks:manage"],
    });
    for (const tool of tools) {
      const scopes = tool._meta?.["countersign/scopes"] as string[];
      expect(scopes.length).toBeGreaterThan(0);
      for (const scope of scopes) expect(tool.description).toContain(`\`${scope}\``);
    }
    const create = tools.find((tool) => tool.name === "create_signature_request");
    expect(create?._meta?.["countersign/conditionalScopes"]).toEqual([
      { when: "`send: true`", scope: "requests:send" },
      { when: "`textTags: true`", scope: "documents:read" },
    ]);
    expect(create?._meta?.["countersign/proposable"]).toBe(true);
    const allowed = (await client.callTool({ name: "list_templates", arguments: {} })) as CallToolResult;
    expect(allowed.isError ?? false).toBe(false);
    const refused = (await client.callTool({
      name: "create_signature_request",
      arguments: { title: "x", templateId, recipients: [] },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    const text = refused.content.find((c) => c.type === "text") as { text: string };
    expect(JSON.parse(text.text).error).toMatchObject({
      code: "insufficient_scope",
      status: 403,
      requiredScope: "requests:write",
    });
  });

  test("/restapi holds a key to its scopes too, in DocuSign's error shape", async () => {
    const base = `/restapi/v2.1/accounts/${reader.accountId}`;
    const templates = await call(gateway, `${base}/templates`, { key: reader.secret });
    expect(templates.status).toBe(200);
    const envelope = await call(gateway, `${base}/envelopes`, {
      key: reader.secret,
      method: "POST",
      json: { status: "created", templateId, templateRoles: [] },
    });
    expect(envelope.status).toBe(403);
    expect(envelope.body).toMatchObject({ errorCode: "USER_LACKS_PERMISSIONS" });
    expect((envelope.body as { message: string }).message).toContain('"requests:write"');
  });
});
