/**
 * API keys cannot take a gateway down by memory. However many large bodies arrive at once — the
 * DocuSign-compatible API's envelopes with base64 documents, MCP uploads — the gateway process,
 * run with the heap its pod gets, stays under the pod's 512 MiB: bodies share one budget, and those
 * that do not fit in time are answered 503 with Retry-After without being read. Measured as the
 * process's peak resident memory (Linux's VmHWM), not its heap: much of a body lives outside it.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { readDistributedEndpoints } from "../deploy/local/src/distributed-endpoints.js";
import { type Deployment, startDistributed } from "./support/deployments.js";
import { distributedInfra } from "./support/infra.js";

const MiB = 1024 * 1024;
const POD_LIMIT = 512 * MiB;
const infra = await distributedInfra();

let deployment: Deployment;
let gateway: string;
/** Two keys of one workspace: a key has 8 requests in the works at once, and the bodies come 12 at once. */
let keys: string[];
let accountId: string;

beforeAll(async () => {
  deployment = await startDistributed(infra as NonNullable<typeof infra>);
  gateway = deployment.gateways[0] as string;
  const created = await Promise.all(
    ["memory", "memory-2"].map(
      async (name) =>
        JSON.parse((await deployment.cli("keys", "create", "--name", name)).stdout) as {
          secret: string;
          accountId: string;
        },
    ),
  );
  keys = created.map((made) => made.secret);
  accountId = created[0]?.accountId as string;
}, 180_000);
afterAll(() => deployment?.destroy());

async function gatewayPid(): Promise<number> {
  const pid = (await readDistributedEndpoints(deployment.dataDir))?.pids["gateway-0"];
  if (pid === undefined) throw new Error("no gateway is running");
  return pid;
}

/** The process's peak resident memory since it was last reset (VmHWM), in bytes. */
async function peakResident(pid: number): Promise<number> {
  return Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
}

/** Bytes that are not a PDF: each body is read whole and refused by the documents service at once. */
const notPdf = (bytes: number) => randomBytes(bytes).toString("base64");

/** An envelope of about 32 MiB: two documents of 12 MiB each, as base64. */
function envelope(): string {
  return JSON.stringify({
    emailSubject: "Large",
    status: "created",
    documents: ["1", "2"].map((id) => ({
      documentId: id,
      name: `part-${id}.pdf`,
      documentBase64: notPdf(12 * MiB),
    })),
    recipients: { signers: [{ email: "ada@example.com", name: "Ada", recipientId: "1" }] },
  });
}

/** One MCP upload_document call of about 27 MiB (a 20 MiB file as base64). */
function mcpUpload(): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "upload_document", arguments: { filename: "big.pdf", contentBase64: notPdf(20 * MiB) } },
  });
}

test("12 envelopes of 32 MiB and 4 MCP uploads of 27 MiB at once keep the gateway under its pod's 512 MiB; what does not fit hears 503 and when to retry", async () => {
  const pid = await gatewayPid();
  // Linux resets the peak to the current resident size: what follows is measured alone.
  await writeFile(`/proc/${pid}/clear_refs`, "5");
  const post = (path: string, body: string, key: string) =>
    fetch(`${gateway}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body,
    })
      .then(async (res) => ({
        path,
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        text: await res.text(),
      }))
      .catch((err: Error) => ({ path, status: 0, retryAfter: null, text: String(err.cause ?? err) }));
  const large = envelope();
  const upload = mcpUpload();
  const answers = await Promise.all([
    ...Array.from({ length: 12 }, (_, i) =>
      post(`/restapi/v2.1/accounts/${accountId}/envelopes`, large, keys[i % 2] as string),
    ),
    ...Array.from({ length: 4 }, () => post("/mcp/v1", upload, keys[0] as string)),
  ]);
  const peak = await peakResident(pid);

  expect(await gatewayPid()).toBe(pid);
  expect(peak).toBeLessThan(POD_LIMIT);
  // Each body was either read and answered as its route answers a file that is not a PDF, or
  // refused unread with 503 and Retry-After.
  const read = answers.filter((a) => a.status !== 503);
  for (const answer of read) {
    if (answer.path === "/mcp/v1")
      expect({ status: answer.status, text: answer.text }).toMatchObject({
        status: 200,
        text: expect.stringContaining("not a PDF"),
      });
    else
      expect({ status: answer.status, text: answer.text }).toMatchObject({
        status: 400,
        text: expect.stringContaining("not a PDF"),
      });
  }
  for (const refused of answers.filter((a) => a.status === 503)) expect(refused.retryAfter).toMatch(/^\d+$/);
  expect(read.length).toBeGreaterThan(0);
  console.log(
    `peak resident ${Math.round(peak / MiB)} MiB; ${read.length} of 16 read, ${16 - read.length} asked to retry`,
  );
}, 180_000);
