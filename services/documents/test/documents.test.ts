import { createHash } from "node:crypto";
import { renameSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline, Readable, Transform } from "node:stream";
import { pathToFileURL } from "node:url";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  DocumentsService,
  Kind,
  type UploadDocumentRequest,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type BlobStore,
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  fieldViolations,
  inMemoryTransport,
  MemoryEventBus,
  problemOf,
  serverInterceptors,
  serviceClient,
  spooledFileUrl,
  spoolUpload,
  uuidv7,
} from "@countersign/kit";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream } from "pdf-lib";
import { pdfText } from "../../../test/support/pdf-tools.js";
import {
  makeEncryptedPdf,
  makeManyObjectPdf,
  makePageCountBomb,
  makePdf,
  makePdfWithPages,
  makeTruncatedPdf,
} from "../../../test/support/pdfs.js";
import {
  makeFilledForm,
  makePdfWithAttachment,
  makePdfWithJavaScript,
  makePdfWithLinks,
  makePdfWithUnusedObject,
  makeUpdatedPdf,
} from "../../../test/support/unsafe-pdfs.js";
import { buildDocuments } from "../src/service.js";

const logger = createLogger({ name: "documents-test", level: "silent" });
let pg: EmbeddedPostgres;
let blobRoot: string;

async function startDocuments({
  maxUploadBytes,
  schema = `documents_${uuidv7().slice(-8)}`,
  blobs = new FileBlobStore(blobRoot),
  spoolDir,
  inspectionTimeoutMs,
  maxPages,
}: {
  maxUploadBytes?: number;
  schema?: string;
  blobs?: BlobStore;
  spoolDir?: string;
  inspectionTimeoutMs?: number;
  maxPages?: number;
} = {}) {
  const module = await buildDocuments({
    db: pg.database(schema),
    bus: new MemoryEventBus(),
    blobs,
    logger,
    maxUploadBytes,
    spoolDir,
    inspectionTimeoutMs,
    maxPages,
  });
  return serviceClient(
    DocumentsService,
    inMemoryTransport(module.routes, serverInterceptors({ logger, metrics: createRpcMetrics() })),
  );
}

beforeAll(async () => {
  pg = await EmbeddedPostgres.open();
  blobRoot = await mkdtemp(join(tmpdir(), "documents-blobs-"));
});
afterAll(async () => {
  await pg.close();
  await rm(blobRoot, { recursive: true, force: true });
});

const workspaceId = uuidv7();

async function* uploadStream(
  bytes: Uint8Array,
  filename = "contract.pdf",
  contentType = "application/pdf",
  chunkSize = 4096,
) {
  yield create(UploadDocumentRequestSchema, {
    part: { case: "header", value: { workspaceId, filename, contentType, kind: Kind.ORIGINAL } },
  });
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    yield create(UploadDocumentRequestSchema, {
      part: { case: "chunk", value: bytes.subarray(offset, offset + chunkSize) },
    });
  }
}

async function* streamOf<T>(...items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => ConnectError.from(err),
  );
}

async function downloaded(
  client: Awaited<ReturnType<typeof startDocuments>>,
  documentId: string,
  owner = workspaceId,
) {
  const chunks: Uint8Array[] = [];
  let first: unknown;
  for await (const message of client.downloadDocument({ workspaceId: owner, documentId })) {
    if (message.part.case === "document") first = message.part.value;
    else if (message.part.case === "chunk") chunks.push(message.part.value);
  }
  return { document: first, bytes: Buffer.concat(chunks) };
}

/**
 * A store that is not on this machine (as S3): the filesystem store's objects, without moveIn or
 * file URLs; `overrides` replace or add methods.
 */
function storeElsewhere(overrides: Partial<BlobStore>): BlobStore {
  const files = new FileBlobStore(blobRoot);
  return {
    put: (key, body) => files.put(key, body),
    get: (key) => files.get(key),
    stat: (key) => files.stat(key),
    delete: (key) => files.delete(key),
    ping: () => files.ping(),
    ...overrides,
  };
}

