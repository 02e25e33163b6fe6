/** An envelope archive's entry names: one per document, unique, without folders. */
import { entryNames } from "../src/restapi/envelope-documents.js";

test("documents of the same name get numbered entries, whatever their case, and no name makes a folder", () => {
  expect(
    entryNames(["NDA.pdf", "nda.pdf", "nda.PDF", "../secret/terms.pdf", "Appendix", "Appendix", ""]),
  ).toEqual([
    "NDA.pdf",
    "nda (2).pdf",
    "nda (3).PDF",
    ".._secret_terms.pdf",
    "Appendix",
    "Appendix (2)",
    "document.pdf",
  ]);
});
