import https from "node:https";
import net, { type AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createLogger } from "@countersign/kit";
import { Webhook } from "standardwebhooks";
import {
  createTestCa,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from "../../../test/support/webhook-receiver.js";
import {
  endpointUrlProblem,
  GuardedClient,
  type GuardedClientOptions,
  type LookupAll,
  NOT_PUBLIC_ADDRESS,
  type PostOutcome,
  parseNetworks,
  refusalReason,
} from "../src/delivery/guarded-client.js";

const loopback = parseNetworks("127.0.0.0/8, ::1/128");
const clients: GuardedClient[] = [];
const receivers: WebhookReceiver[] = [];

function client(options: GuardedClientOptions = {}): GuardedClient {
  const made = new GuardedClient(options);
  clients.push(made);
  return made;
}

/** A client that may reach the loopback receiver and trusts its CA. */
function trustingClient(options: GuardedClientOptions = {}): GuardedClient {
  return client({ allowNetworks: loopback, extraCa: createTestCa().caPem, ...options });
}

async function receiver(respond?: Parameters<typeof startWebhookReceiver>[0]): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(respond);
  receivers.push(started);
  return started;
}

function response(outcome: PostOutcome) {
  if (outcome.kind !== "response") throw new Error(`expected a response, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function failure(outcome: PostOutcome) {
  if (outcome.kind !== "error") throw new Error(`expected an error, got a ${outcome.status} response`);
  return outcome;
}

const resolvesTo =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: net.isIP(address) }));

/** Fails as dns.lookup does for a name no server knows (or, with EAI_AGAIN, none answered for). */
const doesNotResolve =
  (code = "ENOTFOUND"): LookupAll =>
  async (hostname) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname });
  };

/** A client whose log lines are kept, parsed, in lines. */
function loggingClient(options: GuardedClientOptions = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    name: "webhooks-test",
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { client: client({ ...options, logger }), lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const made of clients.splice(0)) made.close();
  await Promise.all(receivers.splice(0).map((started) => started.close()));
});

describe("delivering", () => {
  test("POSTs body and headers to the allowed loopback receiver and reports its answer", async () => {
    const hooks = await receiver({
      respond: () => ({
        status: 200,
        headers: { "x-reply": "yes", "content-type": "text/plain" },
        body: "thanks",
      }),
    });
    const body = JSON.stringify({ type: "request.completed", data: { id: "req_1" } });

    const outcome = response(await trustingClient().post(hooks.url, { "Webhook-Id": "msg_1" }, body));

    expect(outcome).toMatchObject({ status: 200, body: "thanks", bodyTruncated: false });
    expect(outcome.headers["x-reply"]).toBe("yes");
    expect(outcome.durationMs).toBeGreaterThan(0);
    expect(outcome.durationMs * 10).toBe(Math.round(outcome.durationMs * 10));
    const [got] = await hooks.waitFor(1);
    expect(got).toMatchObject({ method: "POST", path: "/hooks", body });
    expect(got?.headers).toMatchObject({
      "webhook-id": "msg_1",
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      "user-agent": "Countersign-Webhooks/1",
      "accept-encoding": "gzip, deflate, br",
    });
  });

  test("caller's content-type and user-agent win over the defaults", async () => {
    const hooks = await receiver();
    await trustingClient().post(
      hooks.url,
      { "Content-Type": "application/cloudevents+json", "User-Agent": "x/2" },
      "{}",
    );
    const [got] = await hooks.waitFor(1);
    expect(got?.headers["content-type"]).toBe("application/cloudevents+json");
    expect(got?.headers["user-agent"]).toBe("x/2");
  });

  test("a delivery signed with Standard Webhooks headers passes verifyWebhook", async () => {
    const hooks = await receiver();
    const secret = `whsec_${Buffer.from("a test secret of enough length").toString("base64")}`;
    const payload = JSON.stringify({ type: "ping" });
    const signature = new Webhook(secret).sign("msg_2", new Date(), payload);
    const headers = {
      "webhook-id": "msg_2",
      "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
      "webhook-signature": signature,
    };
    await trustingClient().post(hooks.url, headers, payload);
    const [got] = await hooks.waitFor(1);
    if (got === undefined) throw new Error("nothing arrived");
    expect(verifyWebhook(secret, got)).toEqual({ type: "ping" });
    expect(() => verifyWebhook(secret, { ...got, body: '{"type":"pong"}' })).toThrow();
  });

  test("a redirect is answered as a response; its Location is not requested", async () => {
    const hooks = await receiver({
      respond: (req) =>
        req.path === "/hooks"
          ? { status: 302, headers: { location: hooks.urlFor("/elsewhere") } }
          : { status: 204 },
    });
    const outcome = response(await trustingClient().post(hooks.url, {}, "{}"));
    expect(outcome.status).toBe(302);
    expect(outcome.headers.location).toBe(hooks.urlFor("/elsewhere"));
    await sleep(100);
    expect(hooks.received.map((req) => req.path)).toEqual(["/hooks"]);
  });

  test("repeated response headers are joined with a comma", async () => {
    const server = https.createServer(createTestCa().serverCert, (_req, res) => {
      res.setHeader("x-many", ["a", "b"]);
      res.end();
    });
    await listen(server);
    const outcome = response(await trustingClient().post(urlOf(server), {}, "{}"));
    expect(outcome.headers["x-many"]).toBe("a, b");
    server.closeAllConnections();
    server.close();
  });
});

describe("response bodies", () => {
  test("a gzip body comes back decompressed", async () => {
    const hooks = await receiver({
      respond: () => ({
        status: 200,
        headers: { "content-encoding": "gzip" },
        body: zlib.gzipSync("gzipped hello"),
      }),
    });
    expect(response(await trustingClient().post(hooks.url, {}, "{}")).body).toBe("gzipped hello");
  });

  test("a brotli body comes back decompressed", async () => {
    const hooks = await receiver({
      respond: () => ({
        status: 200,
        headers: { "content-encoding": "br" },
        body: zlib.brotliCompressSync("br hello"),
      }),
    });
    expect(response(await trustingClient().post(hooks.url, {}, "{}")).body).toBe("br hello");
  });

  test("a body that does not decompress keeps the status and is no failure", async () => {
    const hooks = await receiver({
      respond: () => ({ status: 200, headers: { "content-encoding": "gzip" }, body: "not gzip at all" }),
    });
    const outcome = response(await trustingClient().post(hooks.url, {}, "{}"));
    expect(outcome.status).toBe(200);
  });

  test("a body over 20 KB is cut to 20 KB and marked truncated", async () => {
    const hooks = await receiver({ respond: () => ({ status: 200, body: "x".repeat(50_000) }) });
    const outcome = response(await trustingClient().post(hooks.url, {}, "{}"));
    expect(outcome.body).toBe("x".repeat(20 * 1024));
    expect(outcome.bodyTruncated).toBe(true);
  });

  test("the cap counts decompressed bytes, so a gzip bomb is cut too", async () => {
    const hooks = await receiver({
      respond: () => ({
        status: 200,
        headers: { "content-encoding": "gzip" },
        body: zlib.gzipSync("y".repeat(5e6)),
      }),
    });
    const outcome = response(await trustingClient().post(hooks.url, {}, "{}"));
    expect(outcome.body).toHaveLength(20 * 1024);
    expect(outcome.bodyTruncated).toBe(true);
  });

  test("a cut does not split a multi-byte character", async () => {
    const hooks = await receiver({ respond: () => ({ status: 200, body: "ééé" }) });
    const outcome = response(await trustingClient({ maxBodyBytes: 5 }).post(hooks.url, {}, "{}"));
    expect(outcome).toMatchObject({ body: "éé", bodyTruncated: true });
  });

  test("a receiver that streams forever does not hold the attempt past the cap, and is hung up on", async () => {
    let hungUp = false;
    const server = https.createServer(createTestCa().serverCert, (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const drip = setInterval(() => res.write("z".repeat(1024)), 5);
      res.on("close", () => {
        hungUp = true;
        clearInterval(drip);
      });
    });
    await listen(server);
    try {
      const outcome = response(await trustingClient({ timeoutMs: 5_000 }).post(urlOf(server), {}, "{}"));
      expect(outcome).toMatchObject({ status: 200, bodyTruncated: true });
      expect(outcome.body).toHaveLength(20 * 1024);
      expect(outcome.durationMs).toBeLessThan(4_000);
      await sleep(200);
      expect(hungUp).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("refusing addresses that are not public", () => {
  test("an IP-literal loopback URL is refused without the allow-list and nothing is sent", async () => {
    const hooks = await receiver();
    const outcome = failure(await client({ extraCa: hooks.caPem }).post(hooks.url, {}, "{}"));
    expect(outcome.refused).toBe(true);
    expect(outcome.error).toBe(NOT_PUBLIC_ADDRESS);
    await sleep(50);
    expect(hooks.received).toHaveLength(0);
  });

  test("a name resolving to loopback (localhost) is refused at connect time", async () => {
    const hooks = await receiver();
    const outcome = failure(
      await client({ extraCa: hooks.caPem }).post(hooks.url.replace("127.0.0.1", "localhost"), {}, "{}"),
    );
    expect(outcome).toMatchObject({ refused: true, error: NOT_PUBLIC_ADDRESS });
    expect(hooks.received).toHaveLength(0);
  });

  test("a name resolving to a private address is refused", async () => {
    const outcome = failure(
      await client({ lookup: resolvesTo("10.0.0.1") }).post("https://hooks.example.test/", {}, "{}"),
    );
    expect(outcome).toMatchObject({ refused: true, error: NOT_PUBLIC_ADDRESS });
  });

  test("the refused address and its range are logged for operators, with the caller's fields", async () => {
    const { client: logged, lines } = loggingClient({ lookup: resolvesTo("10.0.0.1") });
    await logged.post("https://hooks.example.test/", {}, "{}", { endpointId: "ep_1" });
    await logged.post("https://[::1]/", {}, "{}", { endpointId: "ep_2" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        endpointId: "ep_1",
        reason: "hooks.example.test resolves to 10.0.0.1, which is a private address",
      }),
      expect.objectContaining({ level: 40, endpointId: "ep_2", reason: "::1 is a loopback address" }),
    ]);
  });

  test("one refused address among public ones refuses the whole name", async () => {
    const outcome = failure(
      await client({ lookup: resolvesTo("8.8.8.8", "169.254.169.254") }).post(
        "https://hooks.example.test/",
        {},
        "{}",
      ),
    );
    expect(outcome).toMatchObject({ refused: true, error: NOT_PUBLIC_ADDRESS });
  });

  test("DNS rebinding: a name that passes endpoint validation but resolves to loopback is refused", async () => {
    const hooks = await receiver();
    const url = `https://hooks.example.test:${new URL(hooks.url).port}/hooks`;
    expect(endpointUrlProblem(url, [])).toBeUndefined();
    const outcome = failure(
      await client({ lookup: resolvesTo("127.0.0.1"), extraCa: hooks.caPem }).post(url, {}, "{}"),
    );
    expect(outcome).toMatchObject({ refused: true, error: NOT_PUBLIC_ADDRESS });
    expect(hooks.received).toHaveLength(0);
  });

  test("the same name is delivered to when its network is allowed", async () => {
    const hooks = await receiver();
    const url = `https://hooks.example.test:${new URL(hooks.url).port}/hooks`;
    const lookups: string[] = [];
    const lookup: LookupAll = async (hostname) => {
      lookups.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const outcome = response(await trustingClient({ lookup }).post(url, {}, '{"n":1}'));
    expect(outcome.status).toBe(204);
    expect(lookups).toEqual(["hooks.example.test"]);
    expect((await hooks.waitFor(1))[0]?.body).toBe('{"n":1}');
  });

  test("an IPv4-mapped IPv6 literal is refused even when 127.0.0.0/8 is allowed", async () => {
    const outcome = failure(
      await client({ allowNetworks: parseNetworks("127.0.0.0/8") }).post(
        "https://[::ffff:127.0.0.1]:1/",
        {},
        "{}",
      ),
    );
    expect(outcome).toMatchObject({ refused: true, error: NOT_PUBLIC_ADDRESS });
  });

  // Were "not found" worded apart from "refused", which internal names exist would still show.
  test.each(["ENOTFOUND", "EAI_AGAIN"])(
    "a name that does not resolve (%s) reads as a refused address",
    async (code) => {
      const { client: logged, lines } = loggingClient({ lookup: doesNotResolve(code) });
      const outcome = failure(await logged.post("https://nowhere.example.test/", {}, "{}"));
      expect(outcome).toMatchObject({ refused: false, error: NOT_PUBLIC_ADDRESS });
      expect(lines[0]?.reason).toBe(
        `nowhere.example.test does not resolve: getaddrinfo ${code} nowhere.example.test`,
      );
    },
  );

  test("a name that resolves to no address reads as a refused address", async () => {
    const outcome = failure(
      await client({ lookup: resolvesTo() }).post("https://hooks.example.test/", {}, "{}"),
    );
    expect(outcome).toMatchObject({ refused: false, error: NOT_PUBLIC_ADDRESS });
  });

  test("only https URLs are delivered to", async () => {
    for (const url of ["http://hooks.example.com/", "ftp://hooks.example.com/", "not a url"]) {
      const outcome = failure(await client().post(url, {}, "{}"));
      expect(outcome.refused).toBe(true);
    }
    expect(failure(await client().post("http://hooks.example.com/", {}, "{}")).error).toBe(
      "only https URLs are delivered to",
    );
  });
});

