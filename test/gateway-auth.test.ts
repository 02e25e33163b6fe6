/**
 * The public surface of the foundation, end to end, in both modes: API keys created by the ops CLI
 * and the console, the gateway's authentication, limits and errors, deletion that reaches every
 * replica, Recent Errors and API Usage, and logs that never contain a secret.
 */
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, eventually, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);

afterAll(() => infra?.close());

interface CreatedKey {
  id: string;
  name: string;
  secret: string;
  accountId: string;
  createdAt: string;
}

function expectProblem(reply: Reply, status: number, code: string): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = reply.body as { code: string; status: number; requestId: string };
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.requestId).toBe(reply.headers.get("x-request-id"));
}

/**
 * Calls eight at a time, as a key may have them in the works (more at once would be refused for
 * that, not for the rate), each sent as soon as one is answered, until one is refused 429 or `most`
 * were sent; the answers in the order they came. Sending until refused, not a fixed count: on a busy
 * machine the calls come slower and the bucket refills meanwhile, so a fixed count (160) was all
 * served under CI's load; once the calls outpace the refill the burst runs out, however slowly.
 */
async function eightUntilRefused(most: number, send: () => Promise<Reply>): Promise<Reply[]> {
  const replies: Reply[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < most && !replies.some((r) => r.status === 429)) {
        sent++;
        replies.push(await send());
      }
    }),
  );
  return replies;
}

