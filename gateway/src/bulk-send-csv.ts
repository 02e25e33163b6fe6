/**
 * A bulk send's CSV file read into rows: a header line, then one request a line. For each of the
 * template's roles the columns `<Role> name` and `<Role> email` (both required); every other column
 * is the label of a text, number or date field, whose cell fills that field (an empty cell leaves
 * it as the template has it). Headers are matched trimmed and ignoring case. Each row keeps the line
 * it starts on, so that every problem the requests service finds names a line the sender can open.
 * A cell is read as csv-file.ts wrote it, so the file a template offers reads back whatever its
 * roles and labels begin with.
 */
import { labelKey } from "@countersign/domain";
import { CsvError, parse } from "csv-parse/sync";
import { csvCellValue, csvFile } from "./csv-file.js";

export interface CsvTemplate {
  /** In signing order. */
  roles: string[];
  /** The labels of the template's text, number and date fields. */
  mergeLabels: string[];
}

export interface CsvRow {
  line: number;
  recipients: { name: string; email: string; role: string }[];
  mergeFields: Record<string, string>;
}

export interface CsvProblem {
  path: string;
  message: string;
}

/**
 * What a CSV file of a template holds: its roles in signing order, and the labels of its merge
 * fields but those spelt as a role's column ("Client name"), which a header would read as that.
 */
export function csvTemplateOf(roles: string[], mergeLabels: string[]): CsvTemplate {
  const roleColumns = new Set(roles.flatMap((r) => [labelKey(`${r} name`), labelKey(`${r} email`)]));
  return { roles, mergeLabels: mergeLabels.filter((label) => !roleColumns.has(labelKey(label))) };
}

/** What a column of the header holds. */
type Column = { role: string; part: "name" | "email" } | { label: string };

function columnsOf(header: string[], template: CsvTemplate): { columns: Column[]; problems: CsvProblem[] } {
  const known = new Map<string, Column>();
  for (const role of template.roles) {
    known.set(labelKey(`${role} name`), { role, part: "name" });
    known.set(labelKey(`${role} email`), { role, part: "email" });
  }
  for (const label of template.mergeLabels) {
    if (!known.has(labelKey(label))) known.set(labelKey(label), { label });
  }
  const problems: CsvProblem[] = [];
  const seen = new Set<string>();
  const columns = header.map((cell, i) => {
    const column = known.get(labelKey(cell));
    if (!column) {
      problems.push({
        path: `csv`,
        message: `line 1, column ${i + 1}: "${cell}" is neither a role's name or email (${template.roles
          .map((r) => `"${r} name", "${r} email"`)
          .join(", ")}) nor the label of a text, number or date field${
          template.mergeLabels.length ? ` (${template.mergeLabels.map((l) => `"${l}"`).join(", ")})` : ""
        }`,
      });
    } else if (seen.has(labelKey(cell))) {
      problems.push({ path: "csv", message: `line 1, column ${i + 1}: "${cell}" is a column twice` });
    }
    seen.add(labelKey(cell));
    return column ?? { label: cell };
  });
  for (const role of template.roles) {
    for (const part of ["name", "email"] as const) {
      if (!seen.has(labelKey(`${role} ${part}`))) {
        problems.push({ path: "csv", message: `line 1: the column "${role} ${part}" is missing` });
      }
    }
  }
  return { columns, problems };
}

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * The line each record starts on, from where each ends (csv-parse's `info.bytes`): csv-parse's own
 * line count goes wrong with CRLF and blank lines, and a quoted cell may span lines. A line ends at
 * CRLF, LF or CR; blank lines before a record are skipped as csv-parse skips them.
 */
function startLines(bytes: Buffer, ends: number[]): number[] {
  let line = 1;
  let at = 0;
  const breakAt = (i: number): number => {
    if (bytes[i] === CR) return bytes[i + 1] === LF ? 2 : 1;
    return bytes[i] === LF ? 1 : 0;
  };
  return ends.map((end) => {
    let i = at;
    while (i < end && (breakAt(i) > 0 || bytes[i] === SPACE || bytes[i] === TAB)) {
      const width = breakAt(i);
      if (width > 0) line += 1;
      i += width || 1;
    }
    const first = line;
    while (i < end) {
      const width = breakAt(i);
      if (width > 0) line += 1;
      i += width || 1;
    }
    at = end;
    return first;
  });
}

/** The rows of `text`, or every problem of its header and its rows' shape. */
export function rowsFromCsv(
  text: string,
  template: CsvTemplate,
): { rows: CsvRow[] } | { problems: CsvProblem[] } {
  const bytes = Buffer.from(text);
  const ends: number[] = [];
  let records: string[][];
  try {
    records = parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      on_record: (record: string[], { bytes: end }: { bytes: number }) => {
        ends.push(end);
        return record.map(csvCellValue);
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    // The record that failed starts after the last one read; csv-parse's own "at line" may be past it.
    const line = startLines(bytes, [...ends, bytes.length]).at(-1);
    const what = err.message.replace(/,? (at|on) line \d+/, "");
    return { problems: [{ path: "csv", message: `line ${line}: ${what}` }] };
  }
  const [header, ...data] = records;
  if (!header)
    return { problems: [{ path: "csv", message: "is empty: it needs a header line and a line a request" }] };
  const { columns, problems } = columnsOf(header, template);
  if (data.length === 0) problems.push({ path: "csv", message: "has a header line but no line a request" });
  if (problems.length > 0) return { problems };
  const lines = startLines(bytes, ends).slice(1);
  const rows = data.map((record, i) => {
    const line = lines[i] ?? 0;
    if (record.length !== columns.length) {
      problems.push({
        path: "csv",
        message: `line ${line}: has ${record.length} cells; the header has ${columns.length}`,
      });
    }
    const people = new Map<string, { name: string; email: string; role: string }>();
    const mergeFields: Record<string, string> = {};
    columns.forEach((column, i) => {
      const cell = record[i] ?? "";
      if ("label" in column) {
        if (cell) mergeFields[column.label] = cell;
        return;
      }
      const person = people.get(column.role) ?? { name: "", email: "", role: column.role };
      person[column.part] = cell;
      people.set(column.role, person);
    });
    return { line, recipients: [...people.values()], mergeFields };
  });
  return problems.length > 0 ? { problems } : { rows };
}

/** The file a sender fills in for a template: its header line, written as every CSV file is. */
export function csvTemplateFor(template: CsvTemplate): string {
  const header = [...template.roles.flatMap((r) => [`${r} name`, `${r} email`]), ...template.mergeLabels];
  return csvFile([header]);
}
