/**
 * An operator's body limits hold in both modes: with COUNTERSIGN_MAX_UPLOAD_BYTES and
 * COUNTERSIGN_JSON_LIMIT_BYTES set lower than their defaults, an upload over the one and a JSON body
 * over the other are refused with 413 naming the limit, and bodies under them are taken. (Standalone
 * mode once read neither: its limits were the defaults whatever the operator set; and an upload just
 * over its limit was answered 400, "ended before it was complete", where the spool stopped reading.)
 */
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { makeLargePdf, makePdf } from "./support/pdfs.js";

const ENV = { COUNTERSIGN_MAX_UPLOAD_BYTES: String(64 * 1024), COUNTERSIGN_JSON_LIMIT_BYTES: "4096" };

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: ENV })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: ENV })]);
afterAll(() => infra?.close());

describe.each(modes)("%s mode", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: string;
  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "limits")).stdout).secret;
  });
  afterAll(() => deployment?.destroy());

  test("an upload over the operator's limit is refused with 413 naming it; one under it is stored", async () => {
    const upload = (body: Uint8Array) =>
      call(gateway, "/api/v1/documents/upload?filename=limit.pdf", {
        method: "POST",
        key,
        headers: { "content-type": "application/pdf" },
        body: Buffer.from(body),
      });
    const over = await upload(await makeLargePdf(100 * 1024));
    expect([over.status, (over.body as { detail: string }).detail]).toEqual([
      413,
      "the file is larger than 65536 bytes",
    ]);
    expect((await upload(await makePdf(1))).status).toBe(201);
  });

  test("a JSON body over the operator's limit is refused with 413; one under it is read", async () => {
    const template = (name: string) =>
      call(gateway, "/api/v1/templates", { method: "POST", key, json: { name, roles: [], fields: [] } });
    expect((await template("x".repeat(8000))).status).toBe(413);
    // Under the limit the body is read: what is wrong with it is said field by field.
    expect((await template("Small")).status).toBe(422);
  });
});
