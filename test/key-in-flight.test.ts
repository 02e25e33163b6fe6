/**
 * One key cannot take every place of a gateway, in both modes: its uploads that arrive slowly (each
 * held open by a client that sends a few bytes and waits) are worked on 8 at once and 8 more wait;
 * the rest, and its further calls to the API and to /restapi, are refused at once with 429 and
 * Retry-After, while another workspace's key is answered. Its turns come back when its requests end.
 */
import http from "node:http";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

/** Waiting longer than the test runs: those that wait for a turn stay waiting until released. */
const ENV = { COUNTERSIGN_KEY_MAX_QUEUE_WAIT_MS: "120000" };
/** More uploads than the gateway works on at once (COUNTERSIGN_MAX_CONCURRENT_REQUESTS, 64). */
const HOLDERS = 70;
/** The key's bound: 8 worked on and 8 waiting (the defaults). */
const HELD = 16;

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: ENV })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: ENV })]);
afterAll(() => infra?.close());

interface Answer {
  status: number;
  retryAfter: string | undefined;
  type: string | undefined;
  body: unknown;
}

/**
 * An upload of 1 MiB that sends its first bytes and then nothing until it is ended: a slow client,
 * which keeps its request in the works for as long as it likes.
 */
function slowUpload(gateway: string, key: string) {
  let answer: Answer | undefined;
  const req = http.request(`${gateway}/api/v1/documents/upload?filename=slow.pdf`, {
    method: "POST",
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/pdf",
      "content-length": String(1024 * 1024),
    },
  });
  req.on("error", () => {});
  req.on("response", (res) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
    });
    res.on("end", () => {
      answer = {
        status: res.statusCode ?? 0,
        retryAfter: res.headers["retry-after"],
        type: res.headers["content-type"],
        body: text ? JSON.parse(text) : undefined,
      };
    });
  });
  req.write("%PDF-1.7\n");
  return { answer: () => answer, end: () => req.destroy() };
}

describe.each(modes)("%s mode: a key's requests in the works", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let greedy: { secret: string; accountId: string };
  let other: { secret: string; accountId: string };

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    greedy = JSON.parse((await deployment.cli("keys", "create", "--name", "greedy")).stdout);
    const workspace = JSON.parse(
      (await deployment.cli("workspaces", "create", "--name", "Other")).stdout,
    ) as {
      id: string;
    };
    other = JSON.parse(
      (await deployment.cli("keys", "create", "--name", "other", "--workspace", workspace.id)).stdout,
    );
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("one key's slow uploads hold 16 places at most: the rest of its calls are refused at once (429, Retry-After; DocuSign's shape on /restapi) while another workspace is answered", async () => {
    // The key is verified once, before the uploads arrive together.
    expect((await call(gateway, "/v1/ping", { key: greedy.secret })).status).toBe(200);
    const uploads = Array.from({ length: HOLDERS }, () => slowUpload(gateway, greedy.secret));
    try {
      const answered = () => uploads.flatMap((upload) => upload.answer() ?? []);
      // Refused at once, not after the wait; without the bound none is answered, every place is taken.
      await eventually(async () => (answered().length >= HOLDERS - HELD ? true : undefined), 10_000).catch(
        () => {},
      );
      const started = performance.now();
      const othersPing = await call(gateway, "/v1/ping", { key: other.secret });
      const othersPingMs = performance.now() - started;
      const othersUpload = await call(gateway, "/api/v1/documents/upload?filename=other.pdf", {
        key: other.secret,
        method: "POST",
        body: await makePdf(1),
        headers: { "content-type": "application/pdf" },
      });
      const othersUploadMs = performance.now() - started - othersPingMs;
      const refused = answered();
      expect({
        refused: refused.length,
        statuses: [...new Set(refused.map((answer) => answer.status))],
        othersPing: othersPing.status,
        othersUpload: othersUpload.status,
      }).toEqual({
        refused: HOLDERS - HELD,
        statuses: [429],
        othersPing: 200,
        othersUpload: 201,
      });
      console.log(
        `another workspace's ping answered in ${Math.round(othersPingMs)} ms, its upload in ${Math.round(othersUploadMs)} ms`,
      );
      expect(othersPingMs).toBeLessThan(2_000);

      const [first] = refused as [Answer];
      expect(first).toMatchObject({
        status: 429,
        retryAfter: "1",
        type: expect.stringMatching(/^application\/problem\+json/),
        body: {
          code: "rate_limited",
          detail: "this key has 8 requests in the works already; send the next when one is answered",
        },
      });
      expectDocumented("POST", "/api/v1/documents/upload", 429, first.body);

      // Any further call of the key is refused at once too, on every door but MCP's.
      const ping = await call(gateway, "/v1/ping", { key: greedy.secret });
      expect([ping.status, ping.headers.get("retry-after")]).toEqual([429, "1"]);
      expectDocumented("GET", "/v1/ping", 429, ping.body);
      const envelopes = await call(
        gateway,
        `/restapi/v2.1/accounts/${greedy.accountId}/envelopes?from_date=2020-01-01`,
        { key: greedy.secret },
      );
      expect([envelopes.status, envelopes.headers.get("retry-after"), envelopes.body]).toEqual([
        429,
        "1",
        {
          errorCode: "HOURLY_APIINVOCATION_LIMIT_EXCEEDED",
          message: "this key has 8 requests in the works already; send the next when one is answered",
        },
      ]);
      const othersEnvelopes = await call(
        gateway,
        `/restapi/v2.1/accounts/${other.accountId}/envelopes?from_date=2020-01-01`,
        { key: other.secret },
      );
      expect(othersEnvelopes.status).toBe(200);
    } finally {
      for (const upload of uploads) upload.end();
    }
    // Its requests ended, the key is served again.
    await eventually(async () => {
      const ping = await call(gateway, "/v1/ping", { key: greedy.secret });
      return ping.status === 200 ? true : undefined;
    });
  }, 60_000);
});
