/**
 * Input an attacker would send, in both modes: each class that once stopped the process or answered
 * 500 now answers a 4xx problem with a detail, and the process stays up for everybody else.
 * Truncated and malformed multipart, broken percent-encoding, a Content-Encoding that lies, NUL in
 * strings, upper-case UUIDs, hostile return URLs, requests Node itself refuses; and the repeat of a
 * multipart upload under another boundary replays rather than being refused.
 */
import { readdir } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient, call, eventually, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { makePdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

/** Sends bytes as they are on one connection and returns what came back before it closed. */
function rawExchange(base: string, bytes: Buffer | string, timeoutMs = 10_000): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
    socket.setTimeout(timeoutMs, () => socket.destroy());
  });
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

function problemIn(answer: string): { code: string; detail: string; status: number } {
  expect(answer).toMatch(/content-type: application\/problem\+json/i);
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as {
    code: string;
    detail: string;
    status: number;
  };
}

function expectProblem(reply: Reply, status: number): { code: string; detail: string; errors: unknown[] } {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = reply.body as { code: string; detail: string; errors: unknown[] };
  expect(body.detail).toEqual(expect.any(String));
  return body;
}

function multipart(boundary: string, pdf: Uint8Array, close = true): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(pdf),
    Buffer.from(close ? `\r\n--${boundary}--\r\n` : ""),
  ]);
}

