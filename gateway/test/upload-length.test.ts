/**
 * An upload whose length the request announced (a raw PDF body's Content-Length) tells the
 * documents service so in its header, which lets the service store the bytes while they arrive;
 * a body of unknown length (chunked, or a multipart form's file) announces none. A length over the
 * limit is refused before the body is read, naming the limit exactly.
 */
import type { AddressInfo } from "node:net";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import express from "express";
import { ApiProblem } from "../src/problems.js";
import { storeDocument } from "../src/routes/documents.js";
import { readUpload } from "../src/upload-body.js";

const announced: bigint[] = [];
const documents = createClient(
  DocumentsService,
  createRouterTransport(({ service }) =>
    service(DocumentsService, {
      async uploadDocument(messages) {
        let bytes = 0;
        for await (const message of messages) {
          if (message.part.case === "header") announced.push(message.part.value.sizeBytes);
          else if (message.part.case === "chunk") bytes += message.part.value.length;
        }
        return {
          document: {
            id: "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b",
            sizeBytes: BigInt(bytes),
            createTime: timestampNow(),
          },
        };
      },
    }),
  ),
);

let base = "";
let close = () => {};
beforeAll(async () => {
  const app = express();
  app.post("/upload", async (req, res) => {
    const file = await readUpload(req, res, 1024 * 1024);
    res.status(201).json(await storeDocument(documents, "w", file));
  });
  app.post("/small", async (req, res) => {
    await readUpload(req, res, 1000);
    res.status(201).end();
  });
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (!(err instanceof ApiProblem)) throw err;
    res.status(400).json({ code: err.code, detail: err.message });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(() => {
  announced.length = 0;
});

const pdf = Buffer.from("%PDF-1.7 a small file");

test("a raw PDF body with a Content-Length announces that length", async () => {
  const res = await fetch(`${base}/upload`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: pdf,
  });
  expect(res.status).toBe(201);
  expect(announced).toEqual([BigInt(pdf.length)]);
});

test("a chunked raw body and a multipart file announce no length", async () => {
  const chunked = await fetch(`${base}/upload`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: new Blob([pdf]).stream(),
    duplex: "half",
  } as RequestInit);
  expect(chunked.status).toBe(201);
  const form = new FormData();
  form.append("file", new Blob([pdf], { type: "application/pdf" }), "a.pdf");
  const multipart = await fetch(`${base}/upload`, { method: "POST", body: form });
  expect(multipart.status).toBe(201);
  expect(announced).toEqual([0n, 0n]);
});

test("a length over the limit is refused before the body is read, naming the limit exactly", async () => {
  const res = await fetch(`${base}/small`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: Buffer.alloc(100_000),
  });
  expect(await res.json()).toEqual({
    code: "payload_too_large",
    detail: "the file is larger than 1000 bytes",
  });
  expect(announced).toEqual([]);
});
