/**
 * Upload and download throughput through the gateway against the blob store it ends in, put and
 * got directly with the same bytes in the same run. Rounds alternate between them so that any
 * drift of the machine touches both alike, and each figure is the median round's: one fsync that
 * stalls on this disk (13–65 ms for the same 10 MiB) moved a sum of eight rounds by half.
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
  /** The same store through the thinnest HTTP server in front of it: what any gateway could reach. */
  floor?: Throughput;
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

function send(
  method: "POST" | "PUT",
  url: string,
  headers: http.OutgoingHttpHeaders,
  body: Uint8Array,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
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
  const res = await send(
    "POST",
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
 * socket itself into one buffer that every read reuses. node:http's parser and streams cost a
 * client more per 10 MiB than the gateway spends serving it (300–500 MB/s against 800–1,000 for
 * curl on the same download), and a fresh buffer for every 64 KiB read still halved what this
 * reader took in (500–630 MB/s against 940–1,190 with one buffer): the figure is meant to be the
 * server's. One connection per download: its setup is a tenth of a millisecond against the 10–40
 * of the transfer.
 */
function countedGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number }> {
  const target = new URL(url);
  const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    let status = 0;
    let bytes = 0;
    let remaining = -1;
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    const onRead = (read: number, buffer: Buffer): boolean => {
      if (remaining >= 0) {
        bytes += read;
        remaining -= read;
      } else {
        // The head is copied out: the buffer is overwritten by the next read.
        head = Buffer.concat([head, buffer.subarray(0, read)]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return true;
        const [statusLine = "", ...lines] = head.subarray(0, end).toString("latin1").split("\r\n");
        status = Number(statusLine.split(" ")[1]);
        const length = lines.find((line) => /^content-length:/i.test(line));
        if (!length) {
          fail(new Error(`GET ${target.pathname} answered ${status} without a Content-Length`));
          return false;
        }
        bytes = head.length - end - 4;
        remaining = Number(length.slice("content-length:".length)) - bytes;
      }
      if (remaining <= 0) {
        socket.destroy();
        resolve({ status, bytes });
        return false;
      }
      return true;
    };
    const socket = net.connect({
      port: Number(target.port),
      host: target.hostname,
      onread: { buffer: readBuffer, callback: onRead },
    });
    socket.on("error", reject);
    socket.on("end", () => reject(new Error(`GET ${target.pathname} ended before its body did`)));
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n${fields.join("")}connection: close\r\n\r\n`,
    );
  });
}

/** One download at a time, so one buffer serves them all. */
const readBuffer = Buffer.allocUnsafe(1024 * 1024);

export async function downloadThroughGateway(base: string, key: string, id: string): Promise<void> {
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

/** The median of the rounds' seconds. */
function median(seconds: number[]): number {
  const sorted = [...seconds].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Where a key of the baseline store is put and got through a bare HTTP server in front of it. */
export type FloorUrl = (key: string, method: "PUT" | "GET") => Promise<string>;

/**
 * `floor`: the same store through `bare-blob-server.ts` or `bare-s3-proxy.ts`, measured in the same
 * rounds — what any HTTP server in front of that store could reach at most.
 */
export async function measureTransfer(
  base: string,
  key: string,
  blobs: BlobStore,
  pdf: Uint8Array,
  rounds: number,
  floor?: FloorUrl,
): Promise<TransferResult> {
  const seconds = {
    gatewayUp: [] as number[],
    gatewayDown: [] as number[],
    blobUp: [] as number[],
    blobDown: [] as number[],
    floorUp: [] as number[],
    floorDown: [] as number[],
  };
  const warmUp = await uploadThroughGateway(base, key, pdf);
  await downloadThroughGateway(base, key, warmUp);
  for (let round = 0; round < rounds; round++) {
    const blobKey = `bench/${round}.pdf`;
    seconds.blobUp.push(
      await timed(() =>
        blobs.put(blobKey, Readable.from([pdf]), { contentType: "application/pdf", size: pdf.length }),
      ),
    );
    let id = "";
    seconds.gatewayUp.push(
      await timed(async () => {
        id = await uploadThroughGateway(base, key, pdf);
      }),
    );
    seconds.blobDown.push(await timed(() => getFromStore(blobs, blobKey)));
    seconds.gatewayDown.push(await timed(() => downloadThroughGateway(base, key, id)));
    await blobs.delete(blobKey);
    if (floor) {
      const floorKey = `bench-floor/${round}.pdf`;
      const [putUrl, getUrl] = [await floor(floorKey, "PUT"), await floor(floorKey, "GET")];
      seconds.floorUp.push(await timed(() => putThroughFloor(putUrl, pdf)));
      seconds.floorDown.push(await timed(() => getThroughFloor(getUrl)));
      await blobs.delete(floorKey);
    }
  }
  const mbps = (s: number[]) => Math.round((pdf.length / 1e6 / median(s)) * 10) / 10;
  return {
    sizeMiB: Math.round((pdf.length / 2 ** 20) * 10) / 10,
    rounds,
    gateway: { uploadMBps: mbps(seconds.gatewayUp), downloadMBps: mbps(seconds.gatewayDown) },
    blobStore: { uploadMBps: mbps(seconds.blobUp), downloadMBps: mbps(seconds.blobDown) },
    ...(floor && { floor: { uploadMBps: mbps(seconds.floorUp), downloadMBps: mbps(seconds.floorDown) } }),
  };
}

export async function putThroughFloor(url: string, pdf: Uint8Array): Promise<void> {
  const res = await send(
    "PUT",
    url,
    { "content-type": "application/pdf", "content-length": pdf.length },
    pdf,
  );
  // The file server answers 201 Created; S3 answers a PUT with 200.
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`the store through a bare server answered ${res.status} to a PUT`);
}

async function getThroughFloor(url: string): Promise<void> {
  const res = await countedGet(url, {});
  if (res.status !== 200) throw new Error(`the store through a bare server answered ${res.status} to a GET`);
}
