/**
 * What the signer typed is what the sealed PDF shows, proved by rendering rather than by reading
 * its text layer (which held "Ada Lovelace" while poppler drew "Ad"). Names in several scripts are
 * typed as signatures and into text fields; the sealed PDF's fields are rendered by poppler, and
 * each is compared, as a shape, with the same text rendered by Chromium in the faces and fallback
 * order the signing page uses — what the signer saw. A name holding a character no face can draw
 * is refused when submitted, naming it. A date signed, whichever language the signing page showed it
 * in, is sealed in the document's one form (YYYY-MM-DD) and compared the same way. Crops of both
 * renderings land in test/artifacts/.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { dayOf } from "@countersign/domain";
import { PDFDocument } from "pdf-lib";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigner, type SessionField } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { inkOf, likeness, renderRegion } from "./support/ink.js";

const ARTIFACTS = join(REPO, "test", "artifacts", "sealed-rendering");

const NAMES = [
  "Ada Lovelace",
  "Zoë Ångström",
  "Łukasz Żółć",
  "Дмитрий Шостакович",
  "Ελευθερία Βενιζέλου",
  "李小龙",
  "محمد عبد الله",
  "שרה לוי",
];

/** The signing page's font stacks, as its own style sheet declares them. */
async function pageStacks(): Promise<{ handwriting: string; text: string }> {
  const css = await readFile(join(REPO, "gateway/web/shared/base.css"), "utf8");
  const variable = (name: string) => {
    const value = new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1];
    if (!value) throw new Error(`base.css declares no --${name}`);
    return value;
  };
  return { handwriting: variable("handwriting"), text: variable("sealed-text") };
}

/** The @fontsource style sheets the signing page loads (after its first paint: faces.ts). */
async function pageFontSheets(): Promise<string[]> {
  const main = await readFile(join(REPO, "gateway/web/signing/face-rules.ts"), "utf8");
  return [...main.matchAll(/import "(@fontsource\/[^"]+\.css)";/g)].map(([, sheet]) => sheet as string);
}

/** Serves node_modules/@fontsource to the reference page. */
function fontServer(): Promise<Server> {
  const root = join(REPO, "node_modules");
  const types: Record<string, string> = { ".css": "text/css", ".woff2": "font/woff2", ".woff": "font/woff" };
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (!path.startsWith("/@fontsource/")) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(join(root, path));
      // Fonts are loaded across origins only with CORS.
      res
        .writeHead(200, {
          "content-type": types[extname(path)] ?? "application/octet-stream",
          "access-control-allow-origin": "*",
        })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Each text as Chromium renders it in a font stack, black on white, large. */
async function referenceRenderings(
  browser: Browser,
  fonts: string,
  /** `dir: "auto"` for a value the page shows in its own reading order (a date), as the seal draws it. */
  samples: { text: string; family: string; dir?: "auto" }[],
): Promise<Buffer[]> {
  const sheets = (await pageFontSheets()).map((sheet) => `<link rel="stylesheet" href="${fonts}/${sheet}">`);
  const page = await browser.newPage({ viewport: { width: 1600, height: 400 } });
  try {
    const html = samples
      .map(
        ({ text, family, dir }, i) =>
          `<div id="s${i}"${dir ? ` dir="${dir}"` : ""} style="font-family:${family.replaceAll('"', "'")}">${text}</div>`,
      )
      .join("");
    await page.setContent(
      `<!doctype html><meta charset="utf-8">${sheets.join("")}<style>body{margin:0;background:#fff}` +
        "div{display:inline-block;padding:24px;font-size:96px;line-height:1.5;white-space:nowrap;color:#000}</style>" +
        html,
    );
    // Every face each text needs, loaded before anything is captured.
    const loads = JSON.stringify(samples.map(({ text, family }) => [`96px ${family}`, text]));
    await page.evaluate(
      `Promise.all(${loads}.map(([font, text]) => document.fonts.load(font, text))).then(() => document.fonts.ready)`,
    );
    return await Promise.all(samples.map((_, i) => page.locator(`#s${i}`).screenshot()));
  } finally {
    await page.close();
  }
}

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;
let fonts: Server;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [deployment, browser, fonts] = await Promise.all([startStandalone(), launchChromium(), fontServer()]);
  gateway = deployment.gateways[0] as string;
  key = (
    JSON.parse((await deployment.cli("keys", "create", "--name", "rendering")).stdout) as { secret: string }
  ).secret;
});
afterAll(async () => {
  await browser?.close();
  fonts?.close();
  await deployment?.destroy();
});

