/**
 * One verifier, three doors: `POST /verify` in both API families, the public /verify page (in
 * Chromium, with a screenshot of each verdict), and `npm run cli -- verify`, offline. They agree
 * on a document sealed here and on each file of an attack corpus made from it; the service adds
 * whether the file is the copy it stored. The page needs no key, stores nothing, and passes axe.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFRef } from "pdf-lib";
import type { Browser } from "playwright-core";
import { appendRevision } from "../services/requests/src/pdf/pades/incremental-update.js";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigner } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdfWithUnusedObject } from "./support/unsafe-pdfs.js";

const run = promisify(execFile);
const ARTIFACTS = join(REPO, "test/artifacts/verify");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let deployment: Deployment;
let gateway: string;
let key: string;
let accountId: string;
let sealed: Uint8Array;
let requestId: string;
let browser: Browser;

interface Report {
  verdict: string;
  summary: string;
  level: string;
  requestId: string | null;
  changesAfterSeal: string[];
  stored: { identical: boolean; requestId: string } | null;
}

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  const created = JSON.parse((await deployment.cli("keys", "create", "--name", "verify")).stdout) as {
    secret: string;
    accountId: string;
  };
  key = created.secret;
  accountId = created.accountId;
  ({ requestId, sealed } = await signedAndSealed());
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
});

/** A one-page request for `pdf` (a plain page by default), signed by Ada, and the PDF it sealed. */
async function signedAndSealed(pdf?: Uint8Array): Promise<{ requestId: string; sealed: Uint8Array }> {
  const { request, signer, fields } = await embeddedSigner(gateway, key, { pdf });
  await signer.call("/sign/api/submit", {
    consent: true,
    values: Object.fromEntries(fields.map((id) => [id, { kind: "typed", text: "Ada Lovelace" }])),
  });
  const api = `${gateway}/api/v1`;
  const done = await eventually(async () => {
    const got = (await call(api, `/signature-requests/${request.id}`, { key })).body as {
      status: string;
      signedDocumentId: string;
    };
    return got.status === "completed" ? got : undefined;
  }, 60_000);
  const download = await fetch(`${api}/documents/${done.signedDocumentId}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { requestId: request.id, sealed: new Uint8Array(await download.arrayBuffer()) };
}

/** The attack corpus: each file, and what every door must say of it. */
async function corpus(): Promise<[string, Uint8Array, string, string | undefined][]> {
  const annotated = await appendRevision(sealed, (doc) => {
    const page = doc.getPage(0);
    const note = doc.context.register(
      doc.context.obj({ Type: "Annot", Subtype: "FreeText", Rect: [50, 50, 300, 100], Contents: "Paid" }),
    );
    const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (annots) annots.push(note);
    else page.node.set(PDFName.of("Annots"), doc.context.obj([note]));
  });
  const flipped = Buffer.from(sealed);
  flipped[300] = (flipped[300] as number) ^ 0x01;
  return [
    ["as sealed", sealed, "intact", undefined],
    [
      "with bytes appended",
      Buffer.concat([Buffer.from(sealed), Buffer.from("\n% appended\nxx")]),
      "modified",
      "bytes were appended",
    ],
    ["with an annotation added", annotated, "modified", "an annotation was added to or removed from page 1"],
    ["with one byte changed", flipped, "invalid", "the signed bytes have changed"],
  ];
}

async function viaApi(
  path: string,
  pdf: Uint8Array,
  withKey = true,
): Promise<{ status: number; body: Report }> {
  const res = await fetch(`${gateway}${path}`, {
    method: "POST",
    headers: { "content-type": "application/pdf", ...(withKey ? { authorization: `Bearer ${key}` } : {}) },
    body: pdf,
  });
  return { status: res.status, body: (await res.json()) as Report };
}

/** Every stream the file holds, referenced or not, decompressed, as text: what it holds, hidden or not. */
async function everyStream(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.context
    .enumerateIndirectObjects()
    .filter((entry): entry is [PDFRef, PDFRawStream] => entry[1] instanceof PDFRawStream)
    .map(([, stream]) => {
      try {
        return Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      } catch {
        // A filter pdf-lib does not decode (an image's DCT): its bytes as they are.
        return Buffer.from(stream.getContents()).toString("latin1");
      }
    })
    .join("\n");
}

async function viaCli(pdf: Uint8Array): Promise<{ code: number; report: Report }> {
  const dir = await mkdtemp(join(tmpdir(), "verify-cli-"));
  const file = join(dir, "document.pdf");
  await writeFile(file, pdf);
  try {
    const { stdout } = await run("npm", ["run", "-s", "cli", "--", "verify", file], { cwd: REPO });
    return { code: 0, report: JSON.parse(stdout) as Report };
  } catch (err) {
    const { code, stdout } = err as { code: number; stdout: string };
    return { code, report: JSON.parse(stdout) as Report };
  }
}

test("the API in both families, the public call and the CLI agree on the sealed document and on every attack file", async () => {
  for (const [name, pdf, verdict, change] of await corpus()) {
    const keyed = await viaApi("/api/v1/verify", pdf);
    expect({ name, status: keyed.status, verdict: keyed.body.verdict }).toEqual({
      name,
      status: 200,
      verdict,
    });
    expectDocumented("POST", "/api/v1/verify", 200, keyed.body);
    const account = await viaApi(`/v1/accounts/${accountId}/verify`, pdf);
    const open = await viaApi("/verify/api/report", pdf, false);
    expectDocumented("POST", "/verify/api/report", 200, open.body);
    const offline = await viaCli(pdf);
    for (const other of [account.body, open.body]) expect(other).toEqual(keyed.body);
    // The CLI knows only the file: the same verdict, level and changes, without the stored copy.
    expect(offline.report).toMatchObject({
      verdict: keyed.body.verdict,
      level: keyed.body.level,
      summary: keyed.body.summary,
      changesAfterSeal: keyed.body.changesAfterSeal,
    });
    expect(offline.code).toBe(verdict === "intact" ? 0 : 1);
    if (change) expect(`${keyed.body.summary} ${keyed.body.changesAfterSeal.join(" ")}`).toContain(change);
    expect(keyed.body.requestId).toBe(requestId);
    expect(keyed.body.stored).toMatchObject({ requestId, identical: name === "as sealed" });
  }
}, 180_000);

test("a shadow attack has nothing to bring back: an overlay kept unused in the source is not in the sealed file, and an update showing it is reported", async () => {
  const overlay = /PAID IN FULL/;
  const source = await makePdfWithUnusedObject();
  expect(await everyStream(source)).toMatch(overlay);
  const shadowed = await signedAndSealed(source);
  expect(await everyStream(shadowed.sealed)).not.toMatch(overlay);
  expect((await viaApi("/api/v1/verify", shadowed.sealed)).body.verdict).toBe("intact");

  // What the attacker would have only switched on must now be added, and adding to a page shows.
  const revealed = await appendRevision(shadowed.sealed, (doc) => {
    const stream = doc.context.register(
      doc.context.flateStream("BT /F1 48 Tf 100 400 Td (PAID IN FULL) Tj ET"),
    );
    const contents = doc.getPage(0).node.get(PDFName.of("Contents"));
    doc
      .getPage(0)
      .node.set(
        PDFName.of("Contents"),
        doc.context.obj([...(contents instanceof PDFArray ? contents.asArray() : [contents]), stream]),
      );
  });
  const report = (await viaApi("/api/v1/verify", revealed)).body;
  expect(report.verdict).toBe("modified");
  expect(report.changesAfterSeal.join(" ")).toContain("page 1");
}, 120_000);

test("the API refuses a call without a key; the public call needs none and refuses what is not a PDF upload", async () => {
  expect((await viaApi("/api/v1/verify", sealed, false)).status).toBe(401);
  const json = await fetch(`${gateway}/verify/api/report`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(json.status).toBe(415);
});

test("the public page: drop a PDF, read the verdict in words; a changed copy says what changed; axe finds nothing serious", async () => {
  // axe-core is injected as a script, which the page's own CSP rightly refuses.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${gateway}/verify/`);
  await page.getByRole("heading", { name: "Verify a sealed document" }).waitFor();
  const axe = async () => {
    await page.addScriptTag({ path: AXE });
    const violations = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as {
      id: string;
      impact: string | null;
    }[];
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  };
  expect(await axe()).toEqual([]);
  const [, , [, annotated]] = (await corpus()) as [unknown, unknown, [string, Uint8Array]];
  await page
    .getByTestId("file-input")
    .setInputFiles({ name: "lease (signed).pdf", mimeType: "application/pdf", buffer: Buffer.from(sealed) });
  const report = page.getByTestId("report");
  await report.waitFor();
  expect(await report.getAttribute("data-verdict")).toBe("intact");
  await page.getByRole("heading", { name: "Intact: this is the document as it was sealed" }).waitFor();
  expect(await page.getByTestId("stored").textContent()).toContain("byte for byte the sealed document");
  expect(await axe()).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "intact.png"), fullPage: true });

  await page.getByTestId("file-input").setInputFiles({
    name: "lease (edited).pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(annotated),
  });
  await page.locator('[data-testid="report"][data-verdict="modified"]').waitFor();
  expect(await page.getByTestId("changes").textContent()).toContain(
    "an annotation was added to or removed from page 1",
  );
  expect(await page.getByTestId("stored").textContent()).toContain("differs from the sealed document");
  await page.screenshot({ path: join(ARTIFACTS, "modified.png"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(ARTIFACTS, "modified-phone.png"), fullPage: true });
  expect(await axe()).toEqual([]);
  await context.close();
}, 120_000);

test("the public call is limited per address: past a few files it asks to wait", async () => {
  const answers: number[] = [];
  for (let i = 0; i < 12; i += 1) answers.push((await viaApi("/verify/api/report", sealed, false)).status);
  expect(answers).toContain(429);
  const limited = await fetch(`${gateway}/verify/api/report`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: sealed,
  });
  expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
}, 60_000);
