/**
 * What the Send documents page sends: signers become roles "Signer n" in their listed order, every
 * field names its signer's role and its document, copies have no role; and what it asks the sender
 * to mend before anything is sent.
 */
import type { DocumentInfo, SignatureRequest } from "../types";
import {
  type DraftRecipient,
  draftFrom,
  type PlacedField,
  problemsBefore,
  requestBody,
  signersOf,
  type TagField,
  templateBody,
  withTagSigners,
} from "./send-documents";

const document = (id: string) => ({ id, filename: `${id}.pdf`, pageCount: 1 }) as DocumentInfo;
const recipients: DraftRecipient[] = [
  { key: "a", name: " Ada ", email: "ada@example.com ", kind: "signer", order: 1 },
  { key: "c", name: "Cyd", email: "cyd@example.com", kind: "cc", order: 1 },
  { key: "b", name: "", email: "bob@example.com", kind: "signer", order: 2 },
];
const field = (key: string, roleKey: string, documentId: string, type = "signature"): PlacedField => ({
  key,
  roleKey,
  documentId,
  type: type as PlacedField["type"],
  page: 1,
  x: 10.04,
  y: 20.06,
  width: 100,
  height: 40,
  required: true,
  label: "",
});

test("signers are shown by name, or by their role while unnamed; copies are no signers", () => {
  expect(signersOf(recipients)).toEqual([
    { key: "a", name: "Ada", order: 1 },
    { key: "b", name: "Signer 2", order: 2 },
  ]);
});

test("the request names each signer's role on the recipient and on their fields, each field on its document", () => {
  const body = requestBody({
    title: " Lease ",
    message: " ",
    documents: [document("d1"), document("d2")],
    recipients,
    fields: [field("f1", "a", "d1"), field("f2", "b", "d2")],
    send: true,
  });
  expect(body).toEqual({
    title: "Lease",
    documentIds: ["d1", "d2"],
    fields: [
      expect.objectContaining({ role: "Signer 1", documentId: "d1", x: 10, y: 20.1, type: "signature" }),
      expect.objectContaining({ role: "Signer 2", documentId: "d2" }),
    ],
    recipients: [
      { name: "Ada", email: "ada@example.com", kind: "signer", role: "Signer 1", routingOrder: 1 },
      { name: "Cyd", email: "cyd@example.com", kind: "cc", routingOrder: 1 },
      { name: "", email: "bob@example.com", kind: "signer", role: "Signer 2", routingOrder: 2 },
    ],
    send: true,
  });
  expect(body.fields[0]).not.toHaveProperty("key");
  expect(body.fields[0]).not.toHaveProperty("roleKey");
});

test("a template keeps the signers as roles in their order, and their fields, without the people", () => {
  const body = templateBody({
    title: "Lease",
    document: document("d1"),
    recipients,
    fields: [field("f1", "a", "d1"), field("f2", "b", "d1")],
  });
  expect(body.roles).toEqual([
    { name: "Signer 1", order: 1 },
    { name: "Signer 2", order: 2 },
  ]);
  expect(body.fields.map((f) => f.role)).toEqual(["Signer 1", "Signer 2"]);
  expect(JSON.stringify(body)).not.toContain("ada@example.com");
});

test("before sending: a document, a signer, a required signature for every signer, a label on every text field", () => {
  expect(problemsBefore([], [{ ...recipients[1] } as DraftRecipient], []).map((p) => p.path)).toEqual([
    "documentIds",
    "recipients",
  ]);
  const optional = { ...field("f2", "b", "d1"), required: false };
  const text = field("f3", "a", "d1", "text");
  expect(problemsBefore([document("d1")], recipients, [field("f1", "a", "d1"), optional, text])).toEqual([
    { path: "recipients[2]", message: "no required signature field yet: place one for them" },
    { path: "fields[2].label", message: expect.stringMatching(/^give it a label/) },
  ]);
  expect(
    problemsBefore([document("d1")], recipients, [field("f1", "a", "d1"), field("f2", "b", "d1")]),
  ).toEqual([]);
});

