/**
 * A download whose documents service names a direct URL of its blob store streams the bytes from
 * that URL with the document's own headers; a store that does not answer is a 503 with
 * Retry-After; without a URL the chunks of the RPC stream are sent.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
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

/** A gateway route over a documents service that answers with `directUrl`, or with chunks when it is undefined. */
async function gatewayWith(directUrl: string | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const asked: DownloadDocumentRequest[] = [];
  const documents = createClient(
    DocumentsService,
    createRouterTransport(({ service }) =>
      service(DocumentsService, {
        async *downloadDocument(req) {
          asked.push(req);
          yield { part: { case: "document", value: document } };
          if (directUrl && req.acceptDirectUrl) yield { part: { case: "directUrl", value: directUrl } };
          else
            for (let at = 0; at < bytes.length; at += 100_000)
              yield { part: { case: "chunk", value: bytes.subarray(at, at + 100_000) } };
        },
      }),
    ),
  );
  const app = express();
  app.get("/download", (req, res) => sendDocument(req, res, documents, "w", document.id));
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

test("a store that does not answer, or answers 5xx, is a 503 with Retry-After; a 404 from it is our fault", async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  for (const [target, status, expected] of [
    [`http://127.0.0.1:${closedPort}/bucket/doc.pdf`, 200, 503],
    [`${storeUrl}/bucket/doc.pdf`, 502, 503],
    [`${storeUrl}/bucket/doc.pdf`, 404, 500],
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
