/**
 * FindText through the service's Connect routes: a stored document's text tags and anchor places
 * come back with the document and its page sizes, without the caller holding its bytes; a stored
 * object that is not a readable PDF, names millions of pages or is larger than an upload may be is
 * FAILED_PRECONDITION saying why, and the service goes on answering; a search that cannot be made is
 * INVALID_ARGUMENT, another workspace's document NOT_FOUND.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  DocumentsService,
  type FindTextRequestSchema,
  Kind,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  fieldViolations,
  inMemoryTransport,
  MemoryEventBus,
  type ServiceModule,
  serverInterceptors,
  serviceClient,
  uuidv7,
} from "@countersign/kit";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { makePageCountBomb } from "../../../test/support/pdfs.js";
import { buildDocuments } from "../src/service.js";

const logger = createLogger({ name: "find-text-test", level: "silent" });
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
const workspaceId = uuidv7();
let pg: EmbeddedPostgres;
let blobRoot: string;
let blobs: FileBlobStore;
let service: ServiceModule;
let client: ReturnType<typeof serviceClient<typeof DocumentsService>>;

beforeAll(async () => {
  pg = await EmbeddedPostgres.open();
  blobRoot = await mkdtemp(join(tmpdir(), "find-text-blobs-"));
  blobs = new FileBlobStore(blobRoot);
  service = await buildDocuments({
    db: pg.database(`find_text_${uuidv7().slice(-8)}`),
    bus: new MemoryEventBus(),
    blobs,
    logger,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    spoolDir: join(blobRoot, "spool"),
  });
  client = serviceClient(
    DocumentsService,
    inMemoryTransport(service.routes, serverInterceptors({ logger, metrics: createRpcMetrics() })),
  );
});
afterAll(async () => {
  await service?.stop?.();
  await pg?.close();
  await rm(blobRoot, { recursive: true, force: true });
});

/** An agreement whose first page has two tags and an anchor, on a page 600 points wide. */
async function agreement(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([600, 800]);
  page.drawText("{{signature:Client}}", { x: 72, y: 600, size: 12, font });
  page.drawText("Tenant: /sn1/", { x: 72, y: 500, size: 12, font });
  page.drawText("{{date_signed:Client}}", { x: 72, y: 400, size: 12, font });
  return pdf.save();
}

async function upload(bytes: Uint8Array): Promise<string> {
  async function* messages() {
    yield create(UploadDocumentRequestSchema, {
      part: {
        case: "header",
        value: { workspaceId, filename: "a.pdf", contentType: "application/pdf", kind: Kind.ORIGINAL },
      },
    });
    yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: bytes } });
  }
  const { document } = await client.uploadDocument(messages());
  if (!document) throw new Error("no document");
  return document.id;
}

/** A stored document whose bytes are then replaced: what a store holding hostile bytes answers. */
async function storedAs(bytes: Uint8Array): Promise<string> {
  const documentId = await upload(await agreement());
  await blobs.put(`${workspaceId}/${documentId}.pdf`, bytes);
  return documentId;
}

const tagSearch = (documentId: string, limit = 10): MessageInitShape<typeof FindTextRequestSchema> => ({
  workspaceId,
  documentId,
  search: { case: "textTags", value: {} },
  limit,
});

async function failure(request: MessageInitShape<typeof FindTextRequestSchema>): Promise<ConnectError> {
  const err = await client.findText(request).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${String(err)}`);
  return err;
}

test("a stored document's text tags come with their page and box, and the document with its page sizes", async () => {
  const documentId = await upload(await agreement());
  const found = await client.findText(tagSearch(documentId));
  expect(found.document?.id).toBe(documentId);
  expect(found.document?.pages.map(({ width, height }) => [width, height])).toEqual([[600, 800]]);
  expect(found.tags.map(({ text, box }) => [text, box?.page])).toEqual([
    ["{{signature:Client}}", 1],
    ["{{date_signed:Client}}", 1],
  ]);
  expect(found.tags[0]?.box?.x).toBeCloseTo(72, 3);
  expect(found.tags[0]?.box?.y).toBeCloseTo(800 - 600 - 12, 3);
  expect(found.anchors).toEqual([]);
  expect((await client.findText(tagSearch(documentId, 1))).tags).toHaveLength(1);
});

test("anchors are answered one list of places each, in the order asked, case ignored unless asked for", async () => {
  const documentId = await upload(await agreement());
  const found = await client.findText({
    workspaceId,
    documentId,
    search: {
      case: "anchors",
      value: {
        anchors: [
          { text: "/SN1/", caseSensitive: false },
          { text: "/SN1/", caseSensitive: true },
          { text: "client", caseSensitive: false },
        ],
      },
    },
    limit: 10,
  });
  expect(found.tags).toEqual([]);
  expect(found.anchors.map(({ boxes }) => boxes.length)).toEqual([1, 0, 2]);
  expect(found.anchors[0]?.boxes[0]?.y).toBeCloseTo(800 - 500 - 12, 3);
});

test("a stored object that is no PDF, a page-count bomb, or larger than an upload is refused saying why, and the service reads on", async () => {
  const refusals: [Uint8Array, string][] = [
    [new TextEncoder().encode("this is not a PDF at all"), "pdf.js cannot read it"],
    [makePageCountBomb(300_000), "it has more than 1000 pages"],
    [new Uint8Array(MAX_UPLOAD_BYTES + 1), "it is larger than 2 MiB"],
  ];
  for (const [bytes, why] of refusals) {
    const err = await failure(tagSearch(await storedAs(bytes)));
    expect({ code: err.code, message: err.rawMessage }).toEqual({
      code: Code.FailedPrecondition,
      message: `the document's text cannot be read: ${why}`,
    });
  }
  const readable = await upload(await agreement());
  expect((await client.findText(tagSearch(readable))).tags).toHaveLength(2);
});

test("a search that cannot be made is INVALID_ARGUMENT naming each part; another workspace's document is NOT_FOUND", async () => {
  const documentId = await upload(await agreement());
  const invalid = await failure({
    workspaceId,
    documentId,
    search: { case: "anchors", value: { anchors: [{ text: "", caseSensitive: false }] } },
    limit: 0,
  });
  expect(invalid.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(invalid).map((v) => v.path)).toEqual(["limit", "anchors.anchors[0].text"]);
  const nothing = await failure({ workspaceId, documentId, limit: 1 });
  expect(fieldViolations(nothing).map((v) => v.path)).toEqual(["search"]);
  expect((await failure({ ...tagSearch(documentId), workspaceId: uuidv7() })).code).toBe(Code.NotFound);
});
