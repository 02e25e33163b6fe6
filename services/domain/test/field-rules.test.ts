import { shownFields } from "../src/field-conditions.js";
import type { FieldDraft } from "../src/field-layout.js";
import { fieldLayoutViolations, signatureViolations } from "../src/field-layout.js";
import { fieldRuleViolations } from "../src/field-rules.js";

function field(overrides: Partial<FieldDraft>): FieldDraft {
  return {
    id: "",
    type: "text",
    role: "Client",
    page: 1,
    x: 50,
    y: 50,
    width: 100,
    height: 20,
    required: true,
    label: "",
    ...overrides,
  };
}

const plan = [
  field({ id: "monthly", type: "radio", group: "Plan", option: "Monthly" }),
  field({ id: "yearly", type: "radio", group: "Plan", option: "Yearly" }),
];

describe("what each field type accepts", () => {
  test("a layout of every type with its rules is valid", () => {
    const fields = [
      field({ id: "sig", type: "signature" }),
      field({ id: "day", type: "date" }),
      field({ id: "count", type: "number", minimum: 1, maximum: 10 }),
      field({ id: "size", type: "dropdown", options: ["S", "M", "L"] }),
      ...plan,
      field({ id: "a", type: "checkbox", group: "Extras", minimum: 1, maximum: 2 }),
      field({ id: "b", type: "checkbox", group: "Extras" }),
      field({ id: "c", type: "checkbox", group: "Extras" }),
      field({ id: "id-card", type: "attachment" }),
      field({ id: "reason", type: "text", condition: { fieldId: "yearly", value: "Yearly" } }),
    ];
    expect(fieldLayoutViolations(fields, ["Client"], "the roles")).toEqual([]);
  });

  test("a dropdown needs options, unique and not blank; only a dropdown has them", () => {
    expect(
      fieldRuleViolations([
        field({ type: "dropdown" }),
        field({ type: "dropdown", options: ["A", " ", "A"] }),
        field({ type: "text", options: ["A"] }),
      ]),
    ).toEqual([
      { path: "fields[0].options", message: "a dropdown needs at least one option" },
      { path: "fields[1].options[1]", message: "is required" },
      { path: "fields[1].options[2]", message: '"A" is already options[0]' },
      { path: "fields[2].options", message: "only a dropdown has options" },
    ]);
  });

  test("a radio button needs a group and an option of its own in it", () => {
    expect(
      fieldRuleViolations([
        field({ type: "radio", option: "Yes" }),
        field({ type: "radio", group: "G" }),
        field({ type: "radio", group: "Plan", option: "Monthly" }),
        field({ type: "radio", group: "Plan", option: "Monthly" }),
      ]),
    ).toEqual([
      { path: "fields[0].group", message: "is required: it names the radio button's group" },
      {
        path: "fields[1].option",
        message: "is required: it is what the group reads when this button is chosen",
      },
      { path: "fields[3].option", message: '"Monthly" is already the option of fields[2] in its group' },
    ]);
  });

  test("a group holds one type, and its members share their condition", () => {
    expect(
      fieldRuleViolations([
        field({ id: "t", type: "text" }),
        field({ type: "checkbox", group: "G" }),
        field({ type: "radio", group: "G", option: "x" }),
        field({ type: "checkbox", group: "G", condition: { fieldId: "t", value: "x" } }),
      ]),
    ).toEqual([
      {
        path: "fields[2].group",
        message: '"G" is a group of checkbox fields (fields[1]): a group holds one type',
      },
      {
        path: "fields[3].condition",
        message: "must be the condition of the rest of its group, as fields[1] has it",
      },
    ]);
  });

  test("bounds: a number's are in order; a checkbox group's count its boxes; other types have none", () => {
    expect(
      fieldRuleViolations([
        field({ type: "number", minimum: 5, maximum: 1 }),
        field({ type: "checkbox", group: "G", minimum: 3 }),
        field({ type: "checkbox", group: "G", minimum: 1 }),
        field({ type: "checkbox", minimum: 1 }),
        field({ type: "text", maximum: 3 }),
      ]),
    ).toEqual([
      { path: "fields[0].maximum", message: "must be at least the minimum, 5" },
      { path: "fields[1].minimum", message: "must be a whole number from 0 to 2, the boxes in the group" },
      {
        path: "fields[3].group",
        message: "is required: a minimum or maximum counts the checked boxes of a group",
      },
      { path: "fields[4].maximum", message: "only number fields and checkbox groups have bounds" },
      { path: "fields[2].minimum", message: "must be the same as the group's, which fields[1] gives" },
    ]);
  });

  test("a condition names another field of the role that can be read, by a value it can read", () => {
    expect(
      fieldRuleViolations([
        field({ id: "sig", type: "signature" }),
        field({ id: "box", type: "checkbox" }),
        field({ id: "size", type: "dropdown", options: ["S", "M"] }),
        field({ id: "other", role: "Witness" }),
        field({ condition: { fieldId: "nowhere", value: "x" } }),
        field({ id: "self", condition: { fieldId: "self", value: "x" } }),
        field({ condition: { fieldId: "other", value: "x" } }),
        field({ condition: { fieldId: "sig", value: "x" } }),
        field({ condition: { fieldId: "box", value: "yes" } }),
        field({ condition: { fieldId: "size", value: "XL" } }),
        field({ condition: { fieldId: "box", value: "on" } }),
      ]),
    ).toEqual([
      { path: "fields[4].condition.fieldId", message: "must be the id of another field" },
      {
        path: "fields[5].condition.fieldId",
        message: "must be another field: a field cannot depend on itself",
      },
      {
        path: "fields[6].condition.fieldId",
        message: 'must be a field of the same role: fields[3] is "Witness"\'s',
      },
      {
        path: "fields[7].condition.fieldId",
        message:
          "fields[0] is a signature field, which a condition cannot read: name a checkbox, radio, dropdown, text, number, date field",
      },
      { path: "fields[8].condition.value", message: 'must be one of what fields[1] reads: "on", "off"' },
      { path: "fields[9].condition.value", message: 'must be one of what fields[2] reads: "S", "M"' },
    ]);
  });

  test("conditions that go round in a circle are refused", () => {
    const violations = fieldRuleViolations([
      field({ id: "a", condition: { fieldId: "b", value: "x" } }),
      field({ id: "b", condition: { fieldId: "a", value: "x" } }),
    ]);
    expect(violations.map((v) => v.path)).toEqual([
      "fields[0].condition.fieldId",
      "fields[1].condition.fieldId",
    ]);
  });

  test("a role's only required signature cannot hang on a condition", () => {
    const fields = [
      field({ id: "agree", type: "checkbox", required: false }),
      field({ type: "signature", condition: { fieldId: "agree", value: "on" } }),
    ];
    expect(signatureViolations([{ name: "Client", path: "roles[0]" }], fields)).toEqual([
      {
        path: "roles[0]",
        message: '"Client" needs at least one required signature field without a condition',
      },
    ]);
  });
});