describe.each(modes)("%s mode", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: CreatedKey;
  /** Every secret this suite handles; none may appear in any log line. */
  const secrets: string[] = [];

  const createKey = async (name: string, workspace?: string): Promise<CreatedKey> => {
    const result = await deployment.cli(
      "keys",
      "create",
      "--name",
      name,
      ...(workspace ? ["--workspace", workspace] : []),
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as CreatedKey;
    secrets.push(created.secret);
    return created;
  };

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    secrets.push(deployment.adminPassword);
    key = await createKey("suite");
  }, 180_000);

  afterAll(() => deployment?.destroy());

  test("GET /v1/ping with a valid key answers ok, with a request id and rate-limit headers", async () => {
    const reply = await call(gateway, "/v1/ping", { key: key.secret });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "ok" });
    expectDocumented("GET", "/v1/ping", 200, reply.body);
    expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.headers.get("ratelimit-limit")).toBe("100");
    expect(Number(reply.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
  });

  test("a missing, malformed or unknown key is 401 unauthorized", async () => {
    const unknown = `sk_${"A".repeat(43)}`;
    const variants: Record<string, string>[] = [
      {},
      { authorization: "Bearer nope" },
      { authorization: `Basic ${key.secret}` },
      { authorization: `Bearer ${unknown}` },
    ];
    for (const headers of variants) {
      const reply = await call(gateway, "/v1/ping", { headers });
      expectProblem(reply, 401, "unauthorized");
      expectDocumented("GET", "/v1/ping", 401, reply.body);
    }
  });

  test("a key that starts with sk_ but is unknown, deleted, cut short or mistyped is told it is not valid, not that its format is wrong, and is never echoed", async () => {
    const deleted = await createKey("to delete");
    expect((await deployment.cli("keys", "delete", deleted.id)).code).toBe(0);
    const mistyped = [
      `sk_${"A".repeat(43)}`,
      deleted.secret,
      key.secret.slice(0, -4),
      `${key.secret.slice(0, 10)}-${key.secret.slice(11)}`,
    ];
    for (const secret of mistyped) {
      const reply = await eventually(async () => {
        const answer = await call(gateway, "/v1/ping", { key: secret });
        return answer.status === 401 ? answer : undefined;
      }, 2000);
      expectProblem(reply, 401, "unauthorized");
      expect((reply.body as { detail: string }).detail).toBe(
        "this API key is not valid: it may have been deleted or mistyped",
      );
      expect(reply.text).not.toContain(secret.slice(3));
    }
    for (const authorization of ["Bearer nope", `Basic ${key.secret}`, `Bearer ${key.secret.slice(3)}`]) {
      const reply = await call(gateway, "/v1/ping", { headers: { authorization } });
      expectProblem(reply, 401, "unauthorized");
      expect((reply.body as { detail: string }).detail).toBe(
        'the Authorization header must be "Bearer " followed by an API key (sk_…) or an embedded view\'s credential (cvt_…)',
      );
      expect(reply.text).not.toContain(key.secret.slice(3));
    }
  });

  test("the account routes show the key's own workspace and hide every other one as 404", async () => {
    const own = await call(gateway, `/v1/accounts/${key.accountId}`, { key: key.secret });
    expect(own.status).toBe(200);
    expectDocumented("GET", "/v1/accounts/{accountId}", 200, own.body);
    expect((own.body as { id: string }).id).toBe(key.accountId);
    const resourceStyle = await call(gateway, "/api/v1/account", { key: key.secret });
    expect(resourceStyle.body).toEqual(own.body);

    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Other")).stdout) as {
      id: string;
    };
    for (const accountId of [other.id, "00000000-0000-7000-8000-000000000000", "not-a-uuid"]) {
      const reply = await call(gateway, `/v1/accounts/${accountId}`, { key: key.secret });
      expectProblem(reply, 404, "not_found");
    }
  });

  test("switching a workspace's API access off answers 403 at once, and on again 200", async () => {
    const workspace = JSON.parse(
      (await deployment.cli("workspaces", "create", "--name", "Switchable")).stdout,
    ) as {
      id: string;
    };
    const switchable = await createKey("switchable", workspace.id);
    expect((await call(gateway, "/v1/ping", { key: switchable.secret })).status).toBe(200);
    expect((await deployment.cli("workspaces", "update", workspace.id, "--api-access", "off")).code).toBe(0);
    const refused = await eventually(async () => {
      const reply = await call(gateway, "/v1/ping", { key: switchable.secret });
      return reply.status === 403 ? reply : undefined;
    }, 2000);
    expectProblem(refused, 403, "forbidden");
    expectDocumented("GET", "/v1/ping", 403, refused.body);
    await deployment.cli("workspaces", "update", workspace.id, "--api-access", "on");
    await eventually(
      async () =>
        (await call(gateway, "/v1/ping", { key: switchable.secret })).status === 200 ? true : undefined,
      2000,
    );
  });

  test("bodies: another type is 415, malformed JSON 400, more than 1 MiB 413 — never a 500", async () => {
    const post = (body: string, type: string) =>
      call(gateway, "/api/v1/anything", {
        key: key.secret,
        method: "POST",
        body,
        headers: { "content-type": type },
      });
    expectProblem(await post("hello", "text/plain"), 415, "unsupported_media_type");
    expectProblem(await post("{not json", "application/json"), 400, "invalid_request");
    expectProblem(
      await post(JSON.stringify({ pad: "x".repeat(1024 * 1024) }), "application/json"),
      413,
      "payload_too_large",
    );
  });

  test("unknown routes are 404 problem+json, with or without a key", async () => {
    expectProblem(await call(gateway, "/api/v1/no-such-thing", { key: key.secret }), 404, "not_found");
    expectProblem(await call(gateway, "/no-such-page"), 404, "not_found");
  });

  test("past the burst, a key gets 429 rate_limited with Retry-After", async () => {
    const busy = await createKey("busy");
    const replies = await eightUntilRefused(1000, () => call(gateway, "/v1/ping", { key: busy.secret }));
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(100);
    const first = limited[0] as Reply;
    expectProblem(first, 429, "rate_limited");
    expectDocumented("GET", "/v1/ping", 429, first.body);
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(first.headers.get("ratelimit-remaining")).toBe("0");
  });

  test("past the burst on /restapi, DocuSign's 429 carries DocuSign's rate-limit headers, the refused calls not counted", async () => {
    const busy = await createKey("busy-docusign");
    // Another account's path: each admitted call is answered at once (USER_LACKS_MEMBERSHIP), so the
    // burst runs out before the bucket refills, however busy the machine (a listing, which asks a
    // service, let 160 calls through under CI's load).
    const path = "/restapi/v2.1/accounts/0190a000-0000-7000-8000-00000000000f/envelopes?from_date=2020-01-01";
    const replies = await eightUntilRefused(1000, () => call(gateway, path, { key: busy.secret }));
    const limited = replies.filter((r) => r.status === 429);
    const served = replies.filter((r) => r.status !== 429).length;
    const first = limited[0] as Reply;
    expect({
      limited: limited.length > 0,
      errorCode: (first.body as { errorCode?: string }).errorCode,
      retryAfter: Number(first.headers.get("retry-after")) >= 1,
      burstRemaining: first.headers.get("x-burstlimit-remaining"),
      // The calls that answered last saw every call served before them counted, and none refused.
      hourUsed: Math.max(
        ...replies.map(
          (r) => Number(r.headers.get("x-ratelimit-limit")) - Number(r.headers.get("x-ratelimit-remaining")),
        ),
      ),
    }).toEqual({
      limited: true,
      errorCode: "HOURLY_APIINVOCATION_LIMIT_EXCEEDED",
      retryAfter: true,
      burstRemaining: "0",
      hourUsed: served,
    });
  });

  test("console: an admin creates a key (secret once), lists it without secret, deletes it — refused everywhere within 1 s", async () => {
    const admin = new ConsoleClient(gateway);
    const login = await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    expect(login.status).toBe(201);
    expectDocumented("POST", "/console/api/session", 201, login.body);
    secrets.push(admin.cookie("cs_session") ?? "no session cookie");
    const workspaceId = key.accountId;

    const created = await admin.call(`/console/api/workspaces/${workspaceId}/api-keys`, {
      method: "POST",
      json: { name: "console" },
    });
    expect(created.status).toBe(201);
    expectDocumented("POST", "/console/api/workspaces/{workspaceId}/api-keys", 201, created.body);
    const consoleKey = created.body as CreatedKey;
    secrets.push(consoleKey.secret);

    const listed = await admin.call(`/console/api/workspaces/${workspaceId}/api-keys`);
    expectDocumented("GET", "/console/api/workspaces/{workspaceId}/api-keys", 200, listed.body);
    expect(listed.text).not.toContain(consoleKey.secret);
    expect((listed.body as { items: { id: string }[] }).items.map((k) => k.id)).toContain(consoleKey.id);

    // Every replica verifies (and caches) the key before it is deleted.
    for (const replica of deployment.gateways)
      expect((await call(replica, "/v1/ping", { key: consoleKey.secret })).status).toBe(200);
    const deleted = await admin.call(`/console/api/workspaces/${workspaceId}/api-keys/${consoleKey.id}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
    const deletedAt = Date.now();
    const other = deployment.gateways[deployment.gateways.length - 1] as string;
    const refused = await eventually(
      async () => {
        const reply = await call(other, "/v1/ping", { key: consoleKey.secret });
        return reply.status === 401 ? reply : undefined;
      },
      1000,
      20,
    );
    expect(Date.now() - deletedAt).toBeLessThanOrEqual(1000);
    expectProblem(refused, 401, "unauthorized");
  });

  test("console refuses: a wrong password 401, no CSRF token 403, a member 403, a workspace one is not in 404", async () => {
    expectProblem(
      await new ConsoleClient(gateway).logIn(deployment.adminEmail, "wrong password!"),
      401,
      "unauthorized",
    );

    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    const noCsrf = await admin.call(`/console/api/workspaces/${key.accountId}/api-keys`, {
      method: "POST",
      json: { name: "x" },
      csrf: false,
    });
    expectProblem(noCsrf, 403, "forbidden");

    const memberPassword = "member-password-123";
    secrets.push(memberPassword);
    expect(
      (
        await deployment.cli(
          "members",
          "add",
          "--email",
          "member@example.com",
          "--role",
          "member",
          "--password",
          memberPassword,
        )
      ).code,
    ).toBe(0);
    const member = new ConsoleClient(gateway);
    expect((await member.logIn("member@example.com", memberPassword)).status).toBe(201);
    secrets.push(member.cookie("cs_session") ?? "no session cookie");
    expectProblem(await member.call(`/console/api/workspaces/${key.accountId}/api-keys`), 403, "forbidden");
    expectProblem(
      await admin.call("/console/api/workspaces/00000000-0000-7000-8000-000000000000/api-keys"),
      404,
      "not_found",
    );
  });

  test("console CSRF: a cs_csrf cookie planted beside a victim's session and echoed in X-CSRF-Token is refused 403", async () => {
    const victim = new ConsoleClient(gateway);
    await victim.logIn(deployment.adminEmail, deployment.adminPassword);
    const session = encodeURIComponent(victim.cookie("cs_session") ?? "");
    const planted = await call(gateway, `/console/api/workspaces/${key.accountId}/api-keys`, {
      method: "POST",
      json: { name: "planted" },
      headers: { cookie: `cs_session=${session}; cs_csrf=planted`, "x-csrf-token": "planted" },
    });
    expectProblem(planted, 403, "forbidden");
    expect((planted.body as { detail: string }).detail).toMatch(/X-CSRF-Token/);
  });

  test("console CSRF: the token in the log-in answer (and in GET /session) works for its own session; another user's is refused 403", async () => {
    const otherPassword = "csrf-other-123";
    secrets.push(otherPassword);
    const added = await deployment.cli(
      "members",
      "add",
      "--email",
      "csrf-other@example.com",
      "--role",
      "member",
      "--password",
      otherPassword,
    );
    expect(added.code).toBe(0);
    const other = new ConsoleClient(gateway);
    expect((await other.logIn("csrf-other@example.com", otherPassword)).status).toBe(201);
    const admin = new ConsoleClient(gateway);
    expect((await admin.logIn(deployment.adminEmail, deployment.adminPassword)).status).toBe(201);
    secrets.push(other.csrfToken, admin.csrfToken);
    expect(admin.csrfToken).not.toBe(other.csrfToken);

    const current = await admin.call("/console/api/session");
    expectDocumented("GET", "/console/api/session", 200, current.body);
    expect((current.body as { csrfToken: string }).csrfToken).toBe(admin.csrfToken);

    const keys = `/console/api/workspaces/${key.accountId}/api-keys`;
    const othersToken = await admin.call(keys, {
      method: "POST",
      json: { name: "another user's token" },
      headers: { "x-csrf-token": other.csrfToken },
      csrf: false,
    });
    expectProblem(othersToken, 403, "forbidden");
    expect((othersToken.body as { detail: string }).detail).toMatch(/X-CSRF-Token/);

    const created = await admin.call(keys, { method: "POST", json: { name: "own token" } });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as CreatedKey;
    secrets.push(secret);
    expect((await admin.call(`${keys}/${id}`, { method: "DELETE" })).status).toBe(204);
  });

  test("console family: by session a member works with the workspace's documents, templates and requests (CSRF to change anything), webhooks stay admin-only, the audit trail names the user, and API Usage leaves the calls out", async () => {
    const memberPassword = "family-member-123";
    secrets.push(memberPassword);
    const added = await deployment.cli(
      "members",
      "add",
      "--email",
      "family@example.com",
      "--role",
      "member",
      "--password",
      memberPassword,
    );
    const userId = (JSON.parse(added.stdout) as { userId: string }).userId;
    const member = new ConsoleClient(gateway);
    await member.logIn("family@example.com", memberPassword);
    const base = `/console/api/workspaces/${key.accountId}`;

    const upload = await member.call(`${base}/documents/upload?filename=family.pdf`, {
      method: "POST",
      body: await makePdf(1, "Family"),
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.status).toBe(201);
    expectDocumented("POST", "/console/api/workspaces/{workspaceId}/documents/upload", 201, upload.body);
    const documentId = (upload.body as { id: string }).id;
    const template = {
      name: "Family template",
      documentId,
      roles: [{ name: "Signer" }],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 600, width: 180, height: 40 }],
    };
    const noCsrf = await member.call(`${base}/templates`, { method: "POST", json: template, csrf: false });
    expectProblem(noCsrf, 403, "forbidden");
    const created = await member.call(`${base}/templates`, { method: "POST", json: template });
    expect(created.status).toBe(201);
    const listed = await member.call(`${base}/templates?pageSize=100`);
    expectDocumented("GET", "/console/api/workspaces/{workspaceId}/templates", 200, listed.body);
    expect((listed.body as { items: { name: string }[] }).items.map((t) => t.name)).toContain(
      "Family template",
    );

    const request = await member.call(`${base}/signature-requests`, {
      method: "POST",
      json: {
        title: "From the console",
        templateId: (created.body as { id: string }).id,
        recipients: [{ role: "Signer", name: "Sam Signer", email: "sam@example.com" }],
        send: true,
      },
    });
    expect(request.status).toBe(201);
    const requestId = (request.body as { id: string }).id;
    const trail = await member.call(`${base}/signature-requests/${requestId}/audit-trail`);
    const actors = (
      trail.body as { items: { action: string; actor: { type: string; id: string } }[] }
    ).items.map((e) => e.actor);
    // A console user has no name but the e-mail they sign in with.
    expect(actors[0]).toEqual({
      type: "user",
      id: userId,
      name: "family@example.com",
      email: "family@example.com",
    });

    expectProblem(await member.call(`${base}/webhook-endpoints`), 403, "forbidden");
    expectProblem(
      await member.call("/console/api/workspaces/00000000-0000-7000-8000-000000000000/templates"),
      404,
      "not_found",
    );
    expectProblem(await new ConsoleClient(gateway).call(`${base}/templates`), 401, "unauthorized");

    expectProblem(
      await member.call(`${base}/embedded-signing-url`, {
        method: "POST",
        json: { requestId, recipientId: "00000000-0000-7000-8000-000000000000" },
      }),
      404,
      "not_found",
    );

    // A key call made after every console call: once API Usage shows it, it would show those too.
    expect(
      (await call(gateway, `/api/v1/signature-requests/${requestId}/audit-trail`, { key: key.secret }))
        .status,
    ).toBe(200);
    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    const usage = await eventually(async () => {
      const reply = await admin.call(`${base}/api-usage`);
      const routes = (reply.body as { routes: { route: string }[] }).routes;
      return routes.some((r) => r.route === "/api/v1/signature-requests/{requestId}/audit-trail")
        ? routes
        : undefined;
    });
    expect(usage.filter((r) => r.route.startsWith("/console"))).toEqual([]);
  });

  test("Recent Errors and API Usage record the calls made with a key", async () => {
    const failed = await call(gateway, "/api/v1/missing-route", { key: key.secret });
    const requestId = failed.headers.get("x-request-id");
    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    secrets.push(admin.cookie("cs_session") ?? "no session cookie");

    const errors = await eventually(async () => {
      const reply = await admin.call(`/console/api/workspaces/${key.accountId}/recent-errors`);
      const items = (reply.body as { items: { requestId: string }[] }).items;
      return items.some((e) => e.requestId === requestId) ? reply : undefined;
    });
    expectDocumented("GET", "/console/api/workspaces/{workspaceId}/recent-errors", 200, errors.body);
    const entry = (errors.body as { items: Record<string, unknown>[] }).items.find(
      (e) => e.requestId === requestId,
    );
    expect(entry).toMatchObject({
      method: "GET",
      path: "/api/v1/missing-route",
      status: 404,
      code: "not_found",
    });

    const usage = await eventually(async () => {
      const reply = await admin.call(`/console/api/workspaces/${key.accountId}/api-usage`);
      const routes = (reply.body as { routes: { method: string; route: string; calls: number }[] }).routes;
      return routes.some((r) => r.route === "/v1/ping" && r.calls >= 2) ? reply : undefined;
    });
    expectDocumented("GET", "/console/api/workspaces/{workspaceId}/api-usage", 200, usage.body);
    const body = usage.body as {
      total: { calls: number; errors: number; p95Ms: number };
      routes: { route: string; method: string; calls: number; errors: number; p50Ms: number }[];
      days: { day: string }[];
    };
    expect(body.total.errors).toBeGreaterThanOrEqual(1);
    expect(body.total.calls).toBeGreaterThan(body.total.errors);
    expect(body.routes.find((r) => r.route === "/v1/accounts/{accountId}")).toMatchObject({ method: "GET" });
    expect(body.days.map((d) => d.day)).toContain(new Date().toISOString().slice(0, 10));
    expect(body.total.p95Ms).toBeGreaterThan(0);
  });

  test("no log line contains a secret that passed through the deployment", async () => {
    await new Promise((r) => setTimeout(r, 300));
    const logs = deployment.output();
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });
});
