/** Baseline: Node's http server answering GET /v1/ping with the gateway's JSON and nothing else. */
import http from "node:http";

const body = JSON.stringify({ status: "ok" });
const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/v1/ping") {
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  res.writeHead(404);
  res.end();
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ listening: (server.address() as { port: number }).port }));
});
