/**
 * A loaded process stops in time. Kubernetes kills a pod 30 s after SIGTERM; a process still
 * closing then loses what it had not finished. After thousands of create-and-send requests on
 * kept-alive connections, standalone Countersign exits 0 well within that, says how long each stage
 * of its shutdown took, and leaves the e-mails it had not sent for its next start.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import autocannon from "autocannon";
import { uploadThroughGateway } from "./bench/transfer.js";
import { type Deployment, startStandalone } from "./support/deployments.js";
import { eventually } from "./support/http.js";
import { makePdf } from "./support/pdfs.js";

let deployment: Deployment;
let accountBase: string;
let key: string;

beforeAll(async () => {
  deployment = await startStandalone(undefined, {
    env: {
      LOG_LEVEL: "info",
      COUNTERSIGN_RATE_LIMIT_PER_SECOND: "100000",
      COUNTERSIGN_RATE_LIMIT_BURST: "100000",
      // As many of the key's requests at once as the load has connections: none waits for a turn.
      COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: "16",
    },
  });
  const created = JSON.parse((await deployment.cli("keys", "create", "--name", "shutdown")).stdout) as {
    secret: string;
    accountId: string;
  };
  key = created.secret;
  accountBase = `${deployment.gateways[0]}/v1/accounts/${created.accountId}`;
}, 120_000);
afterAll(() => deployment?.destroy());

async function templateFor(): Promise<string> {
  const documentId = await uploadThroughGateway(accountBase, key, await makePdf(1));
  const res = await fetch(`${accountBase}/templates`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Shutdown",
      documentId,
      roles: [{ name: "Signer" }],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 700, width: 200, height: 40 }],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test("after 2,000 create-and-send requests on 16 kept-alive connections, SIGTERM ends the process with 0 within 10 s", async () => {
  const templateId = await templateFor();
  const result = await autocannon({
    url: `${accountBase}/signature-requests`,
    connections: 16,
    amount: 2000,
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      title: "Load",
      templateId,
      recipients: [{ name: "Load Signer", email: "signer@example.com", role: "Signer" }],
      send: true,
    }),
  });
  expect(result.non2xx + result.errors).toBe(0);

  const started = Date.now();
  const code = await deployment.stop();
  const elapsed = Date.now() - started;
  const output = deployment.output();
  expect({ code, elapsed: elapsed < 10_000 }).toEqual({ code: 0, elapsed: true });
  expect(output).not.toMatch(/did not finish in/);
  expect(output).toMatch(/"stage":"requests background work","ms":\d+,"msg":"shutdown stage finished"/);
  expect(output).toMatch(/"msg":"stopped"/);

  // What the stop left unsent (it waits for the e-mail in hand, not the queue) goes out after a restart.
  deployment = await startStandalone(deployment.dataDir, { env: { LOG_LEVEL: "info" } });
  const invitations = async () =>
    (await readdir(join(deployment.dataDir, "outbox"))).filter((file) => file.endsWith(".eml")).length;
  await eventually(async () => ((await invitations()) >= 2000 ? true : undefined), 60_000, 250);
  expect(await invitations()).toBe(2000);
}, 240_000);
