/**
 * The time-stamping client takes a token only when it is one for what it asked: it is checked
 * against the local OpenSSL authority, and against the same authority's real answers bent on the
 * way — to another digest, another nonce, a refusal — and against one that never answers, or whose
 * root is not the configured one. Each refusal names what was wrong.
 */
import { randomBytes, X509Certificate } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import {
  type LocalTimestampAuthority,
  startLocalTimestampAuthority,
} from "../deploy/local/src/timestamp-authority.js";
import {
  requestTimestamp,
  type TimestampAuthority,
} from "../services/requests/src/pdf/pades/timestamp-client.js";

let authority: LocalTimestampAuthority;
let other: LocalTimestampAuthority;
const servers: Server[] = [];

beforeAll(async () => {
  authority = await startLocalTimestampAuthority(await mkdtemp(join(tmpdir(), "tsa-")));
  other = await startLocalTimestampAuthority(await mkdtemp(join(tmpdir(), "tsa-other-")));
}, 60_000);
afterAll(async () => {
  await authority.close();
  await other.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

const anchor = (pem: string) => new X509Certificate(pem).raw;
const settings = (url: string, extra: Partial<TimestampAuthority> = {}): TimestampAuthority => ({
  url,
  timeoutMs: 5000,
  trustAnchors: [anchor(authority.rootPem)],
  ...extra,
});

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });

/** A server between the client and the real authority, changing the query or the answer. */
async function between(bend: (query: pkijs.TimeStampReq) => Promise<Uint8Array>): Promise<string> {
  const server = createServer(async (req, res) => {
    const query = pkijs.TimeStampReq.fromBER(new Uint8Array(await body(req)));
    const answer = await bend(query);
    res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(Buffer.from(answer));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** What the real authority answers to `query`. */
async function realAnswer(query: pkijs.TimeStampReq): Promise<Uint8Array> {
  const res = await fetch(authority.url, {
    method: "POST",
    headers: { "content-type": "application/timestamp-query" },
    body: new Uint8Array(query.toSchema().toBER()),
  });
  return new Uint8Array(await res.arrayBuffer());
}

test("a token from the authority is taken, with the time it vouches for", async () => {
  const before = Date.now();
  const stamp = await requestTimestamp(settings(authority.url), Buffer.from("the sealed bytes"));
  expect(stamp.token.length).toBeGreaterThan(1000);
  // OpenSSL's accuracy is one second, and its time whole seconds.
  expect(stamp.time.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
  expect(stamp.time.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
});

test("a token for another digest is refused", async () => {
  const url = await between((query) => {
    query.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: randomBytes(32) });
    return realAnswer(query);
  });
  await expect(requestTimestamp(settings(url), Buffer.from("x"))).rejects.toThrow(
    "stamped another digest than the one it was sent",
  );
});

test("a token for another request (its nonce) is refused", async () => {
  const url = await between((query) => {
    query.nonce = new asn1js.Integer({ value: 42 });
    return realAnswer(query);
  });
  await expect(requestTimestamp(settings(url), Buffer.from("x"))).rejects.toThrow("its nonce differs");
});

test("a refusal is reported with the authority's status and words", async () => {
  const url = await between(async () => {
    const refusal = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({
        status: pkijs.PKIStatus.rejection,
        statusStrings: [new asn1js.Utf8String({ value: "quota exceeded" })],
      }),
    });
    return new Uint8Array(refusal.toSchema().toBER());
  });
  await expect(requestTimestamp(settings(url), Buffer.from("x"))).rejects.toThrow(
    "refused to stamp: rejection (quota exceeded)",
  );
});

test("a token whose authority does not chain to the configured root is refused", async () => {
  await expect(requestTimestamp(settings(other.url), Buffer.from("x"))).rejects.toThrow(
    "does not chain to the configured trust anchors",
  );
  // Without a configured root, the token's own certificate is believed.
  await expect(
    requestTimestamp(settings(other.url, { trustAnchors: undefined }), Buffer.from("x")),
  ).resolves.toMatchObject({ time: expect.any(Date) });
});

test("an authority that does not answer in time, or answers nonsense, is an error naming it", async () => {
  const silent = createServer(() => {});
  servers.push(silent);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const port = (silent.address() as AddressInfo).port;
  await expect(
    requestTimestamp(settings(`http://127.0.0.1:${port}/`, { timeoutMs: 300 }), Buffer.from("x")),
  ).rejects.toThrow(`the time-stamping authority at 127.0.0.1:${port} did not answer within 300 ms`);
  const nonsense = await between(async () => Buffer.from("<html>busy</html>"));
  await expect(requestTimestamp(settings(nonsense), Buffer.from("x"))).rejects.toThrow(
    "answered with something that is not a time-stamp response",
  );
});
