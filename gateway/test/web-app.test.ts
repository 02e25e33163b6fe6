/**
 * A built web app's assets go out compressed to a browser that takes it, Brotli first, from the
 * files the build wrote beside them, with their own type and long caching; a client that takes
 * neither gets the file itself. Sent as they were, the signing page's scripts crossed a phone's
 * network at three times their compressed size.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import express from "express";
import { appPage, webApp } from "../src/web-app.js";

let dir: string;
let url: string;
let close: () => void;
const script = `console.log(${JSON.stringify("a signing page ".repeat(200))});`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "web-app-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), "<!doctype html><title>app</title>");
  await writeFile(join(dir, "assets/index-abc.js"), script);
  await writeFile(join(dir, "assets/index-abc.js.br"), brotliCompressSync(script));
  await writeFile(join(dir, "assets/index-abc.js.gz"), gzipSync(script));
  const app = express();
  app.use("/sign", webApp({ dir, pages: ["/"], name: "signing page" }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sign/assets/index-abc.js`;
  close = () => server.close();
});
afterAll(async () => {
  close();
  await rm(dir, { recursive: true, force: true });
});

/** node:http, which leaves the body as it came (fetch would decode it). */
async function get(acceptEncoding?: string): Promise<{ headers: Headers; body: Buffer }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) headers.set(name, String(value));
          resolve({ headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test("a browser that takes Brotli gets the Brotli file, typed and cached as the script", async () => {
  const { headers, body } = await get("gzip, deflate, br");
  expect(headers.get("content-encoding")).toBe("br");
  expect(headers.get("content-type")).toMatch(/javascript/);
  expect(headers.get("vary")).toMatch(/accept-encoding/i);
  expect(headers.get("cache-control")).toMatch(/immutable/);
  expect(brotliDecompressSync(body).toString()).toBe(script);
  expect(body.length).toBeLessThan(script.length / 3);
});

test("gzip goes to a client that takes only gzip, and the file itself to one that takes neither", async () => {
  expect((await get("gzip")).headers.get("content-encoding")).toBe("gzip");
  const plain = await get();
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(plain.body.toString()).toBe(script);
});

test("a page served for a frame is framed by that origin alone and carries its meta, escaped, in its head", async () => {
  const built = await mkdtemp(join(tmpdir(), "web-app-framed-"));
  await writeFile(join(built, "index.html"), "<!doctype html><html><head><title>app</title></head></html>");
  const app = express();
  const send = appPage({ dir: built, name: "signing page" });
  app.get("/framed", (req, res) =>
    send(req, res, { frameAncestor: "https://app.example.com", meta: { "a-session": 'x"><script>' } }),
  );
  app.get("/own", (req, res) => send(req, res));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const framed = await fetch(`${base}/framed`);
    expect(framed.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://app.example.com;",
    );
    expect(await framed.text()).toBe(
      '<!doctype html><html><head><meta name="a-session" content="x&quot;&gt;&lt;script&gt;"><title>app</title></head></html>',
    );
    const own = await fetch(`${base}/own`);
    expect(own.headers.get("content-security-policy")).toContain("frame-ancestors 'none';");
    expect(own.headers.get("cache-control")).toBe("no-store");
  } finally {
    server.close();
    await rm(built, { recursive: true, force: true });
  }
});
