import { readFileSync } from "node:fs";
import net from "node:net";
import { freePort } from "./free-port.js";

const ephemeralStart = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);

test("ports are handed out below the range outgoing connections take theirs from, each once, and bindable on every interface", async () => {
  const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
  expect(ports.every((port) => port >= 20_000 && port < ephemeralStart)).toBe(true);
  expect(new Set(ports).size).toBe(50);
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(ports[0], "0.0.0.0", resolve));
  await new Promise((resolve) => server.close(resolve));
});
