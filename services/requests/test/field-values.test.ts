import { create } from "@bufbuild/protobuf";
import { dayOf, dayText } from "@countersign/domain";
import {
  type FieldValue,
  FieldValueSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type ReadingContext, readSignerValues } from "../src/core/field-values.js";
import type { StoredField } from "../src/core/store/rows.js";

function field(id: string, overrides: Partial<StoredField> = {}): StoredField {
  return {
    id,
    type: "text",
    recipientId: "r1",
    documentId: "d1",
    page: 1,
    x: 10,
    y: 10,
    width: 100,
    height: 20,
    required: false,
    label: "",
    ...overrides,
  };
}

const text = (value: string): FieldValue => create(FieldValueSchema, { value: { case: "text", value } });
const checked = (value: boolean): FieldValue =>
  create(FieldValueSchema, { value: { case: "checked", value } });
const attachment = (value: string): FieldValue =>
  create(FieldValueSchema, { value: { case: "attachmentId", value } });

const context: ReadingContext = {
  consent: true,
  signer: { name: "Ada", email: "ada@example.com" },
  dateSigned: { date: "2026-11-27", text: "27. Nov. 2026" },
  writeDay: (day) => dayText(day, "de"),
  drawnProblems: new Map(),
  attachments: new Map([
    ["passport", { documentId: "0192f5d8-0000-7000-8000-00000000000a", filename: "id.pdf" }],
  ]),
};

const read = (fields: StoredField[], given: Record<string, FieldValue>) =>
  readSignerValues(fields, given, context);

test("a number is read as typed, within its bounds, with a point or a comma", () => {
  const fields = [field("n", { type: "number", minimum: 1, maximum: 10 })];
  expect(read(fields, { n: text("3,5") }).values.get("n")).toEqual({ kind: "text", text: "3,5" });
  expect(read(fields, { n: text("11") }).violations).toEqual([
    { path: "values.n", message: "must be at most 10" },
  ]);
  expect(read(fields, { n: text("0.5") }).violations).toEqual([
    { path: "values.n", message: "must be at least 1" },
  ]);
  expect(read(fields, { n: text("1e3") }).violations).toEqual([
    { path: "values.n", message: "must be a number, such as 42 or 3.5" },
  ]);
});

test("a dropdown takes one of its options", () => {
  const fields = [field("size", { type: "dropdown", options: ["S", "M"] })];
  expect(read(fields, { size: text("M") }).values.get("size")).toEqual({ kind: "text", text: "M" });
  expect(read(fields, { size: text("XL") }).violations).toEqual([
    { path: "values.size", message: 'must be one of "S", "M"' },
  ]);
});

test("a picked day is kept with the text the page showed for it", () => {
  const fields = [field("start", { type: "date" })];
  expect(read(fields, { start: text("2026-12-01") }).values.get("start")).toEqual({
    kind: "date",
    date: "2026-12-01",
    text: dayText("2026-12-01", "de"),
  });
  expect(read(fields, { start: text("2026-02-30") }).violations).toEqual([
    { path: "values.start", message: "must be a day of the calendar, written YYYY-MM-DD" },
  ]);
});

test("a date signed is kept as the day it is, in the signer's time zone, beside the text the page showed", () => {
  const fields = [field("signed", { type: "date_signed" })];
  expect(read(fields, {}).values.get("signed")).toEqual({
    kind: "date",
    date: "2026-11-27",
    text: "27. Nov. 2026",
  });
  // Late on the 6th in New York is the 7th in Berlin and Tokyo: the day is the signer's own.
  const late = new Date("2026-12-07T03:30:00Z");
  expect(dayOf(late, "America/New_York")).toBe("2026-12-06");
  expect(dayOf(late, "Europe/Berlin")).toBe("2026-12-07");
  expect(dayOf(late)).toBe("2026-12-07");
  expect(dayOf(late, "Mars/Base")).toBe("2026-12-07");
});

test("a radio group takes one chosen button; a required group needs one", () => {
  const fields = [
    field("m", { type: "radio", group: "Plan", option: "Monthly", required: true }),
    field("y", { type: "radio", group: "Plan", option: "Yearly", required: true }),
  ];
  const one = read(fields, { m: checked(false), y: checked(true) });
  expect(one.violations).toEqual([]);
  expect([...one.values.keys()]).toEqual(["y"]);
  expect(read(fields, { m: checked(true), y: checked(true) }).violations).toEqual([
    { path: "values.m", message: 'choose one option of "Plan", not 2' },
  ]);
  expect(read(fields, {}).violations).toEqual([
    { path: "values.m", message: 'is required: choose an option of "Plan"' },
  ]);
});

