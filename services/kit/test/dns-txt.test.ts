/**
 * TXT lookups against a real DNS server on loopback (dns2) that answers as it is told: records are
 * read, and a server that answers too much or never answers costs a bounded lookup.
 */

import { startDnsPeer } from "../../../test/support/dns-peer.js";
import { dnsConfig, lookupTxt, TXT_LIMITS, TxtLookupFailed } from "../src/dns-txt.js";

let dns: Awaited<ReturnType<typeof startDnsPeer>>;

beforeAll(async () => {
  dns = await startDnsPeer();
});
afterAll(() => dns.close());

test("a name's TXT records are answered, each record's strings joined; a name without any answers none", async () => {
  dns.txt.set("_countersign.example.com", [["countersign-verification=", "abc"], ["v=spf1 -all"]]);
  expect(await lookupTxt("_countersign.example.com", { servers: [dns.server] })).toEqual([
    "countersign-verification=abc",
    "v=spf1 -all",
  ]);
  expect(await lookupTxt("_countersign.nothing.example", { servers: [dns.server] })).toEqual([]);
});

test("an answer of more and longer records than anyone needs is cut to the limits", async () => {
  const long = "x".repeat(250);
  dns.txt.set(
    "_countersign.flood.example",
    Array.from({ length: 30 }, (_, i) => [`${i}-`, long, long, long, long, long]),
  );
  const records = await lookupTxt("_countersign.flood.example", { servers: [dns.server] });
  expect(records).toHaveLength(TXT_LIMITS.records);
  for (const record of records) expect(record.length).toBeLessThanOrEqual(TXT_LIMITS.chars);
});

test("a server that never answers fails the lookup as a timeout within its bound", async () => {
  dns.silent.add("_countersign.silent.example");
  const started = Date.now();
  const failure = await lookupTxt("_countersign.silent.example", {
    servers: [dns.server],
    timeoutMs: 200,
    tries: 2,
  }).catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(TxtLookupFailed);
  expect((failure as TxtLookupFailed).reason).toBe("timeout");
  // Two tries of 200 ms, with the lookup's own margin; never the resolver's defaults.
  expect(Date.now() - started).toBeLessThan(2000);
});

test("COUNTERSIGN_DNS_SERVERS takes IP addresses with optional ports, and refuses names", () => {
  const parse = (value: string) => dnsConfig.COUNTERSIGN_DNS_SERVERS.safeParse(value);
  expect(parse("1.1.1.1, 127.0.0.1:5353,[::1]:53").data).toEqual(["1.1.1.1", "127.0.0.1:5353", "[::1]:53"]);
  expect(parse("dns.example.com").success).toBe(false);
  expect(parse("127.0.0.1:99999").success).toBe(false);
});