test("a caller that accepts a direct URL gets one from a store that signs them, and the bytes otherwise", async () => {
  const signing = storeElsewhere({
    readUrl: async (key, seconds) => `https://store.test/${key}?expires=${seconds}`,
  });
  const client = await startDocuments({ blobs: signing });
  const pdf = await makePdf(1);
  const { document } = await client.uploadDocument(uploadStream(pdf));
  const id = document?.id as string;
  const parts = async (acceptDirectUrl: boolean) => {
    const seen: string[] = [];
    for await (const message of client.downloadDocument({ workspaceId, documentId: id, acceptDirectUrl }))
      seen.push(message.part.case === "directUrl" ? message.part.value : (message.part.case as string));
    return seen;
  };
  expect(await parts(true)).toEqual(["document", `https://store.test/${workspaceId}/${id}.pdf?expires=60`]);
  expect(await parts(false)).toEqual(["document", "chunk"]);
  // A store that signs nothing streams the bytes to a caller that would take a URL.
  const plain = await startDocuments();
  const { document: other } = await plain.uploadDocument(uploadStream(pdf));
  const streamed: string[] = [];
  for await (const message of plain.downloadDocument({
    workspaceId,
    documentId: other?.id as string,
    acceptDirectUrl: true,
  }))
    streamed.push(message.part.case as string);
  expect(streamed).toEqual(["document", "chunk"]);
});

test("a caller that shares a filesystem store's machine gets the stored file's URL, and others the bytes", async () => {
  const client = await startDocuments();
  const pdf = await makePdf(1);
  const { document } = await client.uploadDocument(uploadStream(pdf));
  const parts = async (accepts: { acceptDirectUrl?: boolean; acceptFileUrl?: boolean }) => {
    const seen: string[] = [];
    for await (const message of client.downloadDocument({
      workspaceId,
      documentId: document?.id as string,
      ...accepts,
    }))
      seen.push(message.part.case === "directUrl" ? message.part.value : (message.part.case as string));
    return seen;
  };
  const [first, url = ""] = await parts({ acceptFileUrl: true });
  expect(first).toBe("document");
  expect(url.startsWith(pathToFileURL(blobRoot).href)).toBe(true);
  expect((await readFile(new URL(url))).equals(Buffer.from(pdf))).toBe(true);
  // A presigned URL is not what a filesystem store can give.
  expect(await parts({ acceptDirectUrl: true })).toEqual(["document", "chunk"]);
});