describe.each(modes)("%s mode: hostile input", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let api: string;
  let key: { secret: string; accountId: string };
  let pdf: Uint8Array;

  const alive = async () => expect((await call(gateway, "/healthz")).status).toBe(200);
  const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
    call(api, path, { key: key.secret, method: "POST", json, headers });

  async function uploadedDocument(): Promise<string> {
    const reply = await call(api, "/documents/upload?filename=a.pdf", {
      key: key.secret,
      method: "POST",
      body: pdf,
      headers: { "content-type": "application/pdf" },
    });
    return (reply.body as { id: string }).id;
  }

  /** A sent request to one signer, who signs embedded in an app or (emailed) from an e-mail. */
  async function sentRequest(emailed = false): Promise<{ id: string; recipients: { id: string }[] }> {
    const documentId = await uploadedDocument();
    const template = await post("/templates", {
      name: "NDA",
      documentId,
      roles: [{ name: "Client" }],
      fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 600, width: 150, height: 40 }],
    });
    const created = await post("/signature-requests", {
      title: "NDA",
      templateId: (template.body as { id: string }).id,
      recipients: [
        {
          name: "Ada",
          email: "ada@example.com",
          role: "Client",
          ...(emailed ? {} : { clientUserId: "ada-1" }),
        },
      ],
      send: true,
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; recipients: { id: string }[] };
  }

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    api = `${gateway}/api/v1`;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "hostile")).stdout);
    pdf = await makePdf(1);
  });
  afterAll(() => deployment?.destroy());

  test("a multipart upload that ends before its closing boundary is a 400, and the process lives on", async () => {
    const body = multipart("XX", pdf, false);
    const answer = await rawExchange(
      gateway,
      Buffer.concat([
        Buffer.from(
          `POST /api/v1/documents/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key.secret}\r\n` +
            `Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
        body,
      ]),
    );
    expect(statusOf(answer)).toBe(400);
    expect(problemIn(answer).detail).toMatch(/multipart/);
    await alive();
    expect(deployment.output()).not.toMatch(/Unhandled 'error' event/);
  });

  test("multipart without a boundary, or with garbage, is a 400", async () => {
    const noBoundary = await call(api, "/documents/upload", {
      key: key.secret,
      method: "POST",
      body: "anything",
      headers: { "content-type": "multipart/form-data" },
    });
    expect(expectProblem(noBoundary, 400).detail).toMatch(/boundary/);
    const garbage = await call(api, "/documents/upload", {
      key: key.secret,
      method: "POST",
      body: "--XX\r\nnot a header line\r\n\r\n\r\n",
      headers: { "content-type": "multipart/form-data; boundary=XX" },
    });
    expect([400, 422]).toContain(garbage.status);
    expectProblem(garbage, garbage.status);
    await alive();
  });

  test("a client that hangs up in the middle of an upload does not stop the process or hold the upload open", async () => {
    const { hostname, port } = new URL(gateway);
    const head = (type: string, length: number) =>
      `POST /api/v1/documents/upload?filename=a.pdf HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key.secret}\r\n` +
      `Content-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
    const raw = Buffer.from(pdf);
    const form = multipart("XX", pdf).subarray(0, 200 + pdf.length / 2);
    for (const [type, sent] of [
      ["application/pdf", raw],
      ["multipart/form-data; boundary=XX", form],
    ] as const) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(head(type, sent.length * 4));
          socket.write(sent, () => setTimeout(() => socket.destroy(), 100));
        });
        socket.on("close", () => resolve());
        socket.on("error", () => resolve());
      });
    }
    await alive();
    // Nothing stays open until the call's deadline: the spooled parts are gone within moments.
    if (deployment.mode === "standalone") {
      const spool = join(deployment.dataDir, "spool");
      await eventually(
        async () => ((await readdir(spool).catch(() => [])).length === 0 ? true : undefined),
        5000,
      );
    }
  });

  test("broken percent-encoding in a path is a 400 on API and console routes, with or without a session", async () => {
    expectProblem(await call(api, "/documents/%ff", { key: key.secret }), 400);
    expectProblem(
      await call(api, "/signature-requests/%E0%A4%A/send", { key: key.secret, method: "POST" }),
      400,
    );
    expectProblem(await call(gateway, "/console/api/workspaces/%ff/api-keys"), 400);
    const console = new ConsoleClient(gateway);
    await console.logIn(deployment.adminEmail, deployment.adminPassword);
    expectProblem(await console.call("/console/api/workspaces/%c0/configuration"), 400);
  });

  test("Content-Encoding is honoured on JSON bodies: real gzip is read, a lie is a 400, a bomb a 413", async () => {
    const documentId = await uploadedDocument();
    const template = {
      name: "Zipped",
      documentId,
      roles: [{ name: "Client" }],
      fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 600, width: 150, height: 40 }],
    };
    const zipped = await call(api, "/templates", {
      key: key.secret,
      method: "POST",
      body: gzipSync(JSON.stringify(template)),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(zipped.status).toBe(201);
    for (const encoding of ["gzip", "deflate", "br"]) {
      const lie = await call(api, "/templates", {
        key: key.secret,
        method: "POST",
        body: JSON.stringify(template),
        headers: { "content-type": "application/json", "content-encoding": encoding },
      });
      expect(expectProblem(lie, 400).detail).toMatch(/Content-Encoding/);
    }
    const unknown = await call(api, "/templates", {
      key: key.secret,
      method: "POST",
      body: JSON.stringify(template),
      headers: { "content-type": "application/json", "content-encoding": "compress" },
    });
    expectProblem(unknown, 415);
    // 16 MiB of spaces compress to about 16 KiB: the limit applies to what they expand to.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from("{"), Buffer.alloc(16 * 1024 * 1024, 0x20), Buffer.from("}")]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    const exploded = await call(api, "/templates", {
      key: key.secret,
      method: "POST",
      body: bomb,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expectProblem(exploded, 413);
    const login = await call(gateway, "/console/api/session", {
      method: "POST",
      body: JSON.stringify({ email: "a@example.com", password: "x" }),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expectProblem(login, 400);
    const upload = await call(api, "/documents/upload?filename=a.pdf", {
      key: key.secret,
      method: "POST",
      body: pdf,
      headers: { "content-type": "application/pdf", "content-encoding": "gzip" },
    });
    expectProblem(upload, 415);
    await alive();
  });

  test("a NUL character in any string is a 422 naming its path, never a 500", async () => {
    const request = await sentRequest();
    const documentId = await uploadedDocument();
    const nul = "a\u0000b";
    const cases: [string, string, unknown, string][] = [
      ["POST", "/templates", { name: nul, documentId, roles: [], fields: [] }, "name"],
      ["POST", "/templates", { name: "t", documentId, roles: [{ name: nul }], fields: [] }, "roles[0].name"],
      [
        "POST",
        "/templates",
        {
          name: "t",
          documentId,
          roles: [{ name: "C" }],
          fields: [{ type: "signature", role: "C", page: 1, x: 1, y: 1, width: 9, height: 9, label: nul }],
        },
        "fields[0].label",
      ],
      ["POST", "/signature-requests", { title: nul, templateId: documentId, recipients: [] }, "title"],
      [
        "POST",
        "/signature-requests",
        { title: "t", message: nul, templateId: documentId, recipients: [{ name: nul, email: "a@b.co" }] },
        "message",
      ],
      ["POST", `/signature-requests/${request.id}/cancel`, { reason: nul }, "reason"],
      ["POST", `/recipients/${request.recipients[0]?.id}/reminders`, { message: nul }, "message"],
      [
        "POST",
        "/embedded-signing-url",
        {
          requestId: request.id,
          recipientId: request.recipients[0]?.id,
          returnUrl: `https://x.example/${nul}`,
        },
        "returnUrl",
      ],
      ["POST", "/agreement-sets", { name: nul, requestIds: [request.id] }, "name"],
      [
        "PATCH",
        `/signature-requests/${request.id}/recipients`,
        { recipients: [{ id: nul }] },
        "recipients[0].id",
      ],
    ];
    for (const [method, path, json, errorPath] of cases) {
      const reply = await call(api, path, { key: key.secret, method, json });
      const problem = expectProblem(reply, 422);
      expect(problem.errors).toContainEqual({ path: errorPath, message: expect.stringMatching(/NUL/) });
    }
    const console = new ConsoleClient(gateway);
    await console.logIn(deployment.adminEmail, deployment.adminPassword);
    const keyName = await console.call(`/console/api/workspaces/${key.accountId}/api-keys`, {
      method: "POST",
      json: { name: nul },
    });
    expect(expectProblem(keyName, 422).errors).toEqual([
      { path: "name", message: expect.stringMatching(/NUL/) },
    ]);
    const login = await call(gateway, "/console/api/session", {
      method: "POST",
      json: { email: nul, password: "x" },
    });
    expectProblem(login, 422);
  });

  test("upper-case UUIDs name the same things as lower-case ones, in paths and bodies", async () => {
    const emailed = await sentRequest(true);
    const reminded = await post(
      `/recipients/${String(emailed.recipients[0]?.id).toUpperCase()}/reminders`,
      {},
    );
    expect(reminded.status).toBe(202);
    expect((reminded.body as { recipientId: string }).recipientId).toBe(emailed.recipients[0]?.id);
    const request = await sentRequest();
    const recipientId = String(request.recipients[0]?.id).toUpperCase();
    const fetched = await call(
      `${gateway}/v1/accounts/${key.accountId.toUpperCase()}`,
      `/signature-requests/${request.id.toUpperCase()}`,
      {
        key: key.secret,
      },
    );
    expect(fetched.status).toBe(200);
    const url = await post("/embedded-signing-url", {
      requestId: request.id.toUpperCase(),
      recipientId,
    });
    expect(url.status).toBe(201);
  });

  test("a return URL with CR/LF, a script scheme or plain http to the internet is refused", async () => {
    const request = await sentRequest();
    const recipientId = request.recipients[0]?.id;
    for (const returnUrl of [
      "https://app.example.com/done\r\nLocation: https://evil.example",
      "javascript:alert(1)",
      "http://app.example.com/done",
    ]) {
      const reply = await post("/embedded-signing-url", { requestId: request.id, recipientId, returnUrl });
      expect(expectProblem(reply, 422).errors).toEqual([{ path: "returnUrl", message: expect.any(String) }]);
    }
    const local = await post("/embedded-signing-url", {
      requestId: request.id,
      recipientId,
      returnUrl: "http://localhost:3000/done",
    });
    expect(local.status).toBe(201);
  });

  test("the same multipart upload under another boundary replays; JSON bodies replay in any key order", async () => {
    const send = (boundary: string) =>
      call(api, "/documents/upload", {
        key: key.secret,
        method: "POST",
        body: multipart(boundary, pdf),
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "idempotency-key": `up-${key.accountId}`,
        },
      });
    const first = await send("first-boundary");
    expect(first.status).toBe(201);
    const again = await send("another-boundary-entirely");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body as { id: string }).id).toBe((first.body as { id: string }).id);
    const other = await call(api, "/documents/upload", {
      key: key.secret,
      method: "POST",
      body: multipart("b", await makePdf(2)),
      headers: {
        "content-type": "multipart/form-data; boundary=b",
        "idempotency-key": `up-${key.accountId}`,
      },
    });
    expectProblem(other, 422);

    const documentId = (first.body as { id: string }).id;
    const body = {
      name: "Ordered",
      documentId,
      roles: [{ name: "Client", order: 1 }],
      fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 600, width: 150, height: 40 }],
    };
    const reordered = {
      fields: [{ height: 40, width: 150, y: 600, x: 50, page: 1, role: "Client", type: "signature" }],
      roles: [{ order: 1, name: "Client" }],
      documentId,
      name: "Ordered",
    };
    const once = await post("/templates", body, { "idempotency-key": `tpl-${key.accountId}` });
    const twice = await post("/templates", reordered, { "idempotency-key": `tpl-${key.accountId}` });
    expect(twice.status).toBe(201);
    expect(twice.headers.get("idempotent-replayed")).toBe("true");
    expect((twice.body as { id: string }).id).toBe((once.body as { id: string }).id);
  });

  test("a body that cannot be canonicalized (a lone surrogate, deep nesting) under an Idempotency-Key is a 422", async () => {
    const bodies = ['{"name":"a\\ud800b"}', `{"name":${"[".repeat(50_000)}${"]".repeat(50_000)}}`];
    for (const [i, body] of bodies.entries()) {
      const reply = await call(api, "/templates", {
        key: key.secret,
        method: "POST",
        body,
        headers: { "content-type": "application/json", "idempotency-key": `odd-${i}-${key.accountId}` },
      });
      expectProblem(reply, 422);
    }
    // Nothing was recorded under the lone surrogate's key: a good body with it is simply created.
    const documentId = await uploadedDocument();
    const good = await call(api, "/templates", {
      key: key.secret,
      method: "POST",
      json: {
        name: "After",
        documentId,
        roles: [{ name: "Client" }],
        fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 600, width: 150, height: 40 }],
      },
      headers: { "idempotency-key": `odd-0-${key.accountId}` },
    });
    expect(good.status).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });

  test("requests Node refuses before routing are answered as problems too", async () => {
    const huge = await rawExchange(
      gateway,
      `GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(statusOf(huge)).toBe(431);
    expect(problemIn(huge)).toMatchObject({ status: 431, code: "headers_too_large" });
    const malformed = await rawExchange(gateway, "GET /v1/ping HTTP/1.1\r\nHost x\r\n\r\n");
    expect(statusOf(malformed)).toBe(400);
    expect(problemIn(malformed)).toMatchObject({ status: 400, code: "invalid_request" });
    await alive();
  });

  test("a console API path no route took is a 404 problem however it is spelled, never the app's page", async () => {
    for (const path of [
      "/console/api/nothing",
      "/CONSOLE/API/nothing",
      "/Console/Api/workspaces//api-usage",
    ]) {
      expectProblem(await call(gateway, path), 404);
    }
    expect((await call(gateway, "/console/templates")).headers.get("content-type")).toMatch(/^text\/html/);
  });

  test("a signing link's token never reaches the logs", async () => {
    const token = "tok_secret_do_not_log_8c5b1f";
    await call(gateway, `/sign/${token}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(deployment.output()).not.toContain(token);
    expect(deployment.output()).toContain("/sign/[redacted]");
  });
});
