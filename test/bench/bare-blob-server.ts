/**
 * Baseline: the filesystem blob store behind the thinnest HTTP server Node has — PUT /blobs/{key}
 * streams the body into the store, GET /blobs/{key} streams the stored file out — in a process of
 * its own, as the gateway is. What an HTTP client gets of the store before any of Countersign's
 * work: the floor under the gateway's transfers in standalone mode.
 */
import http from "node:http";
import { pipeline } from "node:stream/promises";
import { FileBlobStore } from "@countersign/kit";

const blobs = new FileBlobStore(process.env.BLOB_DIR ?? "");

const server = http.createServer(async (req, res) => {
  const key = req.url?.startsWith("/blobs/") ? decodeURIComponent(req.url.slice("/blobs/".length)) : "";
  try {
    if (req.method === "PUT" && key) {
      await blobs.put(key, req);
      res.writeHead(201).end();
    } else if (req.method === "GET" && key) {
      const size = (await blobs.stat(key))?.size;
      if (size === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/pdf", "content-length": size });
      await pipeline(await blobs.get(key), res);
    } else res.writeHead(404).end();
  } catch (err) {
    if (!res.headersSent) res.writeHead(500).end(String(err));
  }
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ listening: (server.address() as { port: number }).port }));
});