describe("which fields are shown", () => {
  const fields = [
    ...plan,
    field({ id: "why", condition: { fieldId: "yearly", value: "Yearly" } }),
    field({ id: "more", condition: { fieldId: "why", value: "other" } }),
    field({ id: "box", type: "checkbox" }),
    field({ id: "unless", condition: { fieldId: "box", value: "off" } }),
  ];

  test("a field shows while its field reads the value; a field under a hidden one is hidden", () => {
    const values: Record<string, string | boolean> = { monthly: true, why: "other", box: false };
    const shown = shownFields(fields, (f) => values[f.id]);
    expect(Object.fromEntries(shown)).toEqual({
      monthly: true,
      yearly: true,
      why: false,
      more: false,
      box: true,
      unless: true,
    });
    values.monthly = false;
    values.yearly = true;
    values.box = true;
    expect(Object.fromEntries(shownFields(fields, (f) => values[f.id]))).toMatchObject({
      why: true,
      more: true,
      unless: false,
    });
  });
});

test("a chain of 500 conditions, each field shown by the next, is valid: no circle is seen where there is none", () => {
  const chain = Array.from({ length: 500 }, (_, i) =>
    field({ id: `f${i}`, ...(i < 499 ? { condition: { fieldId: `f${i + 1}`, value: "x" } } : {}) }),
  );
  expect(fieldRuleViolations(chain)).toEqual([]);
});
