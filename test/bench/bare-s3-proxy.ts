/**
 * Baseline: the thinnest HTTP hop Node has in front of an S3 endpoint — every request, a presigned
 * PUT or GET, piped to S3_ENDPOINT and its answer piped back — in a process of its own, as the
 * gateway is. What an HTTP client gets of the store through one more server before any of
 * Countersign's work: the floor under the gateway's transfers in distributed mode.
 */
import http from "node:http";
import { pipeline } from "node:stream/promises";

const endpoint = new URL(process.env.S3_ENDPOINT ?? "");
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const upstream = http.request(
    {
      host: endpoint.hostname,
      port: endpoint.port,
      method: req.method,
      path: req.url,
      // A presigned URL's signature covers the Host it was signed for: the endpoint's.
      headers: { ...req.headers, host: endpoint.host },
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, res).catch(() => res.destroy());
    },
  );
  upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  pipeline(req, upstream).catch(() => upstream.destroy());
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ listening: (server.address() as { port: number }).port }));
});
