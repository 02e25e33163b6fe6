/**
 * The fuzz suite: requests generated from the served OpenAPI document against every route, in both
 * modes. Whatever it sends, the gateway answers below 500, every error is problem+json with a
 * detail, and the process stays alive. `FUZZ_RUNS` sets the number of requests per mode (2,000 in
 * `npm test`, 20,000 in `npm run fuzz`); `FUZZ_SEED` replays a run — the seed is in the test name.
 */
import fc from "fast-check";
import { type Deployment, faultsIn, startDistributed, startStandalone } from "./support/deployments.js";
import { brokenRule, type Fixtures, requestArbitrary, send } from "./support/fuzz.js";
import { ConsoleClient, call } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { DOCUMENT } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

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
  const console = new ConsoleClient(gateway);
  await console.logIn(deployment.adminEmail, deployment.adminPassword);
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
    },
    apiKey: key.secret,
    cookie: `cs_session=${encodeURIComponent(console.cookie("cs_session") ?? "")}`,
    csrf: console.csrfToken,
    pdf,
  };
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
});
