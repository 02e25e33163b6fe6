/**
 * An audit entry's hash is made over canonical JSON: the same entry hashes the same whatever the
 * order of its keys (jsonb gives them back in its own), any change to it changes the hash, and the
 * hash is the one chains were stored with, so that every stored trail still verifies.
 */
import { type AuditEntry, entryHash } from "../src/core/audit-trail.js";

const entry: Omit<AuditEntry, "hash"> = {
  sequence: 2,
  at: new Date("2026-11-25T04:30:00.123Z"),
  action: "signed",
  actor: {
    type: "recipient",
    id: "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b",
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) «Zürich» ✍️",
  },
  details: {
    recipientId: "r-1",
    fields: [
      { id: "f1", value: "Ada Lovelace" },
      { id: "f2", value: true },
    ],
    count: 3,
    ratio: 0.5,
    nothing: null,
    ключ: "значение",
  },
  previousHash: "a".repeat(64),
};

test("the hash of an entry is the one its chain was stored with", () => {
  expect(entryHash(entry)).toBe("34aa94496ce62a522ecc8b28d0c198dcb7b6dd1ba7ea9c4abbb23b6544dfc1a7");
});

test("the order of keys does not change the hash, and any changed value does", () => {
  const reordered = {
    ...entry,
    details: Object.fromEntries(Object.entries(entry.details).reverse()),
    actor: {
      userAgent: entry.actor.userAgent,
      ip: entry.actor.ip,
      id: entry.actor.id,
      type: entry.actor.type,
    },
  };
  expect(entryHash(reordered)).toBe(entryHash(entry));
  expect(entryHash({ ...entry, details: { ...entry.details, count: 4 } })).not.toBe(entryHash(entry));
  expect(entryHash({ ...entry, previousHash: "b".repeat(64) })).not.toBe(entryHash(entry));
});
