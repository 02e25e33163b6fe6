/**
 * The fuzz suite: requests generated from the served OpenAPI document against every route, in both
 * modes, and DocuSign envelopes with anchor tabs against /restapi. Whatever it sends, the gateway
 * answers below 500, every error is problem+json with a detail (DocuSign's shape on /restapi), the
 * process stays alive, and /healthz never waits a second meanwhile. `FUZZ_RUNS` sets the number of
 * requests per mode (2,000 in `npm test`, 20,000 in `npm run fuzz`); `FUZZ_SEED` replays a run —
 * the seed is in the test name.
 */
import fc from "fast-check";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { type Deployment, faultsIn, startDistributed, startStandalone } from "./support/deployments.js";
import { embeddedSigner } from "./support/embedded-signer.js";
import { brokenRule, type Fixtures, mcpBody, requestArbitrary, send } from "./support/fuzz.js";
import { ConsoleClient, call } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { DOCUMENT } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";
import { StallWatch } from "./support/stall-watch.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Generous limits so that the fuzzer meets the routes, not the rate limiter. */
const ENV = { COUNTERSIGN_RATE_LIMIT_PER_SECOND: "100000", COUNTERSIGN_RATE_LIMIT_BURST: "100000" };

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, { env: ENV })],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, { env: ENV })]);
afterAll(() => infra?.close());

async function fixturesOf(deployment: Deployment, gateway: string): Promise<Fixtures> {
  const key = JSON.parse((await deployment.cli("keys", "create", "--name", "fuzz")).stdout) as {
    id: string;
    secret: string;
    accountId: string;
  };
  const api = `${gateway}/api/v1`;
  const post = async (path: string, json: unknown) =>
    (await call(api, path, { key: key.secret, method: "POST", json })).body as Record<string, unknown>;
  const pdf = await makePdf(2);
  const document = (
    await call(api, "/documents/upload?filename=fuzz.pdf", {
      key: key.secret,
      method: "POST",
      body: pdf,
      headers: { "content-type": "application/pdf" },
    })
  ).body as { id: string };
  const template = await post("/templates", {
    name: "Fuzz",
    documentId: document.id,
    roles: [{ name: "Client" }],
    fields: [{ type: "signature", role: "Client", page: 1, x: 50, y: 600, width: 150, height: 40 }],
  });
  const request = (await post("/signature-requests", {
    title: "Fuzz",
    templateId: template.id,
    recipients: [{ name: "Ada", email: "ada@example.com", role: "Client" }],
    send: true,
  })) as { id: string; recipients: { id: string }[] };
  const set = await post("/agreement-sets", { name: "Fuzz", requestIds: [request.id] });
  const bulkSend = await post("/bulk-sends", {
    templateId: template.id,
    title: "Fuzz bulk",
    rows: [{ recipients: [{ name: "Bo", email: "bo@example.com", role: "Client" }] }],
  });
  const console = new ConsoleClient(gateway);
  await console.logIn(deployment.adminEmail, deployment.adminPassword);
  const signing = await embeddedSigner(gateway, key.secret);
  return {
    ids: {
      accountId: key.accountId,
      workspaceId: key.accountId,
      keyId: key.id,
      documentId: document.id,
      templateId: template.id as string,
      requestId: request.id,
      recipientId: request.recipients[0]?.id as string,
      agreementSetId: set.id as string,
      bulkSendId: bulkSend.id as string,
    },
    apiKey: key.secret,
    cookie: `cs_session=${encodeURIComponent(console.cookie("cs_session") ?? "")}`,
    csrf: console.csrfToken,
    pdf,
    signingCookie: signing.signer.cookie,
    signingFieldIds: signing.fields,
  };
}

/** A page of anchors: "x" written 1,200 times, and "/sn1/" once. */
async function anchoredPdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  for (let line = 0; line < 10; line++)
    page.drawText("x".repeat(120), { x: 20, y: 700 - line * 14, size: 6, font });
  page.drawText("/sn1/", { x: 72, y: 200, size: 12, font });
  return Buffer.from(await pdf.save()).toString("base64");
}

/**
 * Envelopes from that page whose signers carry up to 600 valid tabs each, anchored in any of those
 * places: what reaches the anchor search (a malformed tab is refused before it, and its refusal is
 * fuzzed with the rest of /restapi's bodies in restapi.test.ts).
 */
