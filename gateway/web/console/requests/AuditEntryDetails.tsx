/**
 * What an audit entry records beyond its line, shown when it is opened: each detail the service
 * wrote (a reassignment's from, to and reason; a decline's reason), the device, and the entry's hash
 * in the chain. Names and reasons are people's words in any script: each is isolated (<bdi>).
 */
import { Fragment } from "react";
import type { AuditEntry } from "../types";

/** "newEmail" and "new_email" as "new email". */
const words = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replaceAll("_", " ")
    .toLowerCase();

/** A person as "Name <e-mail>"; a list item by item; anything else as the service wrote it. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(shown).join(", ");
  if (typeof value === "object") {
    const { name, email } = value as { name?: unknown; email?: unknown };
    if (typeof name === "string" && typeof email === "string") return `${name} <${email}>`;
  }
  return JSON.stringify(value);
}

export function AuditEntryDetails({ entry }: { entry: AuditEntry }) {
  return (
    <dl className="audit-details">
      {Object.entries(entry.details).map(([key, value]) => (
        <Fragment key={key}>
          <dt>{words(key)}</dt>
          <dd>
            <bdi>{shown(value)}</bdi>
          </dd>
        </Fragment>
      ))}
      {entry.userAgent ? (
        <>
          <dt>device</dt>
          <dd className="break">{entry.userAgent}</dd>
        </>
      ) : null}
      <dt>hash</dt>
      <dd>
        <code className="small break">{entry.hash}</code>
      </dd>
    </dl>
  );
}