/** The sealed PDF of a request, once its completion has made one. */
async function sealedPdfOf(requestId: string): Promise<Uint8Array> {
  const signedDocumentId = await eventually(async () => {
    const got = await call(`${gateway}/api/v1`, `/signature-requests/${requestId}`, { key });
    return (got.body as { signedDocumentId: string | null }).signedDocumentId ?? undefined;
  }, 60_000);
  const sealed = await fetch(`${gateway}/api/v1/documents/${signedDocumentId}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return new Uint8Array(await sealed.arrayBuffer());
}

/** A blank page tall enough for a signature and a text field per name. */
async function blankPage(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 60 + NAMES.length * 80]);
  return pdf.save();
}

const fieldsOf = (names: string[]): Omit<SessionField, "id">[] =>
  names.flatMap((_, i) => [
    { type: "signature", page: 1, x: 30, y: 30 + i * 80, width: 300, height: 56 },
    { type: "text", page: 1, x: 350, y: 48 + i * 80, width: 230, height: 22 },
  ]);

test("every name is sealed as the signing page showed it, in every script; what no face can draw is refused by name", async () => {
  const { request, signer, layout } = await embeddedSigner(gateway, key, {
    pdf: await blankPage(),
    fields: fieldsOf(NAMES),
  });
  const byPlace = [...layout].sort((a, b) => a.y - b.y || a.x - b.x);
  const values = (names: string[]) =>
    Object.fromEntries(
      byPlace.map((field, i) => {
        const name = names[Math.floor(i / 2)] ?? "";
        return [field.id, field.type === "signature" ? { kind: "typed", text: name } : name];
      }),
    );

  const refused = await signer.call("/sign/api/submit", {
    consent: true,
    values: values(NAMES.map((name, i) => (i === 0 ? "José 😀" : name))),
  });
  expect(refused.status).toBe(422);
  const [signature, text] = byPlace;
  expect((refused.body as { errors: unknown[] }).errors).toEqual([
    {
      path: `values.${signature?.id}`,
      message: 'holds a character the sealed document cannot show: "😀" (U+1F600)',
    },
    {
      path: `values.${text?.id}`,
      message: 'holds a character the sealed document cannot show: "😀" (U+1F600)',
    },
  ]);

  expect((await signer.call("/sign/api/submit", { consent: true, values: values(NAMES) })).status).toBe(200);
  const sealed = await sealedPdfOf(request.id);

  const stacks = await pageStacks();
  const samples = byPlace.map((field, i) => ({
    field,
    text: NAMES[Math.floor(i / 2)] as string,
    family: field.type === "signature" ? stacks.handwriting : stacks.text,
  }));
  const address = fonts.address() as AddressInfo;
  const references = await referenceRenderings(browser, `http://127.0.0.1:${address.port}`, samples);
  const results = [];
  for (const [i, { field, text }] of samples.entries()) {
    // Inside the field's box, clear of anything else on the page.
    const box = { x: field.x + 1, y: field.y + 1, width: field.width - 2, height: field.height - 2 };
    const sealedCrop = await renderRegion(sealed, field.page, box);
    const reference = references[i] as Buffer;
    await writeFile(join(ARTIFACTS, `${i}-${field.type}-sealed.png`), sealedCrop);
    await writeFile(join(ARTIFACTS, `${i}-${field.type}-page.png`), reference);
    const like = likeness(inkOf(sealedCrop), inkOf(reference));
    results.push({ text, type: field.type, aspect: like.aspect, overlap: like.overlap });
  }
  await writeFile(join(ARTIFACTS, "likeness.json"), JSON.stringify(results, null, 2));
  for (const result of results) {
    expect({ ...result, alike: result.aspect >= 0.85 && result.overlap >= 0.75 }).toEqual({
      ...result,
      alike: true,
    });
  }
});

test("a date signed is sealed in the document's one form, the day in the signer's zone, whatever language the page showed it in", async () => {
  const locales = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "pl", "ja", "ar"];
  const signed = await Promise.all(
    locales.map(async (locale) => {
      const { request, signer, layout } = await embeddedSigner(gateway, key, {
        pdf: await blankPage(),
        fields: [
          { type: "signature", page: 1, x: 30, y: 30, width: 200, height: 50 },
          { type: "date_signed", page: 1, x: 300, y: 40, width: 200, height: 24 },
        ],
      });
      const form = { locale, timeZone: "Asia/Tokyo" };
      if (locale === "en") {
        // A form the page could not have sent is refused, not sealed some other way.
        const unknownZone = await signer.call("/sign/api/date-signed?locale=en&timeZone=Mars%2FBase");
        expect(unknownZone.status).toBe(422);
        const signature = layout.find((f) => f.type === "signature") as SessionField;
        const refused = await signer.call("/sign/api/submit", {
          consent: true,
          values: { [signature.id]: { kind: "typed", text: "Ada" } },
          locale: "en",
          timeZone: "Mars/Base",
        });
        expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
          "timeZone",
        ]);
      }
      const shown = (await signer.call(`/sign/api/date-signed?${new URLSearchParams(form)}`)).body as {
        text: string;
      };
      const signature = layout.find((f) => f.type === "signature") as SessionField;
      const submitted = await signer.call("/sign/api/submit", {
        consent: true,
        values: { [signature.id]: { kind: "typed", text: "Ada" } },
        ...form,
      });
      expect(submitted.status).toBe(200);
      const day = dayOf(new Date(), form.timeZone);
      return { locale, request, shown: shown.text, day, field: layout.find((f) => f.type === "date_signed") };
    }),
  );
  const stacks = await pageStacks();
  const address = fonts.address() as AddressInfo;
  const references = await referenceRenderings(
    browser,
    `http://127.0.0.1:${address.port}`,
    signed.map(({ day }) => ({ text: day, family: stacks.text, dir: "auto" as const })),
  );
  const results = [];
  for (const [i, { locale, request, shown, day, field }] of signed.entries()) {
    if (!field) throw new Error("the request has no date signed field");
    const sealed = await sealedPdfOf(request.id);
    const box = { x: field.x + 1, y: field.y + 1, width: field.width - 2, height: field.height - 2 };
    const sealedCrop = await renderRegion(sealed, field.page, box);
    await writeFile(join(ARTIFACTS, `date-${locale}-sealed.png`), sealedCrop);
    await writeFile(join(ARTIFACTS, `date-${locale}-page.png`), references[i] as Buffer);
    const like = likeness(inkOf(sealedCrop), inkOf(references[i] as Buffer));
    results.push({ locale, shown, sealed: day, aspect: like.aspect, overlap: like.overlap });
  }
  await writeFile(join(ARTIFACTS, "date-likeness.json"), JSON.stringify(results, null, 2));
  for (const result of results) {
    expect({ ...result, alike: result.aspect >= 0.85 && result.overlap >= 0.75 }).toEqual({
      ...result,
      alike: true,
    });
  }
}, 120_000);