function anchoredEnvelope(documentBase64: string) {
  const tab = fc.record(
    {
      anchorString: fc.oneof(
        { arbitrary: fc.constantFrom("x", "X", "xx", "/sn1/", "/nowhere/"), weight: 4 },
        { arbitrary: fc.string({ minLength: 1, maxLength: 4 }).filter((s) => s.trim() !== ""), weight: 1 },
      ),
      anchorIgnoreIfNotPresent: fc.constantFrom("true", "false", true),
      anchorCaseSensitive: fc.boolean(),
      anchorXOffset: fc.integer({ min: -800, max: 800 }),
      anchorUnits: fc.constantFrom("pixels", "inches", "mms"),
    },
    { requiredKeys: ["anchorString"] },
  );
  const tabs = fc.oneof(fc.array(tab, { maxLength: 5 }), fc.array(tab, { minLength: 100, maxLength: 600 }));
  return fc
    .array(fc.record({ signHereTabs: tabs, initialHereTabs: fc.array(tab, { maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 3,
    })
    .map((signers) => ({
      status: "created",
      documents: [{ documentBase64, name: "anchors", documentId: "1" }],
      recipients: {
        signers: signers.map((tabs, i) => ({ name: `Signer ${i}`, email: `s${i}@example.com`, tabs })),
      },
    }));
}

describe.each(modes)("%s mode: fuzzing every route", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
  });
  afterAll(() => deployment?.destroy(), 120_000);

  test(
    `${RUNS} generated requests (FUZZ_SEED=${SEED}): none answers 5xx, every error is a problem, the process lives`,
    async () => {
      const fixtures = await fixturesOf(deployment, gateway);
      const statuses = new Map<number, number>();
      const health = new StallWatch(`${gateway}/healthz`);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(DOCUMENT as never, fixtures), async (request) => {
          const answer = await send(gateway, request);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const broken = brokenRule(answer, request.pages);
          if (broken) {
            // The server's own account of the failure, found by the request id it answered with.
            const requestId = /"requestId":"([^"]+)"/.exec(answer.body)?.[1] ?? "none";
            await new Promise((resolve) => setTimeout(resolve, 500)); // logs are written in batches
            const logged = deployment
              .output()
              .split("\n")
              .filter((line) => line.includes(requestId))
              .join("\n");
            throw new Error(
              `${request.label} → ${broken}\n${request.method} ${request.path}\n${answer.body.slice(0, 500)}\n${logged.slice(0, 3000)}`,
            );
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      // No request held the gateway's event loop, whatever it sent.
      const { longestMs, failures, longest } = await health.stop();
      // A stall shows the probe that saw it: how long the service ran, and how long it queued.
      expect({ failures, stalled: longestMs >= 1000 && longest }).toEqual({ failures: 0, stalled: false });
      expect((await call(gateway, "/healthz")).status).toBe(200);
      // Nothing the fuzzer sent is a fault of ours: no error-level line, no unhandled error.
      expect(faultsIn(deployment.output())).toEqual([]);
      // The fuzzer reached the routes' own answers, not only the edge's refusals.
      const answered = [...statuses.keys()];
      expect(answered.some((status) => status < 300)).toBe(true);
      expect(answered).toEqual(expect.arrayContaining([400, 404, 422]));
    },
    Math.max(120_000, RUNS * 100),
  );

  test(`MCP bodies of any shape, batches up to 40 messages (FUZZ_SEED=${SEED}): an answer or a refusal below 500, no batch answered past its bound, /healthz never waits`, async () => {
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "fuzz-mcp")).stdout) as {
      secret: string;
    };
    const health = new StallWatch(`${gateway}/healthz`);
    await fc.assert(
      fc.asyncProperty(mcpBody, async (body) => {
        const answer = await call(gateway, "/mcp/v1", {
          method: "POST",
          key: key.secret,
          headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
          json: body,
        });
        expect(answer.status).toBeLessThan(500);
        // A batch is answered message by message only within its bound; past it, refused whole.
        if (Array.isArray(answer.body)) expect(answer.body.length).toBeLessThanOrEqual(20);
        if (Array.isArray(body) && body.length > 20) expect(answer.status).toBe(400);
      }),
      { numRuns: Math.min(300, Math.ceil(RUNS / 5)), seed: SEED, endOnFailure: true },
    );
    const { longestMs, failures } = await health.stop();
    expect({ failures, stalled: longestMs >= 1000 }).toEqual({ failures: 0, stalled: false });
    expect(faultsIn(deployment.output())).toEqual([]);
  });

  test(`/restapi envelopes with up to 1,800 anchor tabs (FUZZ_SEED=${SEED}): a 201 or DocuSign's 400, and /healthz never waits`, async () => {
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "fuzz-anchors")).stdout) as {
      secret: string;
      accountId: string;
    };
    const documentBase64 = await anchoredPdf();
    const health = new StallWatch(`${gateway}/healthz`);
    await fc.assert(
      fc.asyncProperty(anchoredEnvelope(documentBase64), async (envelope) => {
        const answer = await call(gateway, `/restapi/v2.1/accounts/${key.accountId}/envelopes`, {
          key: key.secret,
          method: "POST",
          json: envelope,
        });
        const tabs = envelope.recipients.signers.map((s) => s.tabs.signHereTabs.length).join("+");
        expect({ tabs, status: answer.status < 500 }).toEqual({ tabs, status: true });
        if (answer.status !== 201) {
          expect(answer.body).toEqual({ errorCode: expect.any(String), message: expect.any(String) });
        }
      }),
      { numRuns: Math.max(20, Math.round(RUNS / 50)), seed: SEED, endOnFailure: true },
    );
    const { longestMs, failures, longest } = await health.stop();
    expect({ failures, stalled: longestMs >= 1000 && longest }).toEqual({ failures: 0, stalled: false });
  });
});
