/**
 * A real DNS server on loopback (dns2, over UDP and TCP on one port, so a resolver can fall back
 * to TCP for a long answer) that answers TXT queries from `txt`, never answers a name in `silent`,
 * and answers every other name with no records.
 */
import { createServer } from "node:net";
import dns2 from "dns2";

const { Packet } = dns2;

/** A port free for TCP now, which is then asked of UDP too (their port spaces are apart). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startDnsPeer() {
  /** Each name's records, each record its strings. */
  const txt = new Map<string, string[][]>();
  const silent = new Set<string>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle(request, send) {
      const question = request.questions[0];
      const name = question?.name.toLowerCase() ?? "";
      if (silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      if (question?.type === Packet.TYPE.TXT) {
        for (const record of txt.get(name) ?? []) {
          response.answers.push(
            new Packet.Resource({
              name,
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 60,
              data: record,
            }),
          );
        }
      }
      send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return {
    /** The address a resolver is given. */
    server: `127.0.0.1:${port}`,
    txt,
    silent,
    close: () => server.close(),
  };
}
