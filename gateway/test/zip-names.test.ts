/** A ZIP archive's entry names: one per file, unique, without folders. */
import { entryNames } from "../src/zip-names.js";

test("files of the same name get numbered entries, whatever their case, and no name makes a folder or a new line", () => {
  expect(
    entryNames([
      "NDA.pdf",
      "nda.pdf",
      "nda.PDF",
      "../secret/terms.pdf",
      "Appendix",
      "Appendix",
      "",
      "a\nb\u0000.pdf",
      "contract.docx",
      "Contract.DOCX",
    ]),
  ).toEqual([
    "NDA.pdf",
    "nda (2).pdf",
    "nda (3).PDF",
    ".._secret_terms.pdf",
    "Appendix",
    "Appendix (2)",
    "document.pdf",
    "a_b_.pdf",
    "contract.docx",
    "Contract (2).DOCX",
  ]);
});
