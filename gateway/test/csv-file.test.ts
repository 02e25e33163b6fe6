/**
 * Every CSV file the gateway writes: no cell a spreadsheet would run as a formula, numbers as they
 * are, and each cell read back (csv-parse, then csvCellValue) is the value written.
 */
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { hostileCsvCell } from "../../test/support/fuzz.js";
import { auditCsv } from "../src/audit-csv.js";
import { csvCellValue, csvFile } from "../src/csv-file.js";

const RUNS = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

test("no written cell begins as a formula, and every cell reads back as the value written", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(hostileCsvCell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
      (records) => {
        const written = parse(csvFile(records), { bom: true, relax_column_count: true }) as string[][];
        expect(written.flat().filter((c) => RUNS.test(c))).toEqual([]);
        expect(written.map((r) => r.map(csvCellValue))).toEqual(records);
      },
    ),
    { numRuns: 500 },
  );
});

test("numbers are data: a negative sequence is written without a quote", () => {
  expect(csvFile([[-1, 2n, "-1"]])).toBe("\uFEFF-1,2,'-1\r\n");
});

test("the audit trail's CSV neutralises a signer's name and keeps a line break inside its cell", () => {
  const csv = auditCsv([
    {
      sequence: 1,
      time: timestampNow(),
      action: "viewed",
      actorName: "=cmd|'/C calc'!A0",
      userAgent: "Mozilla\n=1+1",
      details: "{}",
    } as never,
  ]);
  const [, row] = parse(csv, { bom: true }) as string[][];
  expect(row).toEqual(expect.arrayContaining(["'=cmd|'/C calc'!A0", "Mozilla\n=1+1"]));
  // csv-parse guesses CRLF from the header and reads a bare LF as text; a spreadsheet ends the row there.
  expect(csv).toContain('"Mozilla\n=1+1"');
});