test("an upload its caller spooled is taken from the spool, hashed, checked and stored; nothing is left there", async () => {
  const spoolDir = await mkdtemp(join(tmpdir(), "documents-spool-"));
  const client = await startDocuments({ spoolDir });
  const header = (spooledFileUrl: string) =>
    create(UploadDocumentRequestSchema, {
      part: {
        case: "header",
        value: { workspaceId, filename: "spooled.pdf", contentType: "application/pdf", spooledFileUrl },
      },
    });
  const spool = async (bytes: Uint8Array) =>
    spooledFileUrl(await spoolUpload(streamOf(bytes), 25 * 2 ** 20, spoolDir, { hash: false }));
  try {
    const pdf = await makePdf(2);
    const { document } = await client.uploadDocument(streamOf(header(await spool(pdf))));
    expect(document).toMatchObject({
      sizeBytes: BigInt(pdf.length),
      sha256: createHash("sha256").update(pdf).digest("hex"),
      pageCount: 2,
    });
    expect((await downloaded(client, document?.id as string)).bytes.equals(Buffer.from(pdf))).toBe(true);
    // A file that is no PDF is refused like one sent in chunks.
    const refused = await failure(
      client.uploadDocument(streamOf(header(await spool(new TextEncoder().encode("hello"))))),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
    // Chunks after a spooled header, or a file outside the spool, are refused.
    const mixed = await failure(
      client.uploadDocument(
        streamOf(
          header(await spool(pdf)),
          create(UploadDocumentRequestSchema, { part: { case: "chunk", value: pdf } }),
        ),
      ),
    );
    expect(fieldViolations(mixed)).toEqual([
      { path: "chunk", message: "a spooled upload is sent without chunks" },
    ]);
    const outside = await failure(
      client.uploadDocument(streamOf(header(pathToFileURL(join(blobRoot, "x.pdf")).href))),
    );
    expect(fieldViolations(outside)[0]?.path).toBe("header.spooledFileUrl");
    expect(await readdir(spoolDir)).toEqual([]);
  } finally {
    await rm(spoolDir, { recursive: true, force: true });
  }
});

test("a filesystem store takes the spooled file while it is read: an upload moved away at once is still read whole", async () => {
  const elsewhere = await mkdtemp(join(tmpdir(), "documents-moved-"));
  // Moves the file before the service could read it by name: only a file opened first is read.
  class MovesAtOnce extends FileBlobStore {
    override moveIn(key: string, path: string) {
      const moved = join(elsewhere, uuidv7());
      renameSync(path, moved);
      return super.moveIn(key, moved);
    }
  }
  try {
    const client = await startDocuments({ blobs: new MovesAtOnce(blobRoot) });
    const pdf = await makePdf(3);
    const { document } = await client.uploadDocument(uploadStream(pdf));
    expect(document).toMatchObject({
      sha256: createHash("sha256").update(pdf).digest("hex"),
      pageCount: 3,
    });
    expect((await downloaded(client, document?.id as string)).bytes.equals(Buffer.from(pdf))).toBe(true);
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
});

test("an upload streamed in chunks is stored with its size, SHA-256 and page count, and comes back byte for byte", async () => {
  const client = await startDocuments();
  const pdf = await makePdf(3);
  const { document } = await client.uploadDocument(uploadStream(pdf));
  expect(document).toMatchObject({
    workspaceId,
    filename: "contract.pdf",
    contentType: "application/pdf",
    sizeBytes: BigInt(pdf.length),
    sha256: createHash("sha256").update(pdf).digest("hex"),
    pageCount: 3,
    kind: Kind.ORIGINAL,
  });
  const back = await downloaded(client, document?.id as string);
  expect(back.bytes.equals(Buffer.from(pdf))).toBe(true);
  expect(back.document).toMatchObject({ id: document?.id, sha256: document?.sha256 });
});

/**
 * A store elsewhere that tells when a put first reads a byte and names every key put. Like the S3
 * store, which signs a URL first, it starts reading a while after it is called.
 */
function remoteStore(): { store: BlobStore; firstByte: Promise<void>; puts: string[] } {
  const files = new FileBlobStore(blobRoot);
  let reached = () => {};
  const firstByte = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const puts: string[] = [];
  const store = storeElsewhere({
    put: async (key, body) => {
      puts.push(key);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!(body instanceof Readable)) {
        reached();
        return files.put(key, body);
      }
      const seen = new Transform({
        transform(chunk, _encoding, done) {
          reached();
          done(null, chunk);
        },
      });
      // The store reads `seen` and hears of a failure there, as it would have of the body's.
      return files.put(
        key,
        pipeline(body, seen, () => {}),
      );
    },
  });
  return { store, firstByte, puts };
}

async function* announced(bytes: Uint8Array, sizeBytes: number, afterFirstChunk?: () => Promise<void>) {
  yield create(UploadDocumentRequestSchema, {
    part: {
      case: "header",
      value: { workspaceId, filename: "a.pdf", contentType: "application/pdf", sizeBytes: BigInt(sizeBytes) },
    },
  });
  const half = Math.ceil(bytes.length / 2);
  yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: bytes.subarray(0, half) } });
  await afterFirstChunk?.();
  yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: bytes.subarray(half) } });
}

test("an upload of announced length reaches a store elsewhere while it arrives, and is kept whole", async () => {
  const { store, firstByte } = remoteStore();
  const client = await startDocuments({ blobs: store });
  const pdf = await makePdf(2);
  let storedBeforeLastChunk = false;
  const { document } = await client.uploadDocument(
    announced(pdf, pdf.length, async () => {
      storedBeforeLastChunk = await Promise.race([
        firstByte.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
      ]);
    }),
  );
  expect(storedBeforeLastChunk).toBe(true);
  expect(document).toMatchObject({ sizeBytes: BigInt(pdf.length), pageCount: 2 });
  expect((await downloaded(client, document?.id as string)).bytes.equals(Buffer.from(pdf))).toBe(true);
});

