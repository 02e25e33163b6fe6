/**
 * Idempotency-Key on the public API's POSTs, in both modes: a retry gets the first answer and
 * creates nothing, a reused key with another request is refused, 50 identical calls at once create
 * one resource, uploads replay only for the same bytes, and keys are per workspace.
 */
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, type Reply } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

describe.each(modes)("%s mode: Idempotency-Key", (_mode, start) => {
  let deployment: Deployment;
  let api: string;
  let key: { secret: string; accountId: string };
  let stranger: { secret: string; accountId: string };
  let documentId: string;

  function template(name: string) {
    return {
      name,
      documentId,
      roles: [{ name: "Signer" }],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 600, width: 150, height: 40 }],
    };
  }

  const post = (path: string, json: unknown, idempotencyKey?: string, secret = key.secret): Promise<Reply> =>
    call(api, path, {
      key: secret,
      method: "POST",
      json,
      headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
    });

  async function templateCount(): Promise<number> {
    return ((await call(api, "/templates?pageSize=1", { key: key.secret })).body as { totalCount: number })
      .totalCount;
  }

  beforeAll(async () => {
    deployment = await start();
    api = `${deployment.gateways[0]}/api/v1`;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "idempotency")).stdout);
    const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Other")).stdout) as {
      id: string;
    };
    stranger = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "other", "--workspace", other.id)).stdout,
    );
    const upload = await call(api, "/documents/upload?filename=a.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf" },
    });
    documentId = (upload.body as { id: string }).id;
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("a retry with the same key and body gets the first answer and creates nothing", async () => {
    const before = await templateCount();
    const first = await post("/templates", template("Once"), "create-once");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post("/templates", template("Once"), "create-once");
    expect(again.status).toBe(201);
    expectDocumented("POST", "/api/v1/templates", 201, again.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await templateCount()).toBe(before + 1);
  });

  test("the same key with another body is refused, and a 4xx answer is replayed as it was", async () => {
    await post("/templates", template("A"), "reused");
    const other = await post("/templates", template("B"), "reused");
    expect(other.status).toBe(422);
    expectDocumented("POST", "/api/v1/templates", 422, other.body);
    expect(other.body).toMatchObject({ errors: [{ path: "Idempotency-Key" }] });
    const invalid = await post("/templates", { name: "" }, "bad-body");
    const replayed = await post("/templates", { name: "" }, "bad-body");
    expect([invalid.status, replayed.status]).toEqual([422, 422]);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
  });

  test("50 identical calls at once create exactly one resource, and all get its answer", async () => {
    const before = await templateCount();
    // Idempotency keys are the workspace's: the calls come through seven of its API keys, each within
    // the 8 requests a key has in the works at once.
    const more = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => deployment.cli("keys", "create", "--name", `race-${i}`)),
    );
    const secrets = [
      key.secret,
      ...more.map((made) => (JSON.parse(made.stdout) as { secret: string }).secret),
    ];
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post("/templates", template("Race"), "race", secrets[i % secrets.length]),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(replies.map((r) => (r.body as { id: string }).id)).size).toBe(1);
    expect(await templateCount()).toBe(before + 1);
  });

  test("keys are per workspace; a malformed key is a 400; calls without a key are untouched", async () => {
    const mine = await post("/templates", template("Mine"), "shared-key");
    // The same key in another workspace is another key: not a mismatch with ours.
    const theirs = await call(api, "/documents/upload?filename=b.pdf", {
      key: stranger.secret,
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf", "idempotency-key": "shared-key" },
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const malformed = await post("/templates", template("X"), "tab\there");
    expect(malformed.status).toBe(400);
    const first = (await post("/templates", template("P"))).body as { id: string };
    const second = (await post("/templates", template("P"))).body as { id: string };
    expect(first.id).not.toBe(second.id);
  });

  test("an upload is replayed only for the same bytes", async () => {
    const pdf = await makePdf(1);
    const upload = (bytes: Uint8Array) =>
      call(api, "/documents/upload?filename=same.pdf", {
        key: key.secret,
        method: "POST",
        body: bytes,
        headers: { "content-type": "application/pdf", "idempotency-key": "upload-1" },
      });
    const first = await upload(pdf);
    const again = await upload(pdf);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body as { id: string }).id).toBe((first.body as { id: string }).id);
    const changed = Uint8Array.from(pdf);
    changed[changed.length - 2] = (changed[changed.length - 2] ?? 0) ^ 1;
    const different = await upload(changed);
    expect(different.status).toBe(422);
  });

  test("a signature request created with a key is created once", async () => {
    const templateId = ((await post("/templates", template("For requests"))).body as { id: string }).id;
    const body = {
      title: "Once only",
      templateId,
      recipients: [{ name: "Ada", email: "ada@example.com", role: "Signer" }],
      send: true,
    };
    const replies = await Promise.all([1, 2, 3].map(() => post("/signature-requests", body, "send-once")));
    expect(new Set(replies.map((r) => (r.body as { id: string }).id)).size).toBe(1);
    const listed = await call(api, "/signature-requests?pageSize=100", { key: key.secret });
    expect(
      (listed.body as { items: { title: string }[] }).items.filter((r) => r.title === "Once only"),
    ).toHaveLength(1);
  });
});
