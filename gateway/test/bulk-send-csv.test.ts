/**
 * A bulk send's CSV file read into rows: each row names the line it starts on whatever the file's
 * line ends (CRLF, LF, CR), blank lines and quoted cells spanning lines; the header maps to roles
 * and merge labels ignoring case and spaces; every problem names its line.
 */
import { parse } from "csv-parse/sync";
import { csvTemplateFor, csvTemplateOf, rowsFromCsv } from "../src/bulk-send-csv.js";

const template = { roles: ["Client", "Witness"], mergeLabels: ["Company", "Start date"] };

const lines = [
  "\uFEFFclient NAME , Client email,Witness name,Witness email,Company,start  date",
  "Ada,ada@example.com,Wes,wes@example.com,Acme,2027-01-15",
  "",
  '  Bob,bob@example.com,Wes,wes@example.com,"Two',
  'lines",',
  "Cy,cy@example.com,Wyn,wyn@example.com,,",
];

test.each([
  ["CRLF", "\r\n"],
  ["LF", "\n"],
  ["CR", "\r"],
])("rows keep the line they start on in a file with %s line ends", (_, eol) => {
  const read = rowsFromCsv(lines.join(eol), template);
  expect(read).toEqual({
    rows: [
      {
        line: 2,
        recipients: [
          { role: "Client", name: "Ada", email: "ada@example.com" },
          { role: "Witness", name: "Wes", email: "wes@example.com" },
        ],
        mergeFields: { Company: "Acme", "Start date": "2027-01-15" },
      },
      {
        line: 4,
        recipients: [
          { role: "Client", name: "Bob", email: "bob@example.com" },
          { role: "Witness", name: "Wes", email: "wes@example.com" },
        ],
        mergeFields: { Company: `Two${eol}lines` },
      },
      {
        line: 6,
        recipients: [
          { role: "Client", name: "Cy", email: "cy@example.com" },
          { role: "Witness", name: "Wyn", email: "wyn@example.com" },
        ],
        mergeFields: {},
      },
    ],
  });
});

test("a header column that is neither a role's nor a label, one given twice, or one missing is named with line 1", () => {
  const read = rowsFromCsv(
    "Client name,Client email,Client email,Notes\nAda,a@example.com,a@example.com,x\n",
    template,
  );
  expect(read).toEqual({
    problems: [
      { path: "csv", message: 'line 1, column 3: "Client email" is a column twice' },
      {
        path: "csv",
        message:
          'line 1, column 4: "Notes" is neither a role\'s name or email ("Client name", "Client email", "Witness name", "Witness email") nor the label of a text, number or date field ("Company", "Start date")',
      },
      { path: "csv", message: 'line 1: the column "Witness name" is missing' },
      { path: "csv", message: 'line 1: the column "Witness email" is missing' },
    ],
  });
});

test("a quote left open, a row of the wrong width and a file of only a header are named by their line", () => {
  const oneRole = { roles: ["Client"], mergeLabels: [] };
  expect(
    rowsFromCsv('Client name,Client email\r\nAda,ada@example.com\r\n"Bob,bob@example.com\r\n', oneRole),
  ).toEqual({
    problems: [{ path: "csv", message: expect.stringMatching(/^line 3: Quote Not Closed/) }],
  });
  expect(rowsFromCsv("Client name,Client email\n\nAda\n", oneRole)).toEqual({
    problems: [{ path: "csv", message: "line 3: has 1 cells; the header has 2" }],
  });
  expect(rowsFromCsv("Client name,Client email\n", oneRole)).toEqual({
    problems: [{ path: "csv", message: "has a header line but no line a request" }],
  });
  expect(rowsFromCsv("", oneRole)).toEqual({
    problems: [{ path: "csv", message: "is empty: it needs a header line and a line a request" }],
  });
});

test("the file a template offers reads back: a field labelled like a role's column is not a column of its own", () => {
  const offered = csvTemplateOf(["Client"], ["client  Name", "Company"]);
  expect(offered).toEqual({ roles: ["Client"], mergeLabels: ["Company"] });
  const header = csvTemplateFor(offered);
  expect(header).toBe("\uFEFFClient name,Client email,Company\r\n");
  expect(rowsFromCsv(`${header}Ada,ada@example.com,Acme\r\n`, offered)).toEqual({
    rows: [
      {
        line: 2,
        recipients: [{ role: "Client", name: "Ada", email: "ada@example.com" }],
        mergeFields: { Company: "Acme" },
      },
    ],
  });
});

test("the file a template offers runs nothing in a spreadsheet and still reads back, whatever its roles and labels begin with", () => {
  const hostile = [
    '=HYPERLINK("https://evil.example")',
    "+1",
    "-2",
    "@SUM(A1)",
    "\tTab",
    "\rReturn",
    "'=Quoted",
  ];
  const offered = csvTemplateOf(
    hostile,
    hostile.map((start) => `${start} field`),
  );
  const header = csvTemplateFor(offered);
  const cells = parse(header, { bom: true })[0] as string[];
  expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  const row = hostile.flatMap((_, i) => [`Person ${i}`, `p${i}@example.com`]).concat(hostile.map(() => "-5"));
  const read = rowsFromCsv(`${header}${row.join(",")}\r\n`, offered);
  expect(read).toEqual({
    rows: [
      {
        // The header's three quoted cells that begin with a carriage return each start a line.
        line: 5,
        recipients: hostile.map((role, i) => ({ role, name: `Person ${i}`, email: `p${i}@example.com` })),
        mergeFields: Object.fromEntries(offered.mergeLabels.map((label) => [label, "-5"])),
      },
    ],
  });
});
