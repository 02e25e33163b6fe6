/**
 * Upload and download throughput through the gateway against the blob store it ends in, put and
 * got directly with the same bytes in the same run. Rounds alternate between the two so that any
 * drift of the machine touches both alike.
 */
import http from "node:http";
import net from "node:net";
import { Readable } from "node:stream";
import type { BlobStore } from "@countersign/kit";

export interface Throughput {
  uploadMBps: number;
  downloadMBps: number;
}

export interface TransferResult {
  sizeMiB: number;
  rounds: number;
  gateway: Throughput;
  blobStore: Throughput;
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

async function timed(operation: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await operation();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** node:http with keep-alive: fetch's web streams would cost the client more than the server. */
const agent = new http.Agent({ keepAlive: true });

function post(
  url: string,
  headers: http.OutgoingHttpHeaders,
  body: Uint8Array,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function uploadThroughGateway(base: string, key: string, pdf: Uint8Array): Promise<string> {
  const res = await post(
    `${base}/documents/upload?filename=bench.pdf`,
    { authorization: `Bearer ${key}`, "content-type": "application/pdf", "content-length": pdf.length },
    pdf,
  );
  const body = JSON.parse(res.body.toString("utf8")) as { id?: string; detail?: string };
  if (res.status !== 201 || !body.id) throw new Error(`upload answered ${res.status}: ${body.detail}`);
  return body.id;
}

/**
 * A GET whose body is counted and dropped, as a client streaming to disk would, read from the
 * socket itself. node:http's parser and streams cost a client more per 10 MiB than the gateway
 * spends serving it (300–500 MB/s against 800–1,000 for this reader and for curl, on the same
 * download), and the figure is meant to be the gateway's. One connection per download: its setup
 * is a tenth of a millisecond against the 10–40 of the transfer.
 */
function countedGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number }> {
  const target = new URL(url);
  const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    let head = Buffer.alloc(0);
    let status = 0;
    let bytes = 0;
    let remaining = -1;
    socket.on("data", (chunk: Buffer) => {
      if (remaining >= 0) {
        bytes += chunk.length;
        remaining -= chunk.length;
      } else {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        const [statusLine = "", ...lines] = head.subarray(0, end).toString("latin1").split("\r\n");
        status = Number(statusLine.split(" ")[1]);
        const length = lines.find((line) => /^content-length:/i.test(line));
        if (!length) {
          socket.destroy();
          reject(new Error(`GET ${target.pathname} answered ${status} without a Content-Length`));
          return;
        }
        bytes = head.length - end - 4;
        remaining = Number(length.slice("content-length:".length)) - bytes;
      }
      if (remaining <= 0) {
        socket.destroy();
        resolve({ status, bytes });
      }
    });
    socket.on("error", reject);
    socket.on("end", () => reject(new Error(`GET ${target.pathname} ended before its body did`)));
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n${fields.join("")}connection: close\r\n\r\n`,
    );
  });
}

async function downloadThroughGateway(base: string, key: string, id: string): Promise<void> {
  const res = await countedGet(`${base}/documents/${id}/download`, { authorization: `Bearer ${key}` });
  if (res.status !== 200) throw new Error(`download answered ${res.status}`);
}

/**
 * An object got from the store directly: over HTTP by the same client as the gateway's downloads
 * where the store serves HTTP (S3), so that both figures count the same client; read from the
 * file system inside this process otherwise.
 */
async function getFromStore(blobs: BlobStore, key: string): Promise<void> {
  if (!blobs.readUrl) return drain(await blobs.get(key));
  const res = await countedGet(await blobs.readUrl(key, 60), {});
  if (res.status !== 200) throw new Error(`the store answered ${res.status}`);
}

export async function measureTransfer(
  base: string,
  key: string,
  blobs: BlobStore,
  pdf: Uint8Array,
  rounds: number,
): Promise<TransferResult> {
  const seconds = { gatewayUp: 0, gatewayDown: 0, blobUp: 0, blobDown: 0 };
  const warmUp = await uploadThroughGateway(base, key, pdf);
  await downloadThroughGateway(base, key, warmUp);
  for (let round = 0; round < rounds; round++) {
    const blobKey = `bench/${round}.pdf`;
    seconds.blobUp += await timed(() =>
      blobs.put(blobKey, Readable.from([pdf]), { contentType: "application/pdf", size: pdf.length }),
    );
    let id = "";
    seconds.gatewayUp += await timed(async () => {
      id = await uploadThroughGateway(base, key, pdf);
    });
    seconds.blobDown += await timed(() => getFromStore(blobs, blobKey));
    seconds.gatewayDown += await timed(() => downloadThroughGateway(base, key, id));
    await blobs.delete(blobKey);
  }
  const mbps = (s: number) => Math.round(((pdf.length * rounds) / 1e6 / s) * 10) / 10;
  return {
    sizeMiB: Math.round((pdf.length / 2 ** 20) * 10) / 10,
    rounds,
    gateway: { uploadMBps: mbps(seconds.gatewayUp), downloadMBps: mbps(seconds.gatewayDown) },
    blobStore: { uploadMBps: mbps(seconds.blobUp), downloadMBps: mbps(seconds.blobDown) },
  };
}
