import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  ConverterService,
  SourceFormat,
} from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import {
  type Document,
  DocumentsService,
  Kind,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  createLogger,
  createRpcMetrics,
  EmbeddedPostgres,
  FileBlobStore,
  fieldViolations,
  inMemoryTransport,
  MemoryEventBus,
  problemOf,
  runWithCallContext,
  serverInterceptors,
  serviceClient,
  uuidv7,
} from "@countersign/kit";
import { inkOf, renderRegion } from "../../../test/support/ink.js";
import { withMetadata } from "../../../test/support/jpegs.js";
import {
  makeColourPng,
  makeDocx,
  makeJpeg,
  makeOdt,
  makeRtf,
} from "../../../test/support/office-documents.js";
import { pdfText } from "../../../test/support/pdf-tools.js";
import { converterRoutes } from "../src/conversion/converter-routes.js";
import type { DocumentConverter } from "../src/conversion/document-converter.js";
import { findLibreOffice } from "../src/conversion/libreoffice.js";
import {
  conversionSeconds,
  LocalConverter,
  sweepConverterFolders,
} from "../src/conversion/local-converter.js";
import { RemoteConverter } from "../src/conversion/remote-converter.js";
import { buildDocuments } from "../src/service.js";

const logger = createLogger({ name: "conversion-test", level: "silent" });
const libreOffice = findLibreOffice();
let pg: EmbeddedPostgres;
let root: string;
const workspaceId = uuidv7();
const interceptors = () => serverInterceptors({ logger, metrics: createRpcMetrics() });

type Options = {
  libreOffice?: string;
  conversionTimeoutMs?: number;
  maxPages?: number;
  converter?: DocumentConverter;
};

async function startDocuments(options: Options = {}) {
  const spoolDir = await mkdtemp(join(root, "spool-"));
  const module = await buildDocuments({
    db: pg.database(`documents_${uuidv7().slice(-8)}`),
    bus: new MemoryEventBus(),
    blobs: new FileBlobStore(await mkdtemp(join(root, "blobs-"))),
    logger,
    spoolDir,
    ...options,
  });
  const client = serviceClient(DocumentsService, inMemoryTransport(module.routes, interceptors()));
  return { client, spoolDir, stop: () => module.stop() };
}

type Client = Awaited<ReturnType<typeof startDocuments>>["client"];

async function upload(
  client: Client,
  bytes: Uint8Array,
  filename: string,
  contentType = "application/octet-stream",
) {
  const { document } = await client.uploadDocument(
    (async function* () {
      yield create(UploadDocumentRequestSchema, {
        part: { case: "header", value: { workspaceId, filename, contentType, kind: Kind.ORIGINAL } },
      });
      yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: bytes } });
    })(),
    // As the gateway gives an upload: time for a whole conversion besides its own.
    { timeoutMs: 120_000 },
  );
  return document as Document;
}

async function download(client: Client, documentId: string, source = false): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const message of client.downloadDocument({ workspaceId, documentId, source }))
    if (message.part.case === "chunk") chunks.push(message.part.value);
  return Buffer.concat(chunks);
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => ConnectError.from(err),
  );

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  if (!libreOffice && process.env.CI)
    throw new Error("LibreOffice (libreoffice-writer-nogui) is needed under CI");
  pg = await EmbeddedPostgres.open();
  root = await mkdtemp(join(tmpdir(), "conversion-test-"));
});
afterAll(async () => {
  await pg.close();
  await rm(root, { recursive: true, force: true });
});

const withLibreOffice = libreOffice ? describe : describe.skip;

