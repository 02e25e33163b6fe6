/**
 * Typed signatures are handwritten in every script a name can be in, on the sealed PDF and on the
 * signing page alike. The page reads its faces from its own files (face-rules.ts loads the style
 * sheets, base.css names the families in order) and the seal from font-stacks.ts: held equal here,
 * so neither side can gain or reorder a face alone.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PDFDict, PDFDocument, PDFName, rgb } from "pdf-lib";
import { facesOf, STACK_SHEETS } from "../services/requests/src/core/font-stacks.js";
import { Typesetter } from "../services/requests/src/pdf/layout/typesetter.js";
import { REPO } from "./support/deployments.js";

/** A typed signature in each script a name can be in, and the handwriting face that draws it. */
const NAMES = [
  { name: "Ada Lovelace", face: "Caveat" },
  { name: "Дмитрий Шостакович", face: "Caveat" },
  { name: "Ελευθερία Βενιζέλου", face: "PlaypenSans" },
  { name: "देवनागरी शर्मा", face: "Kalam" },
  { name: "محمد عبد الله", face: "ArefRuqaa" },
  { name: "李小龙", face: "LongCang" },
  { name: "さくら", face: "KleeOne" },
];

/** The font names of a sealed PDF's page, without their subset tags ("ABCDEF+Caveat" is "Caveat"), each once. */
function fontsOnPage(pdf: PDFDocument): string[] {
  const fonts = pdf.getPage(0).node.Resources()?.lookup(PDFName.of("Font"), PDFDict);
  const names = (fonts?.values() ?? []).map((ref) => {
    const font = pdf.context.lookup(ref, PDFDict);
    return String(font.get(PDFName.of("BaseFont"))).replace(/^\/[A-Z]{6}\+/, "");
  });
  return [...new Set(names)];
}

async function sealedWith(stack: "handwriting" | "text", text: string): Promise<string[]> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([400, 100]);
  const typesetter = new Typesetter();
  typesetter.draw(page, stack, text, { x: 10, y: 40, size: 24, color: rgb(0, 0, 0) });
  await typesetter.finish(pdf);
  return fontsOnPage(await PDFDocument.load(await pdf.save()));
}

test.each(NAMES)(
  "a typed signature $name is sealed in a handwriting face, $face, not the text face",
  async ({ name, face }) => {
    const text = await sealedWith("text", name);
    expect(await sealedWith("handwriting", name)).toEqual([face]);
    expect(text).not.toContain(face);
  },
);

/** The families a style sheet's faces are declared in, in order, each once. */
const familiesOf = (sheets: readonly string[]) => [
  ...new Set(sheets.flatMap(facesOf).map((face) => face.family)),
];

test("the signing page loads the seal's faces and names their families in the seal's order", async () => {
  const rules = await readFile(join(REPO, "gateway/web/signing/face-rules.ts"), "utf8");
  const loaded = [...rules.matchAll(/import "(@fontsource\/[^"]+\.css)";/g)].map(([, sheet]) => sheet);
  expect(loaded).toEqual([...new Set([...STACK_SHEETS.handwriting, ...STACK_SHEETS.text])]);

  const css = await readFile(join(REPO, "gateway/web/shared/base.css"), "utf8");
  const variable = (name: string) =>
    (new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1] ?? "")
      .split(",")
      .map((family) => family.trim().replaceAll('"', ""));
  expect(variable("handwriting")).toEqual(familiesOf(STACK_SHEETS.handwriting));
  expect(variable("sealed-text")).toEqual(familiesOf(STACK_SHEETS.text));
});
