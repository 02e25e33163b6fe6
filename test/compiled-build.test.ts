/**
 * `npm start`, `npm run start:distributed` and the image run the JavaScript `npm run build:server`
 * makes, not the TypeScript the other tests run: the launcher starts every component from `dist`,
 * a call crosses the gateway, auth and templates built that way, and a request is signed and sealed
 * (the drawing thread loads the built drawing code). (`npm test` builds it first.)
 */
import { readFile } from "node:fs/promises";
import { type Deployment, startDistributed } from "./support/deployments.js";
import { embeddedSigner } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";

const infra = await distributedInfra();
afterAll(() => infra?.close());

(infra ? describe : describe.skip)("the distributed launcher, built", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDistributed(infra as NonNullable<typeof infra>, { compiled: true });
  }, 60_000);

  afterAll(() => deployment?.destroy());

  test("starts every component from its built JavaScript, and they answer together", async () => {
    const { pids } = JSON.parse(await readFile(`${deployment.dataDir}/distributed.json`, "utf8")) as {
      pids: Record<string, number>;
    };
    const commands = await Promise.all(
      Object.values(pids).map(async (pid) => (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0")),
    );
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) {
      expect(command).toContain("--conditions=compiled");
      expect(command.find((arg) => arg.endsWith("server.js"))).toMatch(/\/dist\/(converter-)?server\.js$/);
    }

    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "built")).stdout) as {
      secret: string;
      accountId: string;
    };
    const res = await fetch(`${deployment.gateways[0]}/v1/accounts/${key.accountId}/templates?pageSize=5`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(res.status).toBe(200);

    const gateway = deployment.gateways[0] as string;
    const { request, signer, fields } = await embeddedSigner(gateway, key.secret);
    const [signature = "", initials = ""] = fields;
    const signed = await signer.call("/sign/api/submit", {
      consent: true,
      values: {
        [signature]: { kind: "typed", text: "Ada Lovelace" },
        [initials]: { kind: "typed", text: "AL" },
      },
    });
    expect(signed.status).toBe(200);
    const completed = await eventually(async () => {
      const got = await call(gateway, `/api/v1/signature-requests/${request.id}`, { key: key.secret });
      return (got.body as { status: string }).status === "completed" ? got.body : undefined;
    }, 30_000);
    expect(completed).toMatchObject({ signedDocumentId: expect.any(String) });
  });
});