withLibreOffice("office documents, through LibreOffice", () => {
  let documents: Awaited<ReturnType<typeof startDocuments>>;
  beforeAll(async () => {
    documents = await startDocuments();
  });
  afterAll(() => documents.stop());

  test.each([
    ["contract.docx", makeDocx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ["contract.odt", makeOdt, "application/vnd.oasis.opendocument.text"],
    ["contract.rtf", makeRtf, "application/rtf"],
  ])(
    "%s becomes a PDF that shows its text, with the file it was made from kept beside it",
    async (filename, make, mediaType) => {
      const original = make({ paragraphs: ["Master services agreement", "Signed by the Client below."] });
      const document = await upload(documents.client, original, filename);
      expect(document).toMatchObject({
        filename: "contract.pdf",
        contentType: "application/pdf",
        pageCount: 1,
        source: {
          filename,
          contentType: mediaType,
          sizeBytes: BigInt(original.length),
          sha256: sha256(original),
        },
      });
      const pdf = await download(documents.client, document.id);
      expect(sha256(pdf)).toBe(document.sha256);
      expect((await pdfText(pdf)).replace(/\s+/g, " ")).toContain(
        "Master services agreement Signed by the Client below.",
      );
      expect(await download(documents.client, document.id, true)).toEqual(Buffer.from(original));
    },
  );

  test("the file kept is named for its format, whatever name it was sent with", async () => {
    const rtf = makeRtf({ paragraphs: ["Named wrongly"] });
    for (const [sent, kept] of [
      ["notes.pdf", "notes.rtf"],
      ["notes", "notes.rtf"],
      ["NOTES.RTF", "NOTES.RTF"],
    ]) {
      const document = await upload(documents.client, rtf, sent as string);
      expect([sent, document.source?.filename, document.filename]).toEqual([
        sent,
        kept,
        `${(kept as string).replace(/\.rtf$/i, "")}.pdf`,
      ]);
    }
  });

  test("a PDF uploaded as one has no source file to download", async () => {
    const document = await upload(documents.client, makeRtf({ paragraphs: ["x"] }), "note.rtf");
    const pdf = await download(documents.client, document.id);
    const again = await upload(documents.client, pdf, "again.pdf", "application/pdf");
    expect(again.source).toBeUndefined();
    const err = await failure(download(documents.client, again.id, true));
    expect(err.message).toContain("it has no source file");
  });

  test("a file that claims to be a Word document but is not one is refused, not read as text", async () => {
    // A ZIP of something else: LibreOffice, left to guess, made a PDF of its bytes as text.
    const { zipSync, strToU8 } = await import("fflate");
    const notWord = zipSync({ "data.txt": strToU8("not a document") });
    const err = await failure(upload(documents.client, notWord, "contract.docx"));
    expect(fieldViolations(err)).toEqual([
      {
        path: "file",
        message:
          "the file was taken for a Word document (DOCX), but LibreOffice could not open it; save it as PDF and upload that",
      },
    ]);
    const text = await failure(upload(documents.client, Buffer.from("plain words"), "notes.txt"));
    expect([problemOf(text), text.rawMessage]).toEqual([
      "unsupported_media_type",
      "the file is not a PDF, nor a Word document (DOCX), OpenDocument text (ODT), RTF, PNG or JPEG, the other files that can be uploaded",
    ]);
  });

  test("a document's linked image is not fetched while it is converted", async () => {
    let requests = 0;
    const server = createServer((_, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const { port } = server.address() as AddressInfo;
    try {
      const odt = makeOdt({
        paragraphs: ["With a picture"],
        linkedImageUrl: `http://127.0.0.1:${port}/logo.png`,
      });
      const document = await upload(documents.client, odt, "linked.odt");
      expect(document.pageCount).toBe(1);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

withLibreOffice("LibreOffice's box", () => {
  test("an RTF that takes in files of the server's converts without them: not the data directory's, not the system's", async () => {
    const documents = await startDocuments();
    try {
      // What another workspace keeps, beside the spool as in a standalone data directory.
      const picture = join(root, "other-workspace.png");
      const secret = join(root, "other-workspace.txt");
      await writeFile(picture, makeColourPng(600, 600, [0, 0, 0]));
      await writeFile(secret, "another workspace's words\n");
      const hostname = (await readFile("/etc/hostname", "utf8")).trim();
      const rtf = makeRtf({
        paragraphs: ["Before the fields"],
        includes: [
          { field: "INCLUDEPICTURE", url: pathToFileURL(picture).href },
          { field: "INCLUDETEXT", url: pathToFileURL(secret).href },
          { field: "INCLUDETEXT", url: secret },
          { field: "INCLUDETEXT", url: "file:///etc/hostname" },
        ],
      });
      const document = await upload(documents.client, rtf, "fields.rtf");
      const pdf = await download(documents.client, document.id);
      const text = await pdfText(pdf);
      expect(text).toContain("Before the fields");
      expect(text).not.toContain("another workspace");
      if (hostname.length >= 4) expect(text).not.toContain(hostname);
      // The page as a reader sees it: the text's few hundred dark pixels, not a 600-pixel black square.
      const page = inkOf(await renderRegion(pdf, 1, { x: 0, y: 0, width: 612, height: 792 }, 36));
      expect(page.cells.reduce((sum, cell) => sum + cell, 0)).toBeLessThan(3000);
    } finally {
      await documents.stop();
    }
  });

  test("soffice runs with its address space capped", async () => {
    const dir = await mkdtemp(join(root, "cap-"));
    const { chmod } = await import("node:fs/promises");
    const fake = join(dir, "soffice");
    // Stands in for soffice: writes the limits it runs under as the "PDF", where --outdir says.
    await writeFile(
      fake,
      '#!/bin/sh\nwhile [ "$1" != --outdir ]; do shift; done\ncat /proc/self/limits > "$2/source.pdf"\n',
    );
    await chmod(fake, 0o755);
    const converter = new LocalConverter({ libreOffice: fake, workDir: join(dir, "work"), memoryMb: 700 });
    try {
      await writeFile(join(dir, "in"), makeRtf({ paragraphs: ["x"] }));
      await converter.convert(join(dir, "in"), SourceFormat.RTF, join(dir, "out.pdf"), 0, {
        party: workspaceId,
      });
      const limits = await readFile(join(dir, "out.pdf"), "utf8");
      expect(limits).toMatch(new RegExp(`Max address space\\s+${700 * 1024 * 1024}\\s`));
    } finally {
      await converter.close();
    }
  });

  test("a document that needs more memory than the cap is converted without what did not fit, or refused, at once", async () => {
    const dir = await mkdtemp(join(root, "memory-"));
    // 25,000 × 25,000 pixels in 150 KB: LibreOffice, uncapped, took 870 MB and 33 s to draw it.
    await writeFile(
      join(dir, "in"),
      makeRtf({ paragraphs: ["A large picture"], picture: { width: 25_000, height: 25_000 } }),
    );
    const converter = new LocalConverter({ libreOffice, workDir: join(dir, "work"), memoryMb: 700 });
    try {
      const started = performance.now();
      const outcome = await converter
        .convert(join(dir, "in"), SourceFormat.RTF, join(dir, "out.pdf"), 0, { party: workspaceId })
        .then(
          () => "converted",
          (err: unknown) => fieldViolations(ConnectError.from(err))[0]?.message,
        );
      expect(performance.now() - started).toBeLessThan(25_000);
      if (outcome === "converted") {
        const pdf = await readFile(join(dir, "out.pdf"));
        const page = inkOf(await renderRegion(pdf, 1, { x: 0, y: 0, width: 612, height: 792 }, 36));
        expect(page.cells.reduce((sum, cell) => sum + cell, 0)).toBeLessThan(3000);
      } else {
        expect(outcome).toMatch(/LibreOffice stopped while reading it \(it may need more than 700 MiB\)/);
      }
    } finally {
      await converter.close();
    }
  });
});

withLibreOffice("limits", () => {
  test("a document longer than the page limit is refused as too long", async () => {
    const documents = await startDocuments({ maxPages: 5 });
    try {
      const rtf = makeRtf({
        paragraphs: Array.from({ length: 40 }, (_, i) => `Page ${i + 1}`),
        pageBreaks: true,
      });
      const err = await failure(upload(documents.client, rtf, "long.rtf"));
      expect(err.rawMessage).toMatch(/more than 5 pages/);
    } finally {
      await documents.stop();
    }
  });

  test("a conversion past the time limit is stopped, with every process LibreOffice started", async () => {
    const documents = await startDocuments({ conversionTimeoutMs: 50 });
    try {
      const err = await failure(upload(documents.client, makeDocx({ paragraphs: ["Slow"] }), "slow.docx"));
      expect(fieldViolations(err)[0]?.message).toBe(
        "the file was taken for a Word document (DOCX), but it was not converted within 0.05 s; save it as PDF and upload that",
      );
      const refused = (await conversionSeconds.get()).values.find(
        (v) => v.metricName === "document_conversion_seconds_count" && v.labels.outcome === "refused",
      );
      expect(refused?.value).toBeGreaterThanOrEqual(1);
      const { stdout } = await promisify(execFile)("ps", ["-eo", "args"]);
      expect(stdout.split("\n").filter((line) => line.includes(documents.spoolDir))).toEqual([]);
      // Nothing of the file is left in the spool.
      expect((await readdir(documents.spoolDir)).filter((name) => name.startsWith("upload-"))).toEqual([]);
    } finally {
      await documents.stop();
    }
  });
});

describe("without LibreOffice", () => {
  let documents: Awaited<ReturnType<typeof startDocuments>>;
  beforeAll(async () => {
    documents = await startDocuments({ libreOffice: "off" });
  });
  afterAll(() => documents.stop());

  test("an office document is refused with how to enable conversions", async () => {
    const err = await failure(upload(documents.client, makeDocx({ paragraphs: ["Hello"] }), "contract.docx"));
    expect(problemOf(err)).toBe("unsupported_media_type");
    expect(err.rawMessage).toBe(
      "converting a Word document (DOCX) to PDF needs LibreOffice, which this server does not have: install it " +
        "(Debian, Ubuntu: apt-get install libreoffice-writer-nogui bubblewrap) and restart, or point CONVERTER_ADDR at a " +
        "converter; or upload the document as a PDF",
    );
  });

  test.each([
    ["photo.png", () => Promise.resolve(makeColourPng(800, 600, [200, 30, 30])), "image/png"],
    ["scan.jpeg", makeJpeg, "image/jpeg"],
  ])("%s becomes a one-page PDF of the image", async (filename, make, mediaType) => {
    const image = await make();
    const document = await upload(documents.client, image, filename, mediaType);
    expect(document).toMatchObject({
      pageCount: 1,
      filename: filename.replace(/\.\w+$/, ".pdf"),
      source: { filename, contentType: mediaType, sha256: sha256(image) },
    });
    expect(await download(documents.client, document.id, true)).toEqual(Buffer.from(image));
  });

  test("an image of more pixels than a page is made of is refused before it is decoded", async () => {
    // 20,000 × 20,000 pixels of one colour deflate to a few hundred kilobytes.
    const { makePng } = await import("../../../test/support/pngs.js");
    const huge = makePng({ width: 20_000, height: 20_000, colour: 0, depth: 1 });
    const err = await failure(upload(documents.client, huge, "huge.png", "image/png"));
    expect(fieldViolations(err)[0]?.message).toBe(
      "the image is 20000 × 20000 pixels: upload one of at most 50 megapixels",
    );
  });

  test("a photo's EXIF GPS position, XMP, IPTC, ICC profile, comment and trailer stay out of the PDF everyone downloads", async () => {
    const marker = "WHERE-THE-PHOTO-WAS-TAKEN";
    const photo = withMetadata(await makeJpeg(), marker);
    const document = await upload(documents.client, photo, "photo.jpg", "image/jpeg");
    expect(document.pageCount).toBe(1);
    const pdf = await download(documents.client, document.id);
    const dir = await mkdtemp(join(root, "exif-"));
    const { writeFile, readFile } = await import("node:fs/promises");
    await writeFile(join(dir, "in.pdf"), pdf);
    await promisify(execFile)("qpdf", [
      "--qdf",
      "--object-streams=disable",
      "--stream-data=uncompress",
      join(dir, "in.pdf"),
      join(dir, "out.pdf"),
    ]);
    const uncompressed = await readFile(join(dir, "out.pdf"));
    const found = (bytes: Buffer) =>
      [marker, "Exif\0\0", "http://ns.adobe.com/xap", "ICC_PROFILE", "Photoshop 3.0"].filter((text) =>
        bytes.includes(text, 0, "latin1"),
      );
    expect({ pdf: found(pdf), uncompressed: found(uncompressed) }).toEqual({ pdf: [], uncompressed: [] });
    // The source is kept as it was sent, for the sender's workspace only.
    expect(await download(documents.client, document.id, true)).toEqual(photo);
  });
});

withLibreOffice("one conversion at a time, each workspace in turn", () => {
  test("a workspace that floods the converter is turned away past its own queue; another's file is taken, before the flood's", async () => {
    const dir = await mkdtemp(join(root, "turns-"));
    const converter = new LocalConverter({ libreOffice, workDir: join(dir, "work"), waitingPerParty: 2 });
    try {
      const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1"];
      for (const n of names)
        await writeFile(join(dir, `in-${n}`), makeRtf({ paragraphs: [`Document ${n}`] }));
      const ended: string[] = [];
      const convert = (party: string, n: string) =>
        converter
          .convert(join(dir, `in-${n}`), SourceFormat.RTF, join(dir, `out-${n}.pdf`), 0, { party })
          .then(
            () => ended.push(`converted ${n}`),
            (err: unknown) => {
              const refused = ConnectError.from(err);
              ended.push(`${Code[refused.code]} ${n}`);
              return refused;
            },
          );
      // Workspace A sends nine files at once; B sends one while A's first is being converted.
      const flood = names.slice(0, 9).map((n) => convert("A", n));
      await new Promise((r) => setTimeout(r, 100));
      const other = convert("B", "b1");
      const outcomes = await Promise.all([...flood, other]);
      // A's first runs, two more wait, six are refused with when to try again; B's is converted
      // next, before A's waiting ones.
      expect(ended.filter((e) => e.startsWith("ResourceExhausted"))).toEqual(
        ["a4", "a5", "a6", "a7", "a8", "a9"].map((n) => `ResourceExhausted ${n}`),
      );
      expect(ended.filter((e) => e.startsWith("converted"))).toEqual([
        "converted a1",
        "converted b1",
        "converted a2",
        "converted a3",
      ]);
      const refusal = outcomes[8] as ConnectError;
      expect(refusal.findDetails(RetryAfterSchema)[0]?.seconds).toBe(30);
    } finally {
      await converter.close();
    }
  });
});

withLibreOffice("a conversion's turn and its caller's deadline", () => {
  test("a file whose turn comes late is converted in the time its caller has left, or refused as busy when too little is left, never started to be cut off", async () => {
    const dir = await mkdtemp(join(root, "deadline-"));
    const converter = new LocalConverter({ libreOffice, workDir: join(dir, "work"), timeoutMs: 60_000 });
    try {
      await writeFile(join(dir, "in"), makeRtf({ paragraphs: ["x"] }));
      const convert = (deadline: number) =>
        runWithCallContext({ requestId: "deadline", deadline }, () =>
          converter.convert(join(dir, "in"), SourceFormat.RTF, join(dir, "out.pdf"), 0, {
            party: workspaceId,
          }),
        );
      // 20 s left: 10 s for what follows the conversion, 10 s for it — less than a conversion is started with.
      const err = await failure(convert(Date.now() + 20_000));
      expect([Code[err.code], err.findDetails(RetryAfterSchema)[0]?.seconds]).toEqual([
        "ResourceExhausted",
        30,
      ]);
      expect(err.rawMessage).toMatch(/too little of this upload's time was left to convert it/);
      // 35 s left, under the 60 s limit: a short document converts in what is left.
      await convert(Date.now() + 35_000);
      await convert(Date.now() + 90_000);
    } finally {
      await converter.close();
    }
  });
});

withLibreOffice("stopping and calling off", () => {
  /** A long RTF, which keeps LibreOffice busy for seconds. */
  const long = () =>
    makeRtf({
      paragraphs: Array.from({ length: 3000 }, (_, i) => `Clause ${i + 1}. ${"x ".repeat(60)}`),
      pageBreaks: true,
    });
  const running = async (workDir: string) => {
    const { stdout } = await promisify(execFile)("ps", ["-eo", "args"]);
    return stdout.split("\n").filter((line) => line.includes(workDir));
  };

  test.each([
    ["the converter stops", "Unavailable"],
    ["its caller goes away", "Canceled"],
  ])("when %s, the LibreOffice converting is killed and the file is not blamed", async (_when, code) => {
    const dir = await mkdtemp(join(root, "stop-"));
    const workDir = join(dir, "work");
    const converter = new LocalConverter({ libreOffice, workDir });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(dir, "in"), long());
    const caller = new AbortController();
    const conversion = converter.convert(join(dir, "in"), SourceFormat.RTF, join(dir, "out.pdf"), 0, {
      party: workspaceId,
      signal: caller.signal,
    });
    const outcome = conversion.then(
      () => "converted",
      (err: unknown) => Code[ConnectError.from(err).code],
    );
    for (let i = 0; i < 100 && (await running(workDir)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await running(workDir)).length).toBeGreaterThan(0);
    if (code === "Canceled") caller.abort();
    else await converter.close();
    expect(await outcome).toBe(code);
    await new Promise((r) => setTimeout(r, 200));
    expect(await running(workDir)).toEqual([]);
    await converter.close();
  });

  test("soffice is given none of the service's variables, only what it needs to run", async () => {
    const dir = await mkdtemp(join(root, "env-"));
    const { chmod } = await import("node:fs/promises");
    const fake = join(dir, "soffice");
    // Stands in for soffice: writes the environment it was given as the "PDF", where --outdir says.
    await writeFile(fake, '#!/bin/sh\nwhile [ "$1" != --outdir ]; do shift; done\nenv > "$2/source.pdf"\n');
    await chmod(fake, 0o755);
    process.env.COUNTERSIGN_TEST_SECRET = "a-secret-value";
    try {
      const converter = new LocalConverter({ libreOffice: fake, workDir: join(dir, "work") });
      await writeFile(join(dir, "in"), makeRtf({ paragraphs: ["x"] }));
      await converter.convert(join(dir, "in"), SourceFormat.RTF, join(dir, "out.pdf"), 0, {
        party: workspaceId,
      });
      const names = (await readFile(join(dir, "out.pdf"), "utf8"))
        .split("\n")
        .map((line) => line.split("=")[0]);
      expect(names).not.toContain("COUNTERSIGN_TEST_SECRET");
      expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "TMPDIR"]));
      await converter.close();
    } finally {
      delete process.env.COUNTERSIGN_TEST_SECRET;
    }
  });

  test("a stopped converter's folder is swept after an hour; each conversion has a profile of its own, closed to links, removed after it", async () => {
    const dir = await mkdtemp(join(root, "sweep-"));
    const { mkdir, utimes } = await import("node:fs/promises");
    const old = new Date(Date.now() - 2 * 3_600_000);
    await mkdir(join(dir, "converter-stopped"));
    await utimes(join(dir, "converter-stopped"), old, old);
    await mkdir(join(dir, "converter-busy"));
    expect(await sweepConverterFolders(dir)).toBe(1);
    expect(await readdir(dir)).toEqual(["converter-busy"]);

    let requests = 0;
    const server = createServer((_, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const { port } = server.address() as AddressInfo;
    const workDir = join(dir, "converter-busy");
    // Unconfined, so that the profile's settings alone keep the link from being fetched.
    const converter = new LocalConverter({ libreOffice, workDir, sandbox: "off" });
    try {
      await writeFile(
        join(dir, "in"),
        makeOdt({ paragraphs: ["Linked"], linkedImageUrl: `http://127.0.0.1:${port}/x.png` }),
      );
      await converter.convert(join(dir, "in"), SourceFormat.ODT, join(dir, "one.pdf"), 0, {
        party: workspaceId,
      });
      await converter.convert(join(dir, "in"), SourceFormat.ODT, join(dir, "two.pdf"), 0, {
        party: workspaceId,
      });
      expect(requests).toBe(0);
      expect(await readdir(workDir)).toEqual([]);
    } finally {
      server.close();
      await converter.close();
    }
  });
});

withLibreOffice("the converter deployment", () => {
  test("the documents service converts through ConverterService, keeping what it was sent", async () => {
    const converter = new LocalConverter({ libreOffice, workDir: join(root, "remote-converter") });
    const client = serviceClient(
      ConverterService,
      inMemoryTransport(
        converterRoutes(converter, { spoolDir: join(root, "converter-spool"), maxUploadBytes: 1 << 20 }),
        interceptors(),
      ),
    );
    const documents = await startDocuments({ libreOffice: "off", converter: new RemoteConverter(client) });
    try {
      const docx = makeDocx({ paragraphs: ["Converted elsewhere"] });
      const document = await upload(documents.client, docx, "remote.docx");
      expect(await pdfText(await download(documents.client, document.id))).toContain("Converted elsewhere");
      expect(document.source?.sha256).toBe(sha256(docx));
    } finally {
      await documents.stop();
      await converter.close();
    }
  });
});