describe("network failures", () => {
  test("a header value Node will not send is an error outcome, not a throw", async () => {
    const hooks = await receiver();
    const outcome = failure(await trustingClient().post(hooks.url, { "x-bad": "a\r\nb" }, "{}"));
    expect(outcome.refused).toBe(false);
    expect(outcome.error).toMatch(/x-bad/);
  });

  test("a receiver that never answers times out after timeoutMs", async () => {
    const hooks = await receiver({ respond: () => new Promise(() => {}) });
    const outcome = failure(await trustingClient({ timeoutMs: 300 }).post(hooks.url, {}, "{}"));
    expect(outcome).toMatchObject({ refused: false, error: "timed out after 300 ms" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(295);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  test("an untrusted certificate is an error naming the certificate", async () => {
    const hooks = await receiver();
    const outcome = failure(await client({ allowNetworks: loopback }).post(hooks.url, {}, "{}"));
    expect(outcome.refused).toBe(false);
    expect(outcome.error).toMatch(/^certificate: /);
    expect(outcome.error).not.toContain("\n    at ");
    expect(hooks.received).toHaveLength(0);
  });

  test("a closed port is a connection error, not a refusal", async () => {
    const server = net.createServer();
    await listen(server);
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const outcome = failure(await trustingClient().post(`https://127.0.0.1:${port}/`, {}, "{}"));
    expect(outcome).toMatchObject({ refused: false, error: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });
});

describe("refusalReason", () => {
  test.each([
    ["10.1.2.3", "is a private address"],
    ["172.16.0.1", "is a private address"],
    ["192.168.1.1", "is a private address"],
    ["127.0.0.1", "is a loopback address"],
    ["169.254.169.254", "is a link-local address"],
    ["100.64.0.1", "is a carrier-grade NAT address"],
    ["224.0.0.1", "is a multicast address"],
    ["0.0.0.0", "is the unspecified address"],
    ["255.255.255.255", "is the broadcast address"],
    ["192.0.2.1", "is in a documentation range"],
    ["198.51.100.1", "is in a documentation range"],
    ["203.0.113.1", "is in a documentation range"],
    ["240.0.0.1", "is in a reserved range"],
    ["198.18.0.1", "is in a reserved range"],
    ["::1", "is a loopback address"],
    ["::", "is the unspecified address"],
    ["fe80::1", "is a link-local address"],
    ["fc00::1", "is a unique local address"],
    ["ff02::1", "is a multicast address"],
    ["2001:db8::1", "is in a documentation range"],
    ["::ffff:127.0.0.1", "is an IPv4-mapped IPv6 address"],
    ["::ffff:8.8.8.8", "is an IPv4-mapped IPv6 address"],
    ["::7f00:1", "is an IPv4-compatible IPv6 address"],
    ["64:ff9b::a00:1", "is a NAT64 address"],
    ["2002:a00:1::", "is a 6to4 address"],
  ])("%s %s", (address, why) => {
    expect(refusalReason(address, [])).toBe(`${address} ${why}`);
  });

  test.each(["8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001:80b::200e"])(
    "%s may be reached",
    (address) => {
      expect(refusalReason(address, [])).toBeUndefined();
    },
  );

  test("an allow-list entry makes addresses in it reachable, and only those", () => {
    const allow = parseNetworks("10.0.0.0/8");
    expect(refusalReason("10.1.2.3", allow)).toBeUndefined();
    expect(refusalReason("192.168.1.1", allow)).toBe("192.168.1.1 is a private address");
  });

  test("an IPv4 allow entry does not open the IPv4-mapped form; an IPv6 entry can", () => {
    expect(refusalReason("::ffff:127.0.0.1", parseNetworks("127.0.0.0/8"))).toContain("IPv4-mapped");
    expect(refusalReason("::ffff:127.0.0.1", parseNetworks("::ffff:127.0.0.0/104"))).toBeUndefined();
  });

  test("something that is no address is refused", () => {
    expect(refusalReason("example.com", [])).toBe("example.com is not an IP address");
  });
});

describe("parseNetworks", () => {
  test("reads comma-separated IPv4 and IPv6 blocks with spaces", () => {
    const networks = parseNetworks(" 127.0.0.0/8 , ::1/128");
    expect(networks.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      "127.0.0.0/8",
      "::1/128",
    ]);
  });

  test("an empty list is no networks", () => {
    expect(parseNetworks("")).toEqual([]);
    expect(parseNetworks("  ")).toEqual([]);
  });

  test.each(["10.0.0.0/33", "nonsense", "10.0.0.1"])("rejects %s, naming it", (entry) => {
    expect(() => parseNetworks(`127.0.0.0/8, ${entry}`)).toThrow(`"${entry}" is not a CIDR block`);
  });
});

describe("endpointUrlProblem", () => {
  test.each([
    ["http://hooks.example.com/x", "only https URLs are delivered to"],
    ["ftp://hooks.example.com/x", "only https URLs are delivered to"],
    ["garbage", "not a valid URL"],
    ["https://user:pw@hooks.example.com/x", "URLs with a user name or password are not allowed"],
    ["https://127.0.0.1/", NOT_PUBLIC_ADDRESS],
    ["https://[::1]/", NOT_PUBLIC_ADDRESS],
    ["https://2130706433/", NOT_PUBLIC_ADDRESS],
    ["https://10.0.0.1/", NOT_PUBLIC_ADDRESS],
    ["https://169.254.169.254/latest/meta-data", NOT_PUBLIC_ADDRESS],
  ])("%s: %s", (url, problem) => {
    expect(endpointUrlProblem(url, [])).toBe(problem);
  });

  test("a public https URL is fine", () => {
    expect(endpointUrlProblem("https://hooks.example.com/x", [])).toBeUndefined();
    expect(endpointUrlProblem("https://8.8.8.8/x", [])).toBeUndefined();
  });

  test("an allowed network makes its literal addresses fine", () => {
    expect(endpointUrlProblem("https://127.0.0.1:8443/hooks", loopback)).toBeUndefined();
  });
});

function listen(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}

function urlOf(server: net.Server): string {
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}
