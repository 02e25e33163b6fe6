/**
 * Which network addresses an outbound call may reach. Peers an outside party names (a webhook
 * endpoint, a workspace's identity provider) must be on the public internet unless an operator lists
 * their network; the check runs on every address a name resolves to, at connect time, so a name that
 * resolves to a public address when it is saved and to 127.0.0.1 when it is used (DNS rebinding) is
 * still refused. Whoever asked reads one sentence for every refusal, whatever the address, and a name
 * that does not resolve reads the same, so no answer maps our network; the detail is for operators.
 */
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

/**
 * The whole answer for an address that may not be reached and for a name that does not resolve:
 * telling them apart, or naming the address, would let a caller probe our internal names.
 */
export const NOT_PUBLIC_ADDRESS =
  "the address is not a public internet address; only public addresses are reached";

/** Parses "127.0.0.0/8, ::1/128" (comma-separated, spaces allowed, empty string → []). */
export function parseNetworks(list: string): Network[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not a CIDR block`);
      return ipaddr.parseCIDR(entry);
    });
}

// ipaddr.js files the documentation ranges under "reserved" together with others; these tell them apart.
const documentationRanges = [
  "192.0.2.0/24",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "2001:db8::/32",
  "3fff::/20",
].map((cidr) => ipaddr.parseCIDR(cidr));

const ipv4Compatible = ipaddr.parseCIDR("::/96");

// Readable names for ipaddr.js range names; a range it adds later still gets refused, under its own name.
const rangeWords: Record<string, string> = {
  private: "a private address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  reserved: "in a reserved range",
  uniqueLocal: "a unique local address",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "in a benchmarking range",
  amt: "an AMT relay address",
  as112: "an AS112 address",
  as112v6: "an AS112 address",
  deprecatedSiteLocal: "a site-local address",
  deprecatedOrchid: "an ORCHID address",
  orchid2: "an ORCHIDv2 address",
  discard: "in the discard prefix",
  droneRemoteIdProtocolEntityTags: "a drone remote ID address",
  segmentRouting: "a segment routing address",
};

function matchesAny(address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly Network[]): boolean {
  // match() throws when the families differ.
  return networks.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** What makes an address unreachable ("is a loopback address"), or undefined when it may be reached. */
function refusal(address: string, allowNetworks: readonly Network[]): string | undefined {
  if (!ipaddr.isValid(address)) return "is not an IP address";
  // parse(), not process(): process() turns ::ffff:127.0.0.1 into 127.0.0.1, and an IPv4 allow entry
  // would then open IPv4-mapped addresses too. Mapped addresses pass only an IPv6 allow entry.
  const parsed = ipaddr.parse(address);
  if (matchesAny(parsed, allowNetworks)) return undefined;
  const range = parsed.range();
  // ipaddr.js calls IPv4-compatible IPv6 (::/96, deprecated) unicast; it embeds an IPv4 address.
  if (range === "unicast" && parsed.kind() === "ipv6" && parsed.match(ipv4Compatible)) {
    return "is an IPv4-compatible IPv6 address";
  }
  if (range === "unicast") return undefined;
  if (range === "reserved" && matchesAny(parsed, documentationRanges)) return "is in a documentation range";
  return `is ${rangeWords[range] ?? `in the ${range} range`}`;
}

/** Why an address may not be reached, in words ("127.0.0.1 is a loopback address"), or undefined when it may. */
export function refusalReason(address: string, allowNetworks: readonly Network[]): string | undefined {
  const why = refusal(address, allowNetworks);
  return why === undefined ? undefined : `${address} ${why}`;
}

/**
 * The network a client address stands for when counting what one client does: an IPv4 address
 * itself (IPv4-mapped IPv6 included), an IPv6 address's /64 — one subscriber's prefix, in which a
 * host may take as many addresses as it likes.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

/** The URL's host when it is an IP address (IPv6 without brackets). */
export function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return net.isIP(host) === 0 ? undefined : host;
}

/** Whether a URL names, by its literal address, a host outside the allowed addresses (names are checked when resolved). */
export function literalRefused(url: URL, allowNetworks: readonly Network[]): boolean {
  const host = literalHost(url);
  return host !== undefined && refusal(host, allowNetworks) !== undefined;
}

/** An address the policy will not connect to, or no address at all; `detail` is for operators only. */
export class UnreachableAddress extends Error {
  override name = "UnreachableAddress";

  constructor(
    readonly detail: string,
    /** The policy refused an address; false when the name gave none. */
    readonly refused: boolean,
  ) {
    super(NOT_PUBLIC_ADDRESS);
  }
}

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true });

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for an HTTP agent that resolves through `resolve` and refuses a name any of whose
 * addresses is not allowed: one bad record among good ones is how a rebinding name would look.
 */
export function guardedLookup(
  allowNetworks: readonly Network[],
  resolve: LookupAll = systemLookup,
): net.LookupFunction {
  const allowed = async (hostname: string, family: dns.LookupOptions["family"]) => {
    let all: { address: string; family: number }[];
    try {
      all = await resolve(hostname);
    } catch (err) {
      throw new UnreachableAddress(`${hostname} does not resolve: ${(err as Error).message}`, false);
    }
    for (const { address } of all) {
      const why = refusal(address, allowNetworks);
      if (why !== undefined)
        throw new UnreachableAddress(`${hostname} resolves to ${address}, which ${why}`, true);
    }
    const wanted = family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0;
    const usable = all.filter((entry) => wanted === 0 || entry.family === wanted);
    if (usable.length === 0)
      throw new UnreachableAddress(`${hostname} has no ${wanted === 0 ? "" : `IPv${wanted} `}address`, false);
    return usable;
  };
  return ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    allowed(hostname, options.family).then(
      (addresses) => {
        // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), one otherwise.
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? "", addresses[0]?.family);
      },
      (err: Error) => callback(err, ""),
    );
  }) as unknown as net.LookupFunction;
}
