import {
  type FieldDraft,
  placementViolations,
  shapeViolations,
  type TemplateDraft,
} from "../src/template-rules.js";

const A4 = { width: 595, height: 842 };

function field(overrides: Partial<FieldDraft> = {}): FieldDraft {
  return {
    id: "",
    type: "signature",
    role: "Client",
    page: 1,
    x: 50,
    y: 700,
    width: 200,
    height: 40,
    required: true,
    label: "",
    ...overrides,
  };
}

function draft(overrides: Partial<TemplateDraft> = {}): TemplateDraft {
  return {
    name: "NDA",
    description: "",
    documentId: "0192f5d8-0000-7000-8000-000000000000",
    roles: [{ name: "Client", order: 1 }],
    fields: [field()],
    ...overrides,
  };
}

test("a template with a signer role that has a required signature field keeps every rule", () => {
  expect(shapeViolations(draft())).toEqual([]);
  expect(placementViolations(draft().fields, [A4])).toEqual([]);
});

test("a template needs a name and at least one signer role", () => {
  expect(shapeViolations(draft({ name: "  ", roles: [], fields: [] }))).toEqual([
    { path: "name", message: "is required" },
    { path: "roles", message: "a template needs at least one signer role" },
  ]);
});

test("every role needs a required signature field; an optional one or another type does not count", () => {
  const violations = shapeViolations(
    draft({
      roles: [
        { name: "Client", order: 1 },
        { name: "Witness", order: 2 },
        { name: "Notary", order: 3 },
      ],
      fields: [
        field(),
        field({ role: "Witness", required: false }),
        field({ role: "Notary", type: "initials" }),
      ],
    }),
  );
  expect(violations).toEqual([
    { path: "roles[1]", message: '"Witness" needs at least one required signature field' },
    { path: "roles[2]", message: '"Notary" needs at least one required signature field' },
  ]);
});

test("role names are unique as people read them: trimmed and case-insensitive", () => {
  const violations = shapeViolations(
    draft({
      roles: [
        { name: "Client", order: 1 },
        { name: " client ", order: 1 },
      ],
    }),
  );
  expect(violations).toEqual([
    { path: "roles[1].name", message: '" client " is already the name of roles[0]' },
  ]);
});

test("each field problem is reported at its own path, all at once", () => {
  const violations = shapeViolations(
    draft({
      fields: [
        field(),
        field({
          type: "stamp",
          role: "Boss",
          page: 0,
          x: -1,
          y: Number.NaN,
          width: 0,
          height: Number.POSITIVE_INFINITY,
        }),
      ],
    }),
  );
  expect(violations).toEqual([
    {
      path: "fields[1].type",
      message:
        "must be one of signature, initials, date_signed, text, checkbox, name, email, date, number, dropdown, radio, attachment",
    },
    { path: "fields[1].role", message: "must name one of the template's roles (Client)" },
    { path: "fields[1].page", message: "must be a page number, 1 or more" },
    { path: "fields[1].x", message: "must be 0 or more" },
    { path: "fields[1].y", message: "is required" },
    { path: "fields[1].width", message: "must be more than 0" },
    { path: "fields[1].height", message: "must be more than 0" },
  ]);
});

test("routing orders are whole numbers from 1 to 50, and limits on counts and lengths hold", () => {
  const many = Array.from({ length: 501 }, () => field());
  const violations = shapeViolations(
    draft({ roles: [{ name: "Client", order: 51 }], fields: many, description: "d".repeat(2001) }),
  );
  expect(violations.map((v) => v.path)).toEqual(["description", "roles[0].order", "fields"]);
});

test("field ids, when a client gives them, are short tokens and unique", () => {
  const violations = shapeViolations(
    draft({ fields: [field({ id: "sig-1" }), field({ id: "sig-1" }), field({ id: "no spaces" })] }),
  );
  expect(violations).toEqual([
    { path: "fields[1].id", message: "is already the id of fields[0]" },
    { path: "fields[2].id", message: "must be 1 to 64 letters, digits, _ or -" },
  ]);
});

test("a field must lie on a page the document has, and inside that page", () => {
  const violations = placementViolations(
    [
      field({ page: 3 }),
      field({ page: 2, x: 500, width: 100 }),
      field({ page: 1, y: 820, height: 40 }),
      field({ page: 2, x: 495, width: 100, y: 0, height: 842 }),
    ],
    [A4, { width: 595, height: 842 }],
  );
  expect(violations).toEqual([
    { path: "fields[0].page", message: "page 3 does not exist: the document has 2 pages" },
    { path: "fields[1].x", message: "x + width = 600 lies outside the page: page 2 is 595 × 842 points" },
    { path: "fields[2].y", message: "y + height = 860 lies outside the page: page 1 is 595 × 842 points" },
  ]);
});
