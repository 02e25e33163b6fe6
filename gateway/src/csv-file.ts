/**
 * The one way the gateway writes a CSV file, and how it reads back a cell it wrote. Cells come from
 * strangers (a signer's name, a role, a field's label), so a cell a spreadsheet would run as a
 * formula is written with a leading `'`; reading drops exactly that `'` again.
 */
import { stringify } from "csv-stringify/sync";

/**
 * What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list, with the
 * full-width forms Apple Numbers folds to them), after any apostrophes: a value that itself begins
 * with `'` and then one of these is escaped too, so that reading back is exact.
 */
const RUNS_AS_FORMULA = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export type CsvCell = string | number | bigint;

/** A cell as it is written: with a `'` before anything a spreadsheet would run. */
function neutralised(cell: string): string {
  return RUNS_AS_FORMULA.test(cell) ? `'${cell}` : cell;
}

/** The value a written cell holds: the `'` that {@link neutralised} added, and only that, dropped. */
export function csvCellValue(cell: string): string {
  return cell.startsWith("'") && RUNS_AS_FORMULA.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * RFC 4180 with CRLF line ends, UTF-8 with a byte order mark so spreadsheets read names in any
 * script. Numbers are written as they are: a negative one is data, not a formula. A cell holding a
 * lone CR or LF is quoted too: csv-stringify quotes only the CRLF it ends records with, and a bare
 * line break would split the record for every reader.
 */
export function csvFile(records: CsvCell[][]): string {
  return stringify(records, {
    bom: true,
    record_delimiter: "windows",
    quoted_match: /[\r\n]/,
    cast: { string: neutralised },
  });
}
