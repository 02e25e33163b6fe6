import { dateSignedText, signerLocaleOf } from "../src/signer-locales.js";

test("a client's language tag is the locale it means, however it is written, or none Countersign speaks", () => {
  expect(["de", "DE", "de-AT", "pt_BR", "pt-br", "pt", "ar-EG", "ja-JP"].map(signerLocaleOf)).toEqual([
    "de",
    "de",
    "de",
    "pt-BR",
    "pt-BR",
    "pt-BR",
    "ar",
    "ja",
  ]);
  expect(["tlh", "", "  ", "x-klingon"].map(signerLocaleOf)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test("a date signed is the day in the signer's time zone, in their language's form; without one, the ISO date in UTC", () => {
  const at = new Date("2026-11-27T20:00:00Z");
  expect(dateSignedText(at)).toBe("2026-11-27");
  expect(dateSignedText(at, "ja", "Asia/Tokyo")).toBe("2026年11月28日");
  expect(dateSignedText(at, "de", "America/New_York")).toBe("27. Nov. 2026");
  // A zone the runtime does not know is UTC's day, never an error at signing time.
  expect(dateSignedText(at, "en", "Mars/Olympus_Mons")).toBe("Nov 27, 2026");
});
