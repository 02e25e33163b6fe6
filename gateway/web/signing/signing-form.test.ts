/**
 * The signing page's state as the signer changes it: each event's effect on what the page shows,
 * without a browser (the browser suites drive the page itself).
 */
import type { Session } from "./api";
import { initialValues, submittedValues } from "./fields";
import { initialForm, type SigningForm, signingForm } from "./signing-form";

const field = (id: string, type: "signature" | "text") => ({
  id,
  type,
  documentId: "d",
  page: 1,
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  required: true,
  label: "",
});

const session = {
  request: { id: "r", title: "NDA", message: "", sender: "" },
  recipient: { id: "p", name: "Ada", email: "ada@example.com", status: "sent" },
  requestStatus: "sent",
  documents: [],
  fields: [field("s1", "signature"), field("s2", "signature"), field("t", "text")],
  filled: [],
  everyoneSigned: false,
  sealingDelayed: false,
} as unknown as Session;

const run = (...events: Parameters<typeof signingForm>[1][]): SigningForm =>
  events.reduce(signingForm, initialForm(session));

test("a value entered in a field clears the server's problem with that field, and only that one", () => {
  const form = run(
    { type: "submitted" },
    {
      type: "submission-refused",
      errors: { t: "is required", s1: "is required" },
      banner: null,
      alert: "2 problems",
    },
    { type: "entered", id: "t", value: "Acme" },
  );
  expect(form.values.t).toBe("Acme");
  expect(form.errors).toEqual({ s1: "is required" });
  expect(form.busy).toBeNull();
});

test("a signature adopted for every field fills them all, is remembered, and closes its dialog", () => {
  const typed = { kind: "typed" as const, text: "Ada" };
  const form = run(
    { type: "signature-opened", field: field("s1", "signature") as never },
    {
      type: "signature-adopted",
      kind: "signature",
      value: typed,
      ids: ["s1", "s2"],
      status: "Applied to all 2.",
    },
  );
  expect([form.values.s1, form.values.s2]).toEqual([typed, typed]);
  expect(form.adopted.signature).toEqual(typed);
  expect(form.dialogField).toBeNull();
  expect(form.status).toBe("Applied to all 2.");
});

test("a submission clears the last problems; a refused decline leaves the dialog open with why", () => {
  const refused = run({ type: "consented", consent: true }, { type: "submitted" });
  expect(refused).toMatchObject({ busy: "submitting", banner: null, errors: {}, status: "Signing…" });
  const declined = run(
    { type: "decline-opened" },
    { type: "declined" },
    { type: "decline-refused", error: "too long" },
  );
  expect(declined).toMatchObject({ busy: null, declineOpen: true, declineError: "too long" });
});

test("a field the sender filled in starts with their value, and is sent empty once the signer empties it", () => {
  const fields = [
    { ...field("company", "text"), prefilled: "Acme Ltd" },
    { ...field("note", "text"), required: false },
  ];
  const withPrefill = { ...session, fields } as unknown as Session;
  const shown = new Map(fields.map((f) => [f.id, true]));
  const values = initialValues(withPrefill);
  expect(values).toEqual({ company: "Acme Ltd", note: "" });
  expect(submittedValues(withPrefill.fields, values, shown)).toEqual({ company: "Acme Ltd" });
  expect(submittedValues(withPrefill.fields, { ...values, company: " " }, shown)).toEqual({ company: "" });
});
