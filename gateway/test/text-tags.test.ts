/**
 * Text tags read and placed: the grammar (`{{type:role}}`, `{{type:role:label}}`, `?` optional, `!`
 * a required checkbox), each field at its tag's top-left at least its type's size and the tag's,
 * kept on the page, its cover the tag's box; and every problem named by its page and the tag.
 */
import { fieldsFromTags, readTag } from "../src/text-tags.js";

test("a tag names a type, a role and perhaps a label; ? makes a field optional, ! a checkbox required", () => {
  expect(readTag("{{signature:Client}}")).toEqual({
    field: { type: "signature", role: "Client", label: "", required: true },
  });
  expect(readTag("{{ Text? : Client : Company name }}")).toEqual({
    field: { type: "text", role: "Client", label: "Company name", required: false },
  });
  expect(readTag("{{checkbox:Client:Newsletter}}")).toMatchObject({ field: { required: false } });
  expect(readTag("{{checkbox!:Client:Agree}}")).toMatchObject({ field: { required: true } });
  expect(readTag("{{date_signed:Client}}")).toMatchObject({
    field: { type: "date_signed", required: false },
  });
});

test("a tag that cannot be read says why", () => {
  expect(readTag("{{sig:Client}}")).toEqual({
    problem:
      'names the type "sig", which is not one a tag places (signature, initials, date_signed, date, text, name, email, number, checkbox, attachment)',
  });
  expect(readTag("{{signature}}")).toEqual({
    problem: "names no role: write {{type:role}}, such as {{signature:Client}}",
  });
  expect(readTag("{{text:Client:a:b}}")).toEqual({
    problem: "has more than type, role and label: a label cannot hold a colon",
  });
  expect(readTag("{{signature:Client")).toEqual({ problem: "is not closed with }} in its line of text" });
  expect(readTag("{{text!:Client}}")).toEqual({ problem: "marks with ! a field that is already required" });
});

const page = { width: 612, height: 792 };

/** A box, compared to a hundredth of a point. */
const near = (x: number, y: number, width: number, height: number) => ({
  x: expect.closeTo(x, 2),
  y: expect.closeTo(y, 2),
  width: expect.closeTo(width, 2),
  height: expect.closeTo(height, 2),
});

test("a field lies at its tag's top-left, at least its type's size and the tag's, on the page; its cover is the tag's glyphs, on the page", () => {
  const placed = fieldsFromTags(
    [
      {
        id: "doc",
        pages: [page],
        tags: [
          { text: "{{signature:client}}", page: 1, x: 72, y: 100, width: 110, height: 12 },
          {
            text: "{{text:Client:A very long label written out}}",
            page: 1,
            x: 72,
            y: 200,
            width: 260,
            height: 12,
          },
          { text: "{{initials:Client}}", page: 1, x: 590, y: 780, width: 20, height: 10 },
        ],
      },
    ],
    ["Client"],
  );
  expect(placed).toEqual({
    fields: [
      {
        type: "signature",
        role: "Client",
        label: "",
        required: true,
        documentId: "doc",
        page: 1,
        x: 72,
        y: 100,
        width: 150,
        height: 40,
        // pdf.js's box of the run, grown by a share of its size for the braces' reach.
        cover: near(70.8, 98.2, 112.4, 17.4),
      },
      expect.objectContaining({
        x: 72,
        y: 200,
        width: 260,
        height: 20,
        cover: near(70.8, 198.2, 262.4, 17.4),
      }),
      expect.objectContaining({
        x: 552,
        y: 762,
        width: 60,
        height: 30,
        cover: near(589, 778.5, 22, 13.5),
      }),
    ],
  });
});

test("every problem names its page and its tag: one unread, one whose role no signer has", () => {
  const placed = fieldsFromTags(
    [
      {
        id: "a",
        pages: [page],
        tags: [{ text: "{{signature:Client}}", page: 1, x: 0, y: 0, width: 10, height: 10 }],
      },
      {
        id: "b",
        pages: [page, page],
        tags: [
          { text: "{{signatur:Client}}", page: 2, x: 0, y: 0, width: 10, height: 10 },
          { text: "{{signature:Witness}}", page: 1, x: 0, y: 0, width: 10, height: 10 },
        ],
      },
    ],
    ["Client", "Company"],
  );
  expect(placed).toEqual({
    problems: [
      {
        path: "textTags",
        message: expect.stringMatching(
          /^document 2, page 2: the tag "\{\{signatur:Client\}\}" names the type "signatur", which is not one/,
        ),
      },
      {
        path: "textTags",
        message:
          'document 2, page 1: the tag "{{signature:Witness}}" names the role "Witness", which is not one of "Client", "Company"',
      },
    ],
  });
});