test("a checkbox group is checked within its bounds", () => {
  const fields = ["a", "b", "c"].map((id) =>
    field(id, { type: "checkbox", group: "Extras", minimum: 1, maximum: 2 }),
  );
  expect(read(fields, { a: checked(true), b: checked(true) }).violations).toEqual([]);
  expect(read(fields, {}).violations).toEqual([
    { path: "values.a", message: 'check at least 1 of "Extras"' },
  ]);
  expect(read(fields, { a: checked(true), b: checked(true), c: checked(true) }).violations).toEqual([
    { path: "values.a", message: 'check at most 2 of "Extras"' },
  ]);
});

test("a field hidden by its condition is not required and takes no value", () => {
  const fields = [
    field("box", { type: "checkbox" }),
    field("why", { required: true, condition: { fieldId: "box", value: "on" } }),
  ];
  expect(read(fields, {}).violations).toEqual([]);
  expect(read(fields, { why: text("because") }).violations).toEqual([
    { path: "values.why", message: 'is shown only when the field box reads "on": send no value' },
  ]);
  expect(read(fields, { box: checked(true) }).violations).toEqual([
    { path: "values.why", message: "is required" },
  ]);
  expect(read(fields, { box: checked(true), why: text("because") }).values.get("why")).toEqual({
    kind: "text",
    text: "because",
  });
});

test("an attachment is the file the signer gave for that field last", () => {
  const fields = [field("passport", { type: "attachment", required: true })];
  expect(
    read(fields, { passport: attachment("0192f5d8-0000-7000-8000-00000000000a") }).values.get("passport"),
  ).toEqual({
    kind: "attachment",
    documentId: "0192f5d8-0000-7000-8000-00000000000a",
    filename: "id.pdf",
  });
  expect(read(fields, { passport: attachment("0192f5d8-0000-7000-8000-00000000000b") }).violations).toEqual([
    { path: "values.passport", message: "must be the id of the file you attached to this field last" },
  ]);
  expect(read(fields, {}).violations).toEqual([{ path: "values.passport", message: "is required" }]);
});

test("a field the sender filled in keeps their value when the signer sends none, takes the signer's own, and is emptied only by an empty value", () => {
  const fields = [
    field("company", { prefilled: "Acme Ltd", required: true }),
    field("start", { type: "date", prefilled: "2027-01-15" }),
  ];
  expect(Object.fromEntries(read(fields, {}).values)).toEqual({
    company: { kind: "text", text: "Acme Ltd" },
    start: { kind: "date", date: "2027-01-15", text: dayText("2027-01-15", "de") },
  });
  expect(read(fields, { company: text("Acme GmbH") }).values.get("company")).toEqual({
    kind: "text",
    text: "Acme GmbH",
  });
  expect(read(fields, { company: text("") }).violations).toEqual([
    { path: "values.company", message: "is required" },
  ]);
});

test("a sender's value in a field its condition hides is neither kept nor held against the signer", () => {
  const fields = [
    field("box", { type: "checkbox" }),
    field("detail", { prefilled: "shown only when checked", condition: { fieldId: "box", value: "on" } }),
  ];
  const { values, violations } = read(fields, {});
  expect(violations).toEqual([]);
  expect(values.has("detail")).toBe(false);
});

test("with the signer's identity locked, name and e-mail fields hold their own: kept as the sender gave them, another value refused", () => {
  const fields = [field("who", { type: "name" }), field("mail", { type: "email" }), field("note")];
  const locked = { ...context, identityLocked: true };
  const own = readSignerValues(
    fields,
    { who: text(" Ada "), mail: text("ada@example.com"), note: text("Hi") },
    locked,
  );
  expect(own.violations).toEqual([]);
  expect([own.values.get("who"), own.values.get("mail")]).toEqual([
    { kind: "text", text: "Ada" },
    { kind: "text", text: "ada@example.com" },
  ]);
  const other = readSignerValues(fields, { who: text("Mallory"), mail: text("m@example.com") }, locked);
  expect(other.violations).toEqual([
    { path: "values.who", message: `is the signer's own name, as the sender gave it: "Ada"` },
    { path: "values.mail", message: `is the signer's own email, as the sender gave it: "ada@example.com"` },
  ]);
  // Left out, they take the signer's own, as they always do; unlocked, the signer may write another.
  expect(readSignerValues(fields, {}, locked).values.get("who")).toEqual({ kind: "text", text: "Ada" });
  expect(read(fields, { who: text("Ada L.") }).values.get("who")).toEqual({ kind: "text", text: "Ada L." });
});