test("an announced length that is wrong or over the limit is refused, and nothing is kept", async () => {
  const { store, puts } = remoteStore();
  const client = await startDocuments({ maxUploadBytes: 64 * 1024, blobs: store });
  const pdf = await makePdf(1);
  const kept = async () => (await Promise.all(puts.map((key) => store.stat(key)))).filter(Boolean);
  for (const sizeBytes of [pdf.length + 1, pdf.length - 1]) {
    const wrong = await failure(client.uploadDocument(announced(pdf, sizeBytes)));
    expect(wrong.code).toBe(Code.InvalidArgument);
    expect(fieldViolations(wrong).map(({ path }) => path)).toEqual(["header.sizeBytes"]);
  }
  expect(puts).toHaveLength(2);
  expect(await kept()).toEqual([]);
  const tooLarge = await failure(client.uploadDocument(announced(pdf, 64 * 1024 + 1)));
  expect(problemOf(tooLarge)).toBe("payload_too_large");
  expect(puts).toHaveLength(2);
  // A PDF refused on inspection is removed from the store that already took it.
  const refused = await failure(
    client.uploadDocument(announced(await makeTruncatedPdf(), (await makeTruncatedPdf()).length)),
  );
  expect(refused.code).toBe(Code.InvalidArgument);
  expect(puts).toHaveLength(3);
  expect(await kept()).toEqual([]);
});

test("file names are made safe: no directories, control characters or quotes", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(
    uploadStream(await makePdf(1), '../../etc/"evil"\u0000name.pdf'),
  );
  expect(document?.filename).toBe("evilname.pdf");
});

test("what is not a PDF is refused as an unsupported media type", async () => {
  const client = await startDocuments();
  const notPdf = await failure(client.uploadDocument(uploadStream(Buffer.from("hello, I am a text file"))));
  expect(problemOf(notPdf)).toBe("unsupported_media_type");
  const declared = await failure(
    client.uploadDocument(uploadStream(await makePdf(1), "a.docx", "application/msword")),
  );
  expect(problemOf(declared)).toBe("unsupported_media_type");
});

test("damaged and encrypted PDFs are refused with a reason a person understands, and leave no blob", async () => {
  const client = await startDocuments();
  const stored = async () =>
    (await readdir(blobRoot, { recursive: true })).filter((f) => f.endsWith(".pdf")).sort();
  const before = await stored();
  const damaged = await failure(client.uploadDocument(uploadStream(await makeTruncatedPdf())));
  expect(damaged.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(damaged).map(({ path, message }) => ({ path, message }))).toEqual([
    { path: "file", message: expect.stringMatching(/damaged/) },
  ]);
  const encrypted = await failure(client.uploadDocument(uploadStream(await makeEncryptedPdf())));
  expect(fieldViolations(encrypted)[0]?.message).toMatch(/encrypted or password-protected/);
  // The store took the bytes while they were read; what was refused is removed again.
  expect(await stored()).toEqual(before);
});

test("a PDF pdf-lib cannot read in time is refused with a reason and leaves no blob; the next upload is read as usual", async () => {
  const client = await startDocuments({ inspectionTimeoutMs: 500 });
  const stored = async () =>
    (await readdir(blobRoot, { recursive: true })).filter((f) => f.endsWith(".pdf")).sort();
  const before = await stored();
  // Valid, and read by pdf-lib in seconds: without a limit it would be accepted.
  const slow = makeManyObjectPdf(200_000);
  const err = await failure(
    client.uploadDocument(uploadStream(slow, "slow.pdf", "application/pdf", 1 << 20)),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(err).map(({ path, message }) => ({ path, message }))).toEqual([
    { path: "file", message: "the PDF could not be read in 0.5 s; export it again (print to PDF) and retry" },
  ]);
  expect(await stored()).toEqual(before);
  const { document } = await client.uploadDocument(uploadStream(await makePdf(2)));
  expect(document?.pageCount).toBe(2);
});

