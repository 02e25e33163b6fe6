/**
 * A person's approval before an agent sends, end to end in both modes: an agent's API key
 * (requests:propose) drives the official MCP SDK client — the tools say what will happen, and what it
 * would send waits, awaiting approval, with nothing sent to anyone; no key can approve; an
 * Organization Admin or the member the workspace names approves (then it is sent, in their name) or
 * rejects it (then it is cancelled), and everyone else is refused; each step is in the audit trail
 * with the key's name and the approver. In the standalone mode, the console in Chromium: the
 * approval card, screenshots at desktop and phone width, and an approval by click.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { launchChromium, STICKING_OUT } from "./support/browser.js";
import { type Deployment, REPO, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

const ARTIFACTS = join(REPO, "test", "artifacts");
const AGENT_SCOPES = "templates:read,requests:read,requests:write,requests:propose";
const MEMBER = { email: "approver@example.com", password: "approver-password-1" };
const OTHER = { email: "bystander@example.com", password: "bystander-password-1" };

interface KeyJson {
  id: string;
  secret: string;
  accountId: string;
}

interface RequestJson {
  id: string;
  status: string;
  cancelReason: string | null;
  sender: { name: string; email: string | null };
  recipients: { id: string; email: string; status: string }[];
  proposal: {
    proposedBy: string;
    decision: string;
    decidedBy: string | null;
    reason: string | null;
  } | null;
}

interface AuditJson {
  items: { action: string; actor: { type: string; name?: string; email?: string } }[];
}

describe.each(modes)("%s mode: an agent proposes, a person approves", (mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let agent: KeyJson;
  let full: KeyJson;
  let templateId: string;
  let mcp: Client;
  let admin: ConsoleClient;
  let approver: ConsoleClient;
  let bystander: ConsoleClient;
  let approverUserId: string;

  const cli = async (...args: string[]) => {
    const made = await deployment.cli(...args);
    if (made.code !== 0) throw new Error(`cli ${args.join(" ")}: ${made.stderr}`);
    return JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
  };
  const tool = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const resultOf = <T>(result: CallToolResult): T => {
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent as T;
  };
  const api = (path: string, key = full.secret) => call(gateway, `/api/v1${path}`, { key });
  const inConsole = (as: ConsoleClient, path: string, json?: unknown) =>
    as.call(
      `/console/api/workspaces/${full.accountId}${path}`,
      json === undefined ? {} : { method: "POST", json },
    );
  const recipients = [
    { name: "Ada Client", email: "ada@example.com", role: "Client" },
    { name: "Bob Company", email: "bob@example.com", role: "Company" },
  ];
  const propose = async (title: string) =>
    resultOf<RequestJson>(
      await tool("create_signature_request", {
        title,
        message: `Please sign ${title}.`,
        templateId,
        recipients,
        send: true,
      }),
    );
  const actionsOf = async (id: string) =>
    ((await api(`/signature-requests/${id}/audit-trail`)).body as AuditJson).items;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    full = (await cli("keys", "create", "--name", "fixtures")) as unknown as KeyJson;
    agent = (await cli(
      "keys",
      "create",
      "--name",
      "Contracts assistant",
      "--scopes",
      AGENT_SCOPES,
    )) as unknown as KeyJson;
    templateId = await createTwoRoleTemplate(`${gateway}/api/v1`, full.secret, "Agent NDA");
    approverUserId = String(
      (
        await cli(
          "members",
          "add",
          "--email",
          MEMBER.email,
          "--role",
          "member",
          "--password",
          MEMBER.password,
        )
      ).userId,
    );
    await cli("members", "add", "--email", OTHER.email, "--role", "member", "--password", OTHER.password);
    admin = new ConsoleClient(gateway);
    approver = new ConsoleClient(gateway);
    bystander = new ConsoleClient(gateway);
    expect((await admin.logIn(deployment.adminEmail, deployment.adminPassword)).status).toBe(201);
    expect((await approver.logIn(MEMBER.email, MEMBER.password)).status).toBe(201);
    expect((await bystander.logIn(OTHER.email, OTHER.password)).status).toBe(201);
    mcp = new Client({ name: "countersign-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway}/mcp/v1`), {
        requestInit: { headers: { authorization: `Bearer ${agent.secret}` } },
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await mcp?.close();
    await deployment?.destroy();
  });

  test("a key cannot both send and propose", async () => {
    const both = await deployment.cli(
      "keys",
      "create",
      "--name",
      "x",
      "--scopes",
      "requests:send,requests:propose",
    );
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain("exclude each other");
  });

  test("the tools tell the assistant that what it sends waits for a person's approval", async () => {
    const { tools } = await mcp.listTools();
    for (const name of ["create_signature_request", "send_signature_request"]) {
      const described = tools.find((t) => t.name === name);
      expect(described?.description).toContain("awaiting_approval");
      expect(described?._meta?.["countersign/proposable"]).toBe(true);
    }
  });

  test("what the agent sends waits, awaiting approval: nothing goes out, and the answer says so", async () => {
    const result = await tool("create_signature_request", {
      title: "Proposed at once",
      templateId,
      recipients,
      send: true,
    });
    const proposed = resultOf<RequestJson>(result);
    expectDocumented("POST", "/api/v1/signature-requests", 201, proposed);
    expect(proposed.status).toBe("awaiting_approval");
    expect(proposed.proposal).toEqual({
      proposedBy: "Contracts assistant",
      proposedAt: expect.any(String),
      decision: "pending",
      decidedBy: null,
      decidedAt: null,
      reason: null,
    });
    expect(proposed.recipients.map((r) => r.status)).toEqual(["pending", "pending"]);
    expect(JSON.stringify(result.content)).toContain("awaits a person's approval");
    expect((await actionsOf(proposed.id)).map((e) => e.action)).toEqual(["created", "proposed"]);
    const links = await deployment.cli("requests", "links", proposed.id);
    expect(links.stdout.trim()).toBe("");

    // A draft the agent sends later waits the same way.
    const draft = resultOf<RequestJson>(
      await tool("create_signature_request", { title: "Draft first", templateId, recipients }),
    );
    expect(draft.status).toBe("draft");
    const sent = resultOf<RequestJson>(await tool("send_signature_request", { requestId: draft.id }));
    expect(sent.status).toBe("awaiting_approval");

    // Nothing that reaches recipients is the agent's to do.
    const resend = await tool("resend_signature_request", { requestId: proposed.id });
    expect(resend.isError).toBe(true);
    expect(JSON.stringify(resend.content)).toContain("insufficient_scope");
    // No key may approve: there is no such route with a key, nor may even a full key send it.
    expect(
      (
        await call(gateway, `/api/v1/signature-requests/${proposed.id}/approve`, {
          key: full.secret,
          method: "POST",
        })
      ).status,
    ).toBe(404);
    const sendAnyway = await call(gateway, `/api/v1/signature-requests/${proposed.id}/send`, {
      key: full.secret,
      method: "POST",
    });
    expect(sendAnyway.status).toBe(409);
  });

  test("only an Organization Admin, or the member the workspace names, may approve", async () => {
    const proposed = await propose("Who may approve");
    const refused = await inConsole(bystander, `/signature-requests/${proposed.id}/approve`, {});
    expect(refused.status).toBe(403);
    expect((await inConsole(approver, "/approval-rights")).body).toEqual({
      mayApprove: false,
      approverUserId: null,
    });
    const notMember = await admin.call(`/console/api/workspaces/${full.accountId}/request-settings`, {
      method: "PUT",
      json: {
        reminderEveryDays: 0,
        expiryWarningDays: 2,
        approverUserId: "0192f5d8-0000-7000-8000-000000000000",
      },
    });
    expect(notMember.status).toBe(422);
    const named = await admin.call(`/console/api/workspaces/${full.accountId}/request-settings`, {
      method: "PUT",
      json: { reminderEveryDays: 0, expiryWarningDays: 2, approverUserId },
    });
    expect(named.status).toBe(200);
    expect((await inConsole(approver, "/approval-rights")).body).toEqual({
      mayApprove: true,
      approverUserId,
    });
    expect((await inConsole(bystander, "/approval-rights")).body).toMatchObject({ mayApprove: false });
    expect((await inConsole(admin, "/approval-rights")).body).toMatchObject({ mayApprove: true });

    const approved = await inConsole(approver, `/signature-requests/${proposed.id}/approve`, {});
    expect(approved.status).toBe(200);
    const after = approved.body as RequestJson;
    expect(after.status).toBe("sent");
    // Sent in the approver's name: the invitations come from them, not from the agent's workspace key.
    expect(after.sender).toEqual({ name: MEMBER.email, email: MEMBER.email });
    expect(after.proposal).toMatchObject({ decision: "approved", decidedBy: MEMBER.email });
    expect(after.recipients[0]?.status).toBe("sent");
    const trail = await actionsOf(proposed.id);
    expect(trail.map((e) => e.action)).toEqual(["created", "proposed", "proposal_approved", "sent"]);
    expect(trail[1]?.actor).toMatchObject({ type: "api_key", name: "Contracts assistant" });
    expect(trail[2]?.actor).toMatchObject({ type: "user", email: MEMBER.email });
    expect(trail[3]?.actor).toMatchObject({ type: "user", email: MEMBER.email });
    // Decided once: a second approval is a conflict.
    expect((await inConsole(admin, `/signature-requests/${proposed.id}/approve`, {})).status).toBe(409);
    const got = resultOf<RequestJson>(await tool("get_signature_request", { requestId: proposed.id }));
    expect(got.proposal?.decision).toBe("approved");
  });

  test("a proposal cancelled or past its expiry before anyone decided says so, and an expired draft cannot be proposed", async () => {
    const proposed = await propose("Withdrawn");
    // The proposing key reads it back without being told again that it awaits approval.
    const read = await tool("get_signature_request", { requestId: proposed.id });
    expect(JSON.stringify(read.content)).not.toContain("awaits a person's approval");
    const cancelled = resultOf<RequestJson>(
      await tool("cancel_signature_request", { requestId: proposed.id }),
    );
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.proposal).toMatchObject({ decision: "cancelled", decidedBy: null });
    expect((await inConsole(admin, `/signature-requests/${proposed.id}/approve`, {})).status).toBe(409);

    const soon = resultOf<RequestJson>(
      await tool("create_signature_request", {
        title: "Expires before it is proposed",
        templateId,
        recipients,
        expiresAt: new Date(Date.now() + 1500).toISOString(),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const late = await tool("send_signature_request", { requestId: soon.id });
    expect(late.isError).toBe(true);
    expect(JSON.stringify(late.content)).toContain("invalid_state");
  });

  test("a rejection cancels the request unsent, saying why, and the agent sees it", async () => {
    const proposed = await propose("Rejected");
    expect(
      (await inConsole(admin, `/signature-requests/${proposed.id}/reject`, { reason: "  " })).status,
    ).toBe(422);
    const rejected = await inConsole(admin, `/signature-requests/${proposed.id}/reject`, {
      reason: "Wrong counterparty",
    });
    expect(rejected.status).toBe(200);
    const after = rejected.body as RequestJson;
    expect(after.status).toBe("cancelled");
    expect(after.cancelReason).toContain("Wrong counterparty");
    expect(after.proposal).toMatchObject({
      decision: "rejected",
      decidedBy: deployment.adminEmail,
      reason: "Wrong counterparty",
    });
    expect((await actionsOf(proposed.id)).map((e) => e.action)).toEqual([
      "created",
      "proposed",
      "proposal_rejected",
    ]);
    const seen = resultOf<RequestJson>(await tool("get_signature_request", { requestId: proposed.id }));
    expect(seen.proposal?.reason).toBe("Wrong counterparty");
  });

  test("the other settings are still saved once the named approver has left the workspace", async () => {
    const settings = `/console/api/workspaces/${full.accountId}/request-settings`;
    const named = { reminderEveryDays: 0, expiryWarningDays: 2, approverUserId };
    expect((await admin.call(settings, { method: "PUT", json: named })).status).toBe(200);
    const removed = await admin.call(`/console/api/workspaces/${full.accountId}/members/${approverUserId}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const saved = await admin.call(settings, { method: "PUT", json: { ...named, reminderEveryDays: 3 } });
    expect(saved.status).toBe(200);
    // Away, they approve nothing: they can no longer open the workspace at all.
    expect((await inConsole(approver, "/approval-rights")).status).toBe(404);
  });

  if (mode !== "standalone") return;

  describe("in the console", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(() => browser?.close());

    /** The console in a new browser context, logged in as the Organization Admin. */
    const adminConsole = async (viewport: { width: number; height: number }) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${gateway}/console/`);
      await page.getByLabel("E-mail").fill(deployment.adminEmail);
      await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByRole("heading", { name: "Signature requests" }).waitFor();
      return { context, page };
    };

    test("the request's page shows what would go to whom, and an approval by click sends it", async () => {
      const proposed = await propose("Console approval");
      for (const [name, viewport] of [
        ["phone", { width: 390, height: 844 }],
        ["desktop", { width: 1280, height: 860 }],
      ] as const) {
        const { context, page } = await adminConsole(viewport);
        // The list says what awaits approval, and shows it on a click.
        await page.getByTestId("awaiting-approval").waitFor();
        await page.screenshot({ path: join(ARTIFACTS, `console-approval-list-${name}.png`) });
        await page.getByTestId("awaiting-approval").getByRole("button", { name: /Show/ }).click();
        await page.getByRole("link", { name: "Console approval" }).click();
        const card = page.getByTestId("proposal");
        await card.getByRole("heading", { name: "Awaiting your approval" }).waitFor();
        expect(await card.textContent()).toContain("Contracts assistant");
        expect(await card.textContent()).toContain("Please sign Console approval.");
        expect(await card.textContent()).toContain("ada@example.com");
        expect(await page.evaluate(STICKING_OUT)).toEqual([]);
        await page.screenshot({ path: join(ARTIFACTS, `console-approval-${name}.png`), fullPage: true });
        if (name === "desktop") {
          await card.getByRole("button", { name: "Approve and send" }).click();
          await page.getByText("Approved and sent.").waitFor();
          await page
            .getByTestId("proposal")
            .filter({ hasText: `approved by ${deployment.adminEmail}` })
            .waitFor();
          await page.screenshot({ path: join(ARTIFACTS, "console-approval-approved.png"), fullPage: true });
        }
        await context.close();
      }
      const after = (await api(`/signature-requests/${proposed.id}`)).body as RequestJson;
      expect(after.status).toBe("sent");
    });

    test("Settings → Requests names the member who approves besides the admins", async () => {
      const { context, page } = await adminConsole({ width: 390, height: 844 });
      await page.goto(`${gateway}/console/w/${full.accountId}/settings/requests`);
      const form = page.getByTestId("approver-settings");
      await form.getByLabel("Also approved by").selectOption({ label: OTHER.email });
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByText("Saved.").waitFor();
      expect(await page.evaluate(STICKING_OUT)).toEqual([]);
      await form.screenshot({ path: join(ARTIFACTS, "console-approver-setting-phone.png") });
      await context.close();
      expect((await inConsole(bystander, "/approval-rights")).body).toMatchObject({ mayApprove: true });
    });
  });
});
