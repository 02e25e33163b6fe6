/** Baseline: a bare Express app answering GET /v1/ping with the gateway's JSON and nothing else. */
import express from "express";

const app = express();
// The same settings as the gateway, so that the ratio prices our code and not what it switched off.
app.disable("x-powered-by");
app.disable("etag");
app.get("/v1/ping", (_req, res) => {
  res.json({ status: "ok" });
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ listening: (server.address() as { port: number }).port }));
});
