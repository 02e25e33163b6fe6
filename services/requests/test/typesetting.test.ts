import { basename } from "node:path";
import { dateSignedText } from "@countersign/domain";
import { codePointName, drawable, faceFor, unwritable, unwritableProblem } from "../src/core/font-stacks.js";
import { visualRuns } from "../src/pdf/layout/typesetter.js";

const faceOf = (stack: "handwriting" | "text" | "bold", character: string) =>
  basename(faceFor(stack, character.codePointAt(0) as number)?.file ?? "none");

test("a character is drawn in the first face of its stack that has it, as the browser picks it", () => {
  expect(faceOf("handwriting", "A")).toBe("caveat-latin-400-normal.woff2");
  expect(faceOf("handwriting", "Ł")).toBe("caveat-latin-ext-400-normal.woff2");
  expect(faceOf("handwriting", "Д")).toBe("caveat-cyrillic-400-normal.woff2");
  // Caveat has no Greek: the next face of the stack draws it, a handwriting face of that script.
  expect(faceOf("handwriting", "λ")).toBe("playpen-sans-greek-400-normal.woff2");
  expect(faceOf("handwriting", "م")).toBe("aref-ruqaa-arabic-400-normal.woff2");
  expect(faceOf("handwriting", "李")).toMatch(/^long-cang-\d+-400-normal\.woff2$/);
  expect(faceOf("handwriting", "さ")).toMatch(/^klee-one-\d+-400-normal\.woff2$/);
  // A letter no handwriting face has (Uyghur ve, which Aref Ruqaa lacks) is drawn in a text face.
  expect(faceOf("handwriting", "ۋ")).toBe("noto-sans-arabic-arabic-400-normal.woff2");
  // Hebrew has no handwriting face: Noto Sans Hebrew draws it, regular and bold.
  expect(faceOf("handwriting", "ש")).toBe("noto-sans-hebrew-hebrew-400-normal.woff2");
  expect(faceOf("bold", "ש")).toBe("noto-sans-hebrew-hebrew-700-normal.woff2");
  expect(faceOf("text", "A")).toBe("noto-sans-latin-400-normal.woff2");
  expect(faceOf("bold", "A")).toBe("noto-sans-latin-700-normal.woff2");
});

test("what no face draws is named, and written as its code point rather than dropped", () => {
  expect(unwritable("handwriting", "José 😀 and 😀 again 🎉")).toEqual(["😀", "🎉"]);
  expect(unwritable("text", "Ada Lovelace, 李小龙, محمد, שרה לוי")).toEqual([]);
  expect(codePointName("😀")).toBe("U+1F600");
  expect(unwritableProblem("text", "a😀")).toBe(
    'holds a character the sealed document cannot show: "😀" (U+1F600)',
  );
  expect(drawable("text", "José 😀")).toBe("José [U+1F600]");
});

test("runs come in the order they are seen: right-to-left text reversed, faces split, spaces kept with their text", () => {
  const runs = visualRuns("handwriting", "Ada محمد عبد 李");
  expect(
    runs.map((r) => ({ text: r.text, rtl: r.rtl, face: basename(r.face.file).split("-400")[0] })),
  ).toEqual([
    { text: "Ada ", rtl: false, face: "caveat-latin" },
    { text: "محمد عبد", rtl: true, face: "aref-ruqaa-arabic" },
    { text: " ", rtl: false, face: "caveat-latin" },
    { text: "李", rtl: false, face: expect.stringMatching(/^long-cang-\d+$/) },
  ]);
  // The paragraph is left to right, as on the signing page: a line that starts right to left keeps
  // its right-to-left words first, and their letters in their order.
  expect(visualRuns("text", "محمد Ada").map((r) => [r.text, r.rtl])).toEqual([
    ["محمد", true],
    [" Ada", false],
  ]);
});

test("an Arabic date reads right to left on the sealed page, as the signing page shows it: year, month, day from the left", () => {
  const date = dateSignedText(new Date("2026-12-06T12:00:00Z"), "ar", "UTC");
  expect(date).toBe("6 ديسمبر 2026");
  // Runs from the left; a right-to-left run's letters (and its trailing space) are drawn right to left.
  expect(visualRuns("text", date, "auto").map((r) => [r.text, r.rtl])).toEqual([
    ["2026", false],
    ["ديسمبر ", true],
    [" ", true],
    ["6", false],
  ]);
  // Left to right at the base, the year came between the day and the month: "6 2026 ديسمبر".
  expect(visualRuns("text", date, "ltr").map((r) => r.text)).toEqual(["6 ", "2026", "ديسمبر "]);
  // A value that starts left to right keeps its left-to-right line.
  expect(visualRuns("text", "ACME شركة 2026", "auto")).toEqual(visualRuns("text", "ACME شركة 2026", "ltr"));
});
