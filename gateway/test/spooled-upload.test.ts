/**
 * With a shared spool (standalone mode), an upload is written there and handed to the documents
 * service by name, without chunks; one over the limit is a 413 and one whose body fails the
 * client's 400, neither reaching the service; nothing is left in the spool either way.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { ApiProblem } from "../src/problems.js";
import { storeDocument } from "../src/routes/documents.js";
import type { UploadedFile } from "../src/upload-body.js";

let spoolDir: string;
beforeEach(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), "gateway-spool-"));
});
afterEach(() => rm(spoolDir, { recursive: true, force: true }));

/** A documents service that keeps what each upload handed to it. */
function documentsService() {
  const received: { url: string; bytes: Buffer; chunks: number }[] = [];
  const client = createClient(
    DocumentsService,
    createRouterTransport(({ service }) =>
      service(DocumentsService, {
        async uploadDocument(messages) {
          let url = "";
          let chunks = 0;
          for await (const message of messages) {
            if (message.part.case === "header") url = message.part.value.spooledFileUrl;
            else chunks += 1;
          }
          const bytes = await readFile(new URL(url));
          received.push({ url, bytes, chunks });
          return {
            document: {
              id: "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b",
              sizeBytes: BigInt(bytes.length),
              createTime: timestampNow(),
            },
          };
        },
      }),
    ),
  );
  return { client, received };
}

function file(parts: Uint8Array[], failure?: ApiProblem): UploadedFile {
  return {
    filename: "lease.pdf",
    contentType: "application/pdf",
    bytes: (async function* () {
      yield* parts;
      if (failure) throw failure;
    })(),
    failure: () => failure,
  };
}

test("an upload is spooled and handed over by name, and the spool is empty afterwards", async () => {
  const { client, received } = documentsService();
  const parts = [Buffer.from("%PDF-1.7 "), Buffer.from("the rest")];
  const stored = await storeDocument(client, "w", file(parts), { spoolDir, maxUploadBytes: 1000 });
  expect(stored.sizeBytes).toBe(17);
  expect(received).toHaveLength(1);
  expect(received[0]?.url.startsWith("file:")).toBe(true);
  expect(received[0]?.bytes.toString()).toBe("%PDF-1.7 the rest");
  expect(received[0]?.chunks).toBe(0);
  expect(await readdir(spoolDir)).toEqual([]);
});

test("an upload over the limit is a 413 and one whose body fails the client's 400, and neither reaches the service", async () => {
  const { client, received } = documentsService();
  const tooLarge = await storeDocument(client, "w", file([Buffer.alloc(600), Buffer.alloc(600)]), {
    spoolDir,
    maxUploadBytes: 1000,
  }).catch((err: unknown) => err);
  expect(tooLarge).toBeInstanceOf(ApiProblem);
  expect((tooLarge as ApiProblem).code).toBe("payload_too_large");
  const cut = new ApiProblem("invalid_request", "the request body ended before it was complete");
  await expect(
    storeDocument(client, "w", file([Buffer.alloc(100)], cut), { spoolDir, maxUploadBytes: 1000 }),
  ).rejects.toBe(cut);
  expect(received).toEqual([]);
  expect(await readdir(spoolDir)).toEqual([]);
});