test("a page-count bomb (one page named 2,000,000 times in 12 MB) is refused at once, saying the limit", async () => {
  const client = await startDocuments();
  const bomb = makePageCountBomb(2_000_000);
  const started = performance.now();
  const err = await failure(
    client.uploadDocument(uploadStream(bomb, "bomb.pdf", "application/pdf", 1 << 20)),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(err).map(({ path, message }) => ({ path, message }))).toEqual([
    {
      path: "file",
      message:
        "the PDF has more than 1000 pages, the most a document may have; split it and upload the parts",
    },
  ]);
  // Counting stops at the limit: the refusal costs the parse of 12 MB, not two million pages.
  expect(performance.now() - started).toBeLessThan(5_000);
});

test("the page limit is configurable: a document of exactly the limit is taken, one more page is not", async () => {
  const client = await startDocuments({ maxPages: 3 });
  const { document } = await client.uploadDocument(uploadStream(await makePdf(3)));
  expect(document?.pageCount).toBe(3);
  const err = await failure(client.uploadDocument(uploadStream(await makePdf(4))));
  expect(fieldViolations(err)[0]?.message).toMatch(/more than 3 pages/);
  const twice = await failure(client.uploadDocument(uploadStream(makePageCountBomb(4))));
  expect(fieldViolations(twice)[0]?.message).toMatch(/more than 3 pages/);
});

test("an upload its caller called off after the last chunk is not kept, however whole it looks", async () => {
  const spoolDir = await mkdtemp(join(tmpdir(), "documents-spool-"));
  const client = await startDocuments({ spoolDir });
  const owner = uuidv7();
  const stored = async () => (await readdir(blobRoot, { recursive: true })).filter((f) => f.endsWith(".pdf"));
  const before = await stored();
  const caller = new AbortController();
  // As over HTTP/2, where a reset stream ends like a finished one and the abort follows.
  const calledOff = (async function* () {
    for await (const message of uploadStream(await makePdf(3))) {
      if (message.part.case === "header") message.part.value.workspaceId = owner;
      yield message as UploadDocumentRequest;
    }
    caller.abort();
  })();
  await failure(client.uploadDocument(calledOff, { signal: caller.signal }));
  // The service goes on after the caller has left, and has finished when its spooled file is gone.
  expect(await readdir(spoolDir)).toHaveLength(1);
  while ((await readdir(spoolDir)).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  expect((await client.listDocuments({ workspaceId: owner, pageIndex: 0, pageSize: 10 })).totalCount).toBe(0);
  expect(await stored()).toEqual(before);
});

test("a file over the limit is refused while it streams, and nothing is left in the blob store", async () => {
  const client = await startDocuments({ maxUploadBytes: 20 * 1024 });
  const before = await readdir(blobRoot, { recursive: true });
  const big = await makePdf(120, "x".repeat(200));
  expect(big.length).toBeGreaterThan(20 * 1024);
  const err = await failure(client.uploadDocument(uploadStream(big)));
  expect(problemOf(err)).toBe("payload_too_large");
  expect(err.rawMessage).toBe("the file is larger than 20480 bytes");
  expect((await readdir(blobRoot, { recursive: true })).filter((f) => !f.startsWith(".partial"))).toEqual(
    before.filter((f) => !f.startsWith(".partial")),
  );
});

test("lists are newest first with a total, and page sizes outside 1..100 are refused", async () => {
  const client = await startDocuments();
  const owner = uuidv7();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const stream = (async function* () {
      for await (const message of uploadStream(await makePdf(1))) {
        if (message.part.case === "header") message.part.value.workspaceId = owner;
        yield message as UploadDocumentRequest;
      }
    })();
    ids.push((await client.uploadDocument(stream)).document?.id as string);
  }
  const first = await client.listDocuments({ workspaceId: owner, pageIndex: 0, pageSize: 2 });
  expect(first.documents.map((d) => d.id)).toEqual([ids[2], ids[1]]);
  expect(first.totalCount).toBe(3);
  const last = await client.listDocuments({ workspaceId: owner, pageIndex: 1, pageSize: 2 });
  expect(last.documents.map((d) => d.id)).toEqual([ids[0]]);
  for (const pageSize of [0, 101]) {
    const err = await failure(client.listDocuments({ workspaceId: owner, pageIndex: 0, pageSize }));
    expect(fieldViolations(err).map((v) => v.path)).toEqual(["pageSize"]);
  }
});

