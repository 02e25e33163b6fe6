/**
 * Graceful close: a request in flight when the gateway starts closing is answered in full, its
 * kept-alive connection is closed after the answer instead of taking further requests, and the close
 * ends as soon as the last answer is out rather than at the grace period's cut.
 */
import http from "node:http";
import express from "express";
import { listen } from "../src/http-server.js";

function get(
  agent: http.Agent,
  url: string,
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (piece: string) => (body += piece));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
        );
      })
      .on("error", reject);
  });
}

test("requests in flight at close are answered, their connections closed, and close ends with them", async () => {
  const server = await listen(0, "127.0.0.1", 30_000);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const app = express();
  app.get("/slow", async (_req, res) => {
    await held;
    res.json({ answered: "slow" });
  });
  app.get("/stream", async (_req, res) => {
    res.write('{"answered":');
    await held;
    res.end('"stream"}');
  });
  server.serve(app);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  // Both connections carried a request before, so neither is new when the close begins.
  await get(agent, `${server.url}/nothing`);
  const slow = get(agent, `${server.url}/slow`);
  const stream = get(agent, `${server.url}/stream`);
  await new Promise((resolve) => setTimeout(resolve, 100));

  const startedClosing = Date.now();
  let closed = false;
  const closing = server.close().then(() => {
    closed = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(closed).toBe(false);
  release();

  // The answer not begun at the close says so; the one already streaming keeps its headers.
  await expect(slow).resolves.toEqual({ status: 200, connection: "close", body: '{"answered":"slow"}' });
  await expect(stream).resolves.toMatchObject({ status: 200, body: '{"answered":"stream"}' });
  await closing;
  expect(Date.now() - startedClosing).toBeLessThan(5_000);
  agent.destroy();
});
