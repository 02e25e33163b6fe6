/** A TCP port on loopback that nothing listens on right now. */
import net, { type AddressInfo } from "node:net";

/**
 * Ports handed out by this process: one released by its probe may be handed out again by the
 * system before the process it was meant for binds it, so each is handed out once.
 */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