test("another workspace's document does not exist for it: get, download and delete are not found", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(uploadStream(await makePdf(1)));
  const stranger = uuidv7();
  const id = document?.id as string;
  expect((await failure(client.getDocument({ workspaceId: stranger, documentId: id }))).code).toBe(
    Code.NotFound,
  );
  expect((await failure(downloaded(client, id, stranger))).code).toBe(Code.NotFound);
  expect((await failure(client.deleteDocument({ workspaceId: stranger, documentId: id }))).code).toBe(
    Code.NotFound,
  );
  expect((await client.getDocument({ workspaceId, documentId: id })).document?.id).toBe(id);
});

test("a deleted document and its bytes are gone", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(uploadStream(await makePdf(1)));
  const id = document?.id as string;
  await client.deleteDocument({ workspaceId, documentId: id });
  expect((await failure(client.getDocument({ workspaceId, documentId: id }))).code).toBe(Code.NotFound);
  expect(await new FileBlobStore(blobRoot).stat(`${workspaceId}/${id}.pdf`)).toBeUndefined();
});

test("page sizes are the visible ones: crop box, with quarter-turn rotations swapping width and height", async () => {
  const client = await startDocuments();
  const pdf = await makePdfWithPages([
    { size: [595, 842] },
    { size: [595, 842], rotation: 90 },
    { size: [612, 792], cropBox: [0, 0, 300, 400] },
  ]);
  const { document } = await client.uploadDocument(uploadStream(pdf));
  expect(document?.pages.map(({ width, height }) => [width, height])).toEqual([
    [595, 842],
    [842, 595],
    [300, 400],
  ]);
});

test("a claimed document cannot be deleted until every holder releases it; claims are idempotent", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(uploadStream(await makePdf(2)));
  const documentId = document?.id as string;
  const claimed = await client.claimDocument({ workspaceId, documentId, holder: "template:a" });
  expect(claimed.document?.pages).toHaveLength(2);
  await client.claimDocument({ workspaceId, documentId, holder: "template:a" });
  await client.claimDocument({ workspaceId, documentId, holder: "request:b" });

  const refused = await failure(client.deleteDocument({ workspaceId, documentId }));
  expect(refused.code).toBe(Code.FailedPrecondition);
  expect(refused.rawMessage).toMatch(/template:a, request:b/);

  await client.releaseDocument({ workspaceId, documentId, holder: "template:a" });
  expect((await failure(client.deleteDocument({ workspaceId, documentId }))).code).toBe(
    Code.FailedPrecondition,
  );
  await client.releaseDocument({ workspaceId, documentId, holder: "request:b" });
  await client.deleteDocument({ workspaceId, documentId });
  expect((await failure(client.claimDocument({ workspaceId, documentId, holder: "template:c" }))).code).toBe(
    Code.NotFound,
  );
});

test("another workspace can neither claim nor release a document", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(uploadStream(await makePdf(1)));
  const documentId = document?.id as string;
  const stranger = uuidv7();
  expect(
    (await failure(client.claimDocument({ workspaceId: stranger, documentId, holder: "template:x" }))).code,
  ).toBe(Code.NotFound);
  await client.claimDocument({ workspaceId, documentId, holder: "template:mine" });
  await client.releaseDocument({ workspaceId: stranger, documentId, holder: "template:mine" });
  expect((await failure(client.deleteDocument({ workspaceId, documentId }))).code).toBe(
    Code.FailedPrecondition,
  );
});

