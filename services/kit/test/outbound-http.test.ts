/**
 * The kit's one way out, against real loopback servers: an answer is read only up to its kind's cap
 * (decoded bytes, so a gzip bomb too) and deadline, redirects only as far as allowed and each hop's
 * address checked again, a credential never follows a redirect to another origin, and a library's
 * fetch gets a Response of what was read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { NOT_PUBLIC_ADDRESS, parseNetworks } from "../src/address-policy.js";
import { OutboundClient, OutboundError, peerFailure } from "../src/outbound-http.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];
const clients: OutboundClient[] = [];

async function serve(
  handler: Handler,
): Promise<{ url: string; sent: () => number; seen: IncomingMessage[] }> {
  let sent = 0;
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent, seen };
}

function client(reach: "public" | "any" = "public"): OutboundClient {
  const made = new OutboundClient({ purpose: "test", reach, allowNetworks: parseNetworks("127.0.0.0/8") });
  clients.push(made);
  return made;
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(err instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${String(err)}`);
  return err;
}

/** Writes `total` bytes in 64 KiB chunks as the socket takes them. */
function pump(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let left = total;
  const next = () => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once("drain", next);
    }
    if (!res.destroyed) res.end();
  };
  next();
}

afterEach(async () => {
  for (const made of clients.splice(0)) made.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

describe("answers are read up to their cap", () => {
  test("an answer within the cap comes back whole with its status and headers", async () => {
    const peer = await serve((_req, res) => res.writeHead(201, { "x-kind": "small" }).end("hello"));
    const answer = await client().request(peer.url, {}, { maxBytes: 10, timeoutMs: 5_000 });
    expect(answer).toMatchObject({ status: 201, truncated: false, url: `${peer.url}/` });
    expect(answer.headers["x-kind"]).toBe("small");
    expect(answer.body.toString()).toBe("hello");
  });

  test("a streamed answer over the cap fails as too large, and the peer is hung up on", async () => {
    const peer = await serve((_req, res) => {
      res.writeHead(200);
      pump(res, 200 * 1024 * 1024);
    });
    const err = await failureOf(client().request(peer.url, {}, { maxBytes: 64 * 1024, timeoutMs: 10_000 }));
    expect(err.failure).toBe("too-large");
    expect(peerFailure(err)).toBe("answered more than 65536 bytes");
    expect(peer.sent()).toBeLessThan(16 * 1024 * 1024);
  });

  test("the cap counts decoded bytes: a gzip bomb fails as too large", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const peer = await serve((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(bomb));
    const err = await failureOf(client().request(peer.url, {}, { maxBytes: 64 * 1024, timeoutMs: 10_000 }));
    expect(err.failure).toBe("too-large");
  });

  test("with keep first-bytes the first maxBytes are kept and marked truncated", async () => {
    const peer = await serve((_req, res) => {
      res.writeHead(200);
      pump(res, 10 * 1024 * 1024);
    });
    const answer = await client().request(
      peer.url,
      {},
      { maxBytes: 1000, timeoutMs: 10_000, keep: "first-bytes" },
    );
    expect(answer.body.length).toBe(1000);
    expect(answer.truncated).toBe(true);
  });

  test("a peer that trickles stays within the one deadline for the whole exchange", async () => {
    const peer = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const err = await failureOf(client().request(peer.url, {}, { maxBytes: 1_000_000, timeoutMs: 400 }));
    expect(err.failure).toBe("timeout");
    expect(peerFailure(err)).toBe("did not answer within 400 ms");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("redirects", () => {
  test("none are followed unless the kind allows them: the 3xx is the answer", async () => {
    const peer = await serve((_req, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    const answer = await client().request(peer.url, {}, { maxBytes: 100, timeoutMs: 5_000 });
    expect(answer.status).toBe(302);
    expect(peer.seen).toHaveLength(1);
  });

  test("allowed ones are followed, as far as allowed and no further", async () => {
    const peer = await serve((req, res) => {
      const hop = Number(req.url?.slice(1) || "0");
      if (hop < 5) res.writeHead(302, { location: `/${hop + 1}` }).end();
      else res.writeHead(200).end("arrived");
    });
    const followed = await client().request(
      `${peer.url}/2`,
      {},
      { maxBytes: 100, timeoutMs: 5_000, redirects: 3 },
    );
    expect(followed.body.toString()).toBe("arrived");
    expect(followed.url).toBe(`${peer.url}/5`);
    const err = await failureOf(
      client().request(`${peer.url}/0`, {}, { maxBytes: 100, timeoutMs: 5_000, redirects: 3 }),
    );
    expect(err.failure).toBe("redirects");
  });

  test("each hop's address is checked again: a redirect to a refused address is refused", async () => {
    const peer = await serve((_req, res) =>
      res.writeHead(307, { location: "http://10.1.2.3/internal" }).end(),
    );
    const err = await failureOf(
      client().request(peer.url, {}, { maxBytes: 100, timeoutMs: 5_000, redirects: 3 }),
    );
    expect(err).toMatchObject({ failure: "refused", message: NOT_PUBLIC_ADDRESS });
  });

  test("a credential does not follow a redirect to another origin", async () => {
    const other = await serve((_req, res) => res.writeHead(200).end("other"));
    const first = await serve((_req, res) => res.writeHead(307, { location: `${other.url}/x` }).end());
    await client().request(
      first.url,
      // However the caller spells them.
      { headers: { Authorization: "Basic c2VjcmV0", Cookie: "session=1", "x-kept": "yes" } },
      { maxBytes: 100, timeoutMs: 5_000, redirects: 1 },
    );
    expect(first.seen[0]?.headers).toMatchObject({ authorization: "Basic c2VjcmV0", cookie: "session=1" });
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
    expect(other.seen[0]?.headers.cookie).toBeUndefined();
    expect(other.seen[0]?.headers["x-kept"]).toBe("yes");
  });
});

describe("addresses", () => {
  test("a public-reach client refuses loopback it was not allowed, before connecting", async () => {
    const peer = await serve((_req, res) => res.end("hi"));
    const strict = new OutboundClient({ purpose: "test", reach: "public" });
    clients.push(strict);
    const err = await failureOf(strict.request(peer.url, {}, { maxBytes: 100, timeoutMs: 5_000 }));
    expect(err).toMatchObject({ failure: "refused", message: NOT_PUBLIC_ADDRESS });
    expect(peer.seen).toHaveLength(0);
  });

  test("an any-reach client (a peer the operator configured) reaches loopback", async () => {
    const peer = await serve((_req, res) => res.end("hi"));
    const operators = new OutboundClient({ purpose: "test", reach: "any" });
    clients.push(operators);
    expect((await operators.request(peer.url, {}, { maxBytes: 100, timeoutMs: 5_000 })).body.toString()).toBe(
      "hi",
    );
  });
});

describe("fetcher", () => {
  test("answers a Response of the decoded body, sending a form body as a library does", async () => {
    const peer = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () =>
        res
          .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
          .end(zlib.gzipSync(JSON.stringify({ got: Buffer.concat(chunks).toString() }))),
      );
    });
    const fetch = client().fetcher({ maxBytes: 1000, timeoutMs: 5_000 });
    const response = await fetch(`${peer.url}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "authorization_code", code: "abc" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${peer.url}/token`);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual({ got: "grant_type=authorization_code&code=abc" });
  });

  test("redirect manual answers the 3xx; error fails on it", async () => {
    const peer = await serve((_req, res) => res.writeHead(301, { location: "/moved" }).end());
    const fetch = client().fetcher({ maxBytes: 1000, timeoutMs: 5_000, redirects: 2 });
    expect((await fetch(peer.url, { redirect: "manual" })).status).toBe(301);
    expect((await failureOf(fetch(peer.url, { redirect: "error" }))).failure).toBe("redirects");
  });
});