test("a copy keeps the title, message, recipients in order and each field on its document for its signer, by its id, with its rules", () => {
  let n = 0;
  const request = {
    title: "Rent",
    message: "Please",
    recipients: [
      { id: "r1", name: "Tess", email: "t@x.test", kind: "signer", routingOrder: 1 },
      { id: "r2", name: "Cyd", email: "c@x.test", kind: "cc", routingOrder: 2 },
      { id: "r3", name: "Em", email: "e@x.test", kind: "signer", routingOrder: 2, clientUserId: "app-42" },
    ],
    fields: [
      {
        id: "f1",
        recipientId: "r1",
        documentId: "d1",
        type: "signature",
        page: 2,
        x: 1,
        y: 2,
        width: 3,
        height: 4,
        required: true,
        label: "Sign",
      },
      {
        id: "f2",
        recipientId: "r1",
        documentId: "d1",
        type: "dropdown",
        page: 1,
        x: 1,
        y: 2,
        width: 3,
        height: 4,
        required: false,
        label: "Plan",
        options: ["Basic", "Team"],
        condition: { fieldId: "f1", value: "x" },
      },
    ],
  } as unknown as SignatureRequest;
  const copy = draftFrom(request, () => `k${n++}`);
  expect(copy.title).toBe("Rent");
  expect(copy.message).toBe("Please");
  expect(copy.recipients).toEqual([
    { key: "k0", name: "Tess", email: "t@x.test", kind: "signer", order: 1 },
    { key: "k1", name: "Cyd", email: "c@x.test", kind: "cc", order: 2 },
    // Signed in the sender's app: the copy's signer is too, not e-mailed a link.
    { key: "k2", name: "Em", email: "e@x.test", kind: "signer", order: 2, clientUserId: "app-42" },
  ]);
  expect(
    requestBody({
      title: "Rent",
      message: "",
      documents: [],
      recipients: copy.recipients,
      fields: [],
      send: true,
    }).recipients[2],
  ).toMatchObject({ email: "e@x.test", clientUserId: "app-42" });
  expect(copy.fields).toEqual([
    {
      key: "f1",
      roleKey: "k0",
      documentId: "d1",
      type: "signature",
      page: 2,
      x: 1,
      y: 2,
      width: 3,
      height: 4,
      required: true,
      label: "Sign",
    },
    {
      key: "f2",
      roleKey: "k0",
      documentId: "d1",
      type: "dropdown",
      page: 1,
      x: 1,
      y: 2,
      width: 3,
      height: 4,
      required: false,
      label: "Plan",
      options: ["Basic", "Team"],
      condition: { fieldId: "f1", value: "x" },
    },
  ]);
});

const tag = (role: string, type = "signature"): TagField => ({
  type: type as TagField["type"],
  role,
  label: "",
  required: true,
  page: 1,
  x: 10,
  y: 10,
  width: 150,
  height: 40,
  cover: { x: 10, y: 10, width: 100, height: 12 },
  documentId: "d1",
});

test("the roles a document's text tags name get signers: a blank signer takes the first, one is added for each other, an existing role is kept", () => {
  let next = 0;
  const keys = () => `new-${++next}`;
  const blank: DraftRecipient[] = [{ key: "a", name: "", email: "", kind: "signer", order: 1 }];
  const signers = withTagSigners(blank, [tag("Client"), tag("Company"), tag("client", "initials")], [], keys);
  expect(signers.map((r) => [r.key, r.role, r.order])).toEqual([
    ["a", "Client", 1],
    ["new-1", "Company", 1],
  ]);
  expect(signersOf(signers).map((s) => s.name)).toEqual(["Client", "Company"]);
  // Nobody asked to place a signature by hand: the tags place one each, and the body says so.
  expect(problemsBefore([document("d1")], signers, [], [tag("Client"), tag("Company")])).toEqual([]);
  const body = requestBody({
    title: "T",
    message: "",
    documents: [document("d1")],
    recipients: signers,
    fields: [],
    send: true,
    tags: [tag("Client")],
  });
  expect(body).toMatchObject({ textTags: true, recipients: [{ role: "Client" }, { role: "Company" }] });
  expect(withTagSigners(signers, [tag("COMPANY")], [], keys)).toEqual(signers);
});
