/**
 * A download whose documents service names a direct URL of its blob store streams the bytes from
 * that URL with the document's own headers — a presigned URL, or a stored file of the filesystem
 * store the gateway was told it shares, and no file outside it; a store that does not answer is a
 * 503 with Retry-After, an object gone a 404; without a URL the chunks of the RPC stream are sent.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { create } from "@bufbuild/protobuf";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import {
  DocumentSchema,
  DocumentsService,
  type DownloadDocumentRequest,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { createLogger } from "@countersign/kit";
import express from "express";
import { sendDocument } from "../src/document-download.js";
import { problemHandler } from "../src/middleware/errors.js";

const bytes = randomBytes(300_000);
const document = create(DocumentSchema, {
  id: "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b",
  filename: "Lease.pdf",
  contentType: "application/pdf",
  sizeBytes: BigInt(bytes.length),
  sha256: "ab".repeat(32),
});

let store: http.Server;
let storeUrl: string;
const storeRequests: string[] = [];
let storeStatus = 200;

beforeAll(async () => {
  store = http.createServer((req, res) => {
    storeRequests.push(req.url ?? "");
    res.writeHead(storeStatus, { "content-length": storeStatus === 200 ? bytes.length : 0 });
    res.end(storeStatus === 200 ? bytes : undefined);
  });
  await new Promise<void>((resolve) => store.listen(0, "127.0.0.1", resolve));
  storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => store.close(resolve)));

/**
 * A gateway route over a documents service that answers with `directUrl` when the gateway accepts
 * its kind (a file: URL where it reads `blobFiles`), and with chunks otherwise.
 */
async function gatewayWith(
  directUrl: string | undefined,
  blobFiles?: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const asked: DownloadDocumentRequest[] = [];
  const documents = createClient(
    DocumentsService,
    createRouterTransport(({ service }) =>
      service(DocumentsService, {
        async *downloadDocument(req) {
          asked.push(req);
          yield { part: { case: "document", value: document } };
          const accepted = directUrl?.startsWith("file:") ? req.acceptFileUrl : req.acceptDirectUrl;
          if (directUrl && accepted) yield { part: { case: "directUrl", value: directUrl } };
          else
            for (let at = 0; at < bytes.length; at += 100_000)
              yield { part: { case: "chunk", value: bytes.subarray(at, at + 100_000) } };
        },
      }),
    ),
  );
  const app = express();
  app.get("/download", (req, res) => sendDocument(req, res, documents, "w", document.id, { blobFiles }));
  app.use(problemHandler(createLogger({ name: "test", level: "silent" })));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/download`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("the bytes come from the direct URL, under the document's headers", async () => {
  storeStatus = 200;
  storeRequests.length = 0;
  const gateway = await gatewayWith(`${storeUrl}/bucket/doc.pdf?X-Amz-Signature=abc`);
  try {
    const res = await fetch(gateway.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("etag")).toBe(`"${document.sha256}"`);
    expect(res.headers.get("content-disposition")).toBe("attachment; filename=Lease.pdf");
    expect(storeRequests).toEqual(["/bucket/doc.pdf?X-Amz-Signature=abc"]);
  } finally {
    await gateway.close();
  }
});

test("a store that does not answer, or answers 5xx, is a 503 with Retry-After; a 404 from it means the document was deleted", async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  for (const [target, status, expected] of [
    [`http://127.0.0.1:${closedPort}/bucket/doc.pdf`, 200, 503],
    [`${storeUrl}/bucket/doc.pdf`, 502, 503],
    [`${storeUrl}/bucket/doc.pdf`, 404, 404],
  ] as const) {
    storeStatus = status;
    const gateway = await gatewayWith(target);
    try {
      const res = await fetch(gateway.url);
      expect(res.status).toBe(expected);
      const problem = (await res.json()) as { code: string; detail: string };
      if (expected === 503) {
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(problem.code).toBe("unavailable");
      }
      // The URL is a secret of the gateway's: it appears in no answer.
      expect(JSON.stringify(problem)).not.toContain("bucket");
    } finally {
      await gateway.close();
    }
  }
});

test("without a direct URL the stream's chunks are sent", async () => {
  storeRequests.length = 0;
  const gateway = await gatewayWith(undefined);
  try {
    const res = await fetch(gateway.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(storeRequests).toEqual([]);
  } finally {
    await gateway.close();
  }
});

test("a stored file is read from the blob store's directory the gateway was told it shares", async () => {
  const blobs = await mkdtemp(join(tmpdir(), "gateway-blobs-"));
  try {
    await mkdir(join(blobs, "documents"));
    // Other bytes than the RPC's chunks, of the same length: the answer tells where it came from.
    const stored = Buffer.from(bytes).reverse();
    await writeFile(join(blobs, "documents", "doc.pdf"), stored);
    const shared = await gatewayWith(pathToFileURL(join(blobs, "documents", "doc.pdf")).href, blobs);
    try {
      const res = await fetch(shared.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("etag")).toBe(`"${document.sha256}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(stored)).toBe(true);
    } finally {
      await shared.close();
    }
    // A gateway that shares no store does not say it accepts files: it gets the chunks.
    const apart = await gatewayWith(pathToFileURL(join(blobs, "documents", "doc.pdf")).href);
    try {
      const res = await fetch(apart.url);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await apart.close();
    }
  } finally {
    await rm(blobs, { recursive: true, force: true });
  }
});

test("a file outside the shared directory is never read, and a file gone is a 404", async () => {
  const blobs = await mkdtemp(join(tmpdir(), "gateway-blobs-"));
  const outside = await mkdtemp(join(tmpdir(), "gateway-outside-"));
  try {
    await writeFile(join(outside, "secret.pdf"), "not for clients");
    for (const [target, expected] of [
      [pathToFileURL(join(outside, "secret.pdf")).href, 500],
      [`${pathToFileURL(blobs).href}/../${basename(outside)}/secret.pdf`, 500],
      [pathToFileURL(join(blobs, "documents", "deleted.pdf")).href, 404],
    ] as const) {
      const gateway = await gatewayWith(target, blobs);
      try {
        const res = await fetch(gateway.url);
        expect(res.status).toBe(expected);
        const body = await res.text();
        expect(body).not.toContain("not for clients");
        expect(body).not.toContain(tmpdir());
      } finally {
        await gateway.close();
      }
    }
  } finally {
    await rm(blobs, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
