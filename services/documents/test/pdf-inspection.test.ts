/**
 * The inspector's job process makes an original safe to sign without the service ever holding the
 * file: the safe file is written where the service asks, and only its size, SHA-256 and what was
 * removed come back. Returned as bytes, a 25 MiB upload that needed it grew the service by 25 MiB.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, PDFName } from "pdf-lib";
import { makeManyObjectPdf, makePdf } from "../../../test/support/pdfs.js";
import { makePdfWithJavaScript } from "../../../test/support/unsafe-pdfs.js";
import { PdfInspector } from "../src/pdf-inspection.js";

let dir: string;
const inspector = new PdfInspector();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inspection-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));
afterAll(() => inspector.close());

test("a file that needs making safe is written where asked, and only its size, hash and what went come back", async () => {
  const upload = join(dir, "upload.pdf");
  await writeFile(upload, await makePdfWithJavaScript());
  const safePath = join(dir, "upload.pdf.sanitized");
  const { inspection, sanitized } = await inspector.file(upload, {
    hash: true,
    sanitizeTo: safePath,
    party: "w",
  });
  expect(inspection.ok).toBe(true);
  expect(sanitized).toEqual({
    path: safePath,
    sizeBytes: (await stat(safePath)).size,
    sha256: createHash("sha256")
      .update(await readFile(safePath))
      .digest("hex"),
    removed: expect.arrayContaining([expect.stringMatching(/action|JavaScript/i)]),
  });
  const safe = await PDFDocument.load(await readFile(safePath));
  expect(safe.catalog.has(PDFName.of("OpenAction"))).toBe(false);
});

test("a file that is already safe is not written again, and nothing is made unless asked for", async () => {
  const upload = join(dir, "plain.pdf");
  await writeFile(upload, await makePdf(2));
  const safePath = join(dir, "plain.pdf.sanitized");
  expect(
    (await inspector.file(upload, { hash: false, sanitizeTo: safePath, party: "w" })).sanitized,
  ).toBeUndefined();
  await writeFile(upload, await makePdfWithJavaScript());
  const { sanitized } = await inspector.file(upload, { hash: false, party: "w" });
  expect(sanitized).toBeUndefined();
  await expect(stat(safePath)).rejects.toThrow();
});

test("the reader is shared per workspace: a workspace sending slow files waits behind its own, and another's file is read next", async () => {
  const shared = new PdfInspector();
  try {
    const slow = join(dir, "slow.pdf");
    await writeFile(slow, makeManyObjectPdf(150_000));
    const quick = join(dir, "quick.pdf");
    await writeFile(quick, await makePdf(1));
    const order: string[] = [];
    const read = (path: string, party: string, name: string) =>
      shared.file(path, { hash: false, party }).then(() => order.push(name));
    const flood = [1, 2, 3].map((i) => read(slow, "a", `a${i}`));
    // a1 is being read, a2 and a3 wait, when b's file arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([...flood, read(quick, "b", "b")]);
    expect(order).toEqual(["a1", "b", "a2", "a3"]);
  } finally {
    shared.close();
  }
});
