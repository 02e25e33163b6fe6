/**
 * The 60-second tour (docs/getting-started.md, linked from the README) as a newcomer meets it:
 * every command names the service through $BASE, set once, so that another PORT changes one line;
 * and the command it gives for the signing link, taken from the page and run as written against a
 * standalone deployment, prints the link of the signer's e-mail, which opens the signing page.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { outboxMails } from "./support/outbox-mail.js";
import { createTwoRoleTemplate } from "./support/templates.js";

const run = promisify(execFile);

/** The tour's shell lines, without the lines that show what a command prints. */
const tourCommands = (() => {
  const page = readFileSync(join(REPO, "docs", "getting-started.md"), "utf8");
  const block = /## A 60-second tour[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/getting-started.md has no shell block in its 60-second tour");
  return block.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
})();

test("every command of the tour names the service through $BASE, set once, which says how PORT changes it", () => {
  const naming = tourCommands.filter((line) => /localhost|127\.0\.0\.1/.test(line));
  expect(naming).toEqual([expect.stringMatching(/^BASE=http:\/\/localhost:8080 .*PORT=9090/)]);
  const calls = tourCommands.filter((line) => line.startsWith("curl "));
  expect(calls.length).toBeGreaterThan(5);
  for (const line of calls) expect(line).toMatch(/^curl -s "?\$BASE\//);
});

describe("with a standalone deployment", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startStandalone();
  }, 180_000);

  afterAll(() => deployment?.destroy());

  test("the tour's command for the signing link, run as written, prints the link of the signer's e-mail, and it opens the signing page", async () => {
    const command = tourCommands.find((line) => line.endsWith("open it in a browser and sign"));
    if (!command) throw new Error("the tour gives no command for the signing link");
    const gateway = deployment.gateways[0] as string;
    const api = `${gateway}/api/v1`;
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "tour")).stdout) as {
      secret: string;
    };
    const templateId = await createTwoRoleTemplate(api, key.secret);
    const created = await call(api, "/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: "NDA with Ada",
        templateId,
        send: true,
        recipients: [
          { name: "Ada Lovelace", email: "ada@example.com", role: "Client" },
          { name: "Grace Hopper", email: "grace@example.com", role: "Company" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const request = created.body as { id: string; recipients: { id: string; email: string }[] };

    // As the tour runs it: in the checkout, with $REQ set, the data dir found by the CLI.
    const { stdout } = await run("sh", ["-c", command], {
      cwd: REPO,
      env: { ...process.env, REQ: request.id, COUNTERSIGN_DATA_DIR: deployment.dataDir },
    });
    const printed = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { recipientId: string; email: string; url: string });
    // Grace signs second: only Ada, whose turn it is, has a link yet.
    expect(printed).toEqual([
      {
        recipientId: request.recipients[0]?.id,
        email: "ada@example.com",
        url: expect.stringMatching(/^http:\/\/localhost:\d+\/sign\/[A-Za-z0-9_-]{43}$/),
      },
    ]);
    const url = printed[0]?.url as string;
    const mail = await eventually(async () =>
      (await outboxMails(deployment.dataDir)).find((m) => m.to === "ada@example.com"),
    );
    expect(mail.link).toBe(url);
    const opened = await fetch(url, { redirect: "manual" });
    expect(opened.status).toBe(303);
  });
});
