/**
 * The buffers in which Node reads an upload's body are freed while the body is read, not when V8
 * next happens to collect: the ArrayBuffers alive at any moment of a 40 MiB upload stay a fraction of
 * it. Without the collections the whole body was still held when it ended.
 */
import net, { type AddressInfo } from "node:net";
import { COLLECT_EVERY_BYTES } from "@countersign/kit";
import express from "express";
import { readUpload } from "../src/upload-body.js";

const MiB = 2 ** 20;
const BODY_BYTES = 40 * MiB;

let port = 0;
let close = () => {};
let peakArrayBuffers = 0;
let readBytes = 0;

beforeAll(async () => {
  const app = express();
  app.post("/upload", async (req, res) => {
    const file = await readUpload(req, res, 64 * MiB);
    for await (const chunk of file.bytes) {
      readBytes += chunk.length;
      peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers);
    }
    res.status(201).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});
afterAll(() => close());

/** Sends one raw PDF body, written from a single buffer so that the client adds none of its own. */
function send(body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (text: string) => {
      answer += text;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.end(body);
  });
}

test("the buffers of a body being read are freed every few MiB", async () => {
  const body = Buffer.alloc(BODY_BYTES, 0x25);
  const before = process.memoryUsage().arrayBuffers;
  peakArrayBuffers = before;
  expect(await send(body)).toMatch(/^HTTP\/1\.1 201 /);
  expect(readBytes).toBe(BODY_BYTES);
  // Two intervals of garbage may be alive at once: the last one's, not yet swept, and the current one.
  expect(peakArrayBuffers - before).toBeLessThan(3 * COLLECT_EVERY_BYTES);
});