test("a holder name must be short and printable", async () => {
  const client = await startDocuments();
  const { document } = await client.uploadDocument(uploadStream(await makePdf(1)));
  for (const holder of ["", "has space", "x".repeat(201)]) {
    const err = await failure(
      client.claimDocument({ workspaceId, documentId: document?.id as string, holder }),
    );
    expect(fieldViolations(err).map((v) => v.path)).toEqual(["holder"]);
  }
});

test("a document stored before page sizes were kept is measured from its bytes when first claimed", async () => {
  const schema = `documents_${uuidv7().slice(-8)}`;
  const client = await startDocuments({ schema });
  const { document } = await client.uploadDocument(
    uploadStream(await makePdfWithPages([{ size: [612, 792] }])),
  );
  const documentId = document?.id as string;
  await pg.database(schema).query("UPDATE documents SET page_sizes = NULL WHERE id = $1", [documentId]);
  expect((await client.getDocument({ workspaceId, documentId })).document?.pages).toEqual([]);
  const claimed = await client.claimDocument({ workspaceId, documentId, holder: "template:old" });
  expect(claimed.document?.pages.map(({ width, height }) => [width, height])).toEqual([[612, 792]]);
  expect((await client.getDocument({ workspaceId, documentId })).document?.pages).toHaveLength(1);
});

test("claims are listed by holder prefix and age, a page at a time, and a page token from elsewhere is refused", async () => {
  const client = await startDocuments();
  const documents: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { document } = await client.uploadDocument(uploadStream(await makePdf(1)));
    documents.push(document?.id as string);
  }
  for (const documentId of documents) {
    await client.claimDocument({ workspaceId, documentId, holder: `request:${documentId}` });
    await client.claimDocument({ workspaceId, documentId, holder: "template:t" });
  }
  const later = timestampFromMs(Date.now() + 60_000);
  const seen: string[] = [];
  let pageToken = "";
  do {
    const page = await client.listClaims({
      holderPrefix: "request:",
      createTimeBefore: later,
      pageSize: 2,
      pageToken,
    });
    expect(page.claims.length).toBeLessThanOrEqual(2);
    for (const claim of page.claims) {
      expect(claim).toMatchObject({ workspaceId, holder: `request:${claim.documentId}` });
      seen.push(claim.documentId);
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
  expect(seen.sort()).toEqual([...documents].sort());
  // Claims made after the given time are left out: they may belong to work in flight.
  const earlier = timestampFromMs(Date.now() - 60_000);
  expect(
    (await client.listClaims({ holderPrefix: "request:", createTimeBefore: earlier, pageSize: 10 })).claims,
  ).toEqual([]);
  const bad = await failure(
    client.listClaims({
      holderPrefix: "request:",
      createTimeBefore: later,
      pageSize: 10,
      pageToken: "forged",
    }),
  );
  expect(fieldViolations(bad).map((v) => v.path)).toEqual(["pageToken"]);
  const noPrefix = await failure(
    client.listClaims({ holderPrefix: "", createTimeBefore: later, pageSize: 0 }),
  );
  expect(fieldViolations(noPrefix).map((v) => v.path)).toEqual(["holderPrefix", "pageSize"]);
});

describe("an original is made safe to sign before it is stored", () => {
  const text = (bytes: Buffer) => bytes.toString("latin1");
  /** References in `bytes` to objects the file does not hold: what a reader must guess around. */
  const dangling = async (bytes: Buffer) => {
    const pdf = await PDFDocument.load(bytes);
    const refs: PDFRef[] = [];
    const collect = (value: unknown): void => {
      if (value instanceof PDFRef) refs.push(value);
      else if (value instanceof PDFArray) value.asArray().forEach(collect);
      else if (value instanceof PDFDict) for (const [, item] of value.entries()) collect(item);
      else if (value instanceof PDFStream) collect(value.dict);
    };
    for (const [, object] of pdf.context.enumerateIndirectObjects()) collect(object);
    return refs.filter((ref) => pdf.context.lookup(ref) === undefined).map((ref) => ref.toString());
  };

  test.each([
    [
      "JavaScript run on opening",
      makePdfWithJavaScript,
      ["the action run when the document opens", "JavaScript"],
      /\/JavaScript|\/OpenAction/,
    ],
    [
      "a link that launches a program",
      makePdfWithLinks,
      ["actions that run code, open files or send data"],
      /\/Launch/,
    ],
    ["an attached file", makePdfWithAttachment, ["embedded files"], /\/EmbeddedFiles|invoice\.exe/],
    ["an earlier revision", makeUpdatedPdf, ["earlier revisions"], /%%EOF[\s\S]*%%EOF/],
    [
      "an object nothing uses",
      makePdfWithUnusedObject,
      ["objects nothing in the document uses (1)"],
      /PAID IN FULL/,
    ],
  ])(
    "%s is removed, said in `removed`, and the stored file's SHA-256 is its own",
    async (_what, make, removed, gone) => {
      const client = await startDocuments();
      const pdf = await make();
      const { document } = await client.uploadDocument(uploadStream(pdf));
      expect(document?.removed).toEqual(removed);
      const back = await downloaded(client, document?.id as string);
      expect(text(back.bytes)).not.toMatch(gone);
      expect(await dangling(back.bytes)).toEqual([]);
      expect(document?.sha256).toBe(createHash("sha256").update(back.bytes).digest("hex"));
      expect(document?.sizeBytes).toBe(BigInt(back.bytes.length));
      expect(document?.sha256).not.toBe(createHash("sha256").update(pdf).digest("hex"));
    },
  );

  test("a web link stays; only the launching one goes", async () => {
    const client = await startDocuments();
    const { document } = await client.uploadDocument(uploadStream(await makePdfWithLinks()));
    const back = await PDFDocument.load((await downloaded(client, document?.id as string)).bytes);
    const actions = back
      .getPage(0)
      .node.lookup(PDFName.of("Annots"), PDFArray)
      .asArray()
      .map(
        (ref) =>
          back.context.lookup(ref, PDFDict).lookupMaybe(PDFName.of("A"), PDFDict)?.toString() ?? "none",
      );
    expect(actions).toEqual(["none", expect.stringContaining("https://example.com/terms")]);
  });

  test("a filled form is flattened: the values stay on the page as they looked, the fields are gone", async () => {
    const client = await startDocuments();
    const { document } = await client.uploadDocument(uploadStream(await makeFilledForm()));
    // (pdf-lib, which made the form, also leaves objects behind that nothing uses.)
    expect(document?.removed).toContain("form fields (flattened into the pages as they look)");
    const back = (await downloaded(client, document?.id as string)).bytes;
    expect(text(back)).not.toMatch(/\/AcroForm|\/FT\s*\/Tx/);
    const flattened = await PDFDocument.load(back);
    expect(flattened.getForm().getFields()).toEqual([]);
    expect(await dangling(back)).toEqual([]);
    expect(await pdfText(back)).toContain("Acme Corp");
  });

  test("a clean file is stored byte for byte, and a sealed one is never touched", async () => {
    const client = await startDocuments();
    const clean = await makePdf(2);
    const { document } = await client.uploadDocument(uploadStream(clean));
    expect(document?.removed).toEqual([]);
    expect((await downloaded(client, document?.id as string)).bytes.equals(Buffer.from(clean))).toBe(true);

    const risky = await makePdfWithJavaScript();
    const sealed = await client.uploadDocument(
      streamOf(
        create(UploadDocumentRequestSchema, {
          part: {
            case: "header",
            value: { workspaceId, filename: "sealed.pdf", contentType: "application/pdf", kind: Kind.SIGNED },
          },
        }),
        create(UploadDocumentRequestSchema, { part: { case: "chunk", value: risky } }),
      ),
    );
    expect(sealed.document?.removed).toEqual([]);
    expect((await downloaded(client, sealed.document?.id as string)).bytes.equals(Buffer.from(risky))).toBe(
      true,
    );
  });
});
